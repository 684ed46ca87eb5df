// Requests that used to get a wrong answer or none (half-closed sockets, slow readers, pipelined requests), on real servers of both adapters:
// bodies that are not UTF-8, clients that half-close, and requests that wait in the offload queue past the idle timeout.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileCases } from '../fixtures/hostile-cases.js';
import { JSON_HEADERS, send, startOn, TRANSPORTS } from '../support/http.js';
import type { TestServer } from '../support/http.js';
import { loopbackClients, postFrom } from '../support/attacks.js';
import { LIMITS } from '../../src/limits/table.js';

const cases = hostileCases();
const validDecode = cases.find((c) => c.name.startsWith('decode: the largest valid plan'))!;
/** `Grüße` in Latin-1: 0xFC and 0xDF are not UTF-8 (on main this was stored as Gr\uFFFD\uFFFDe in the link). */
const latin1 = (json: string): Buffer => Buffer.from(json, 'latin1');

/** Writes a whole request, ends the client's side at once (FIN), and returns what the server sends until it closes. */
function halfClosed(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
    socket.on('error', () => {});
    socket.on('connect', () => socket.end(request));
    setTimeout(() => socket.destroy(), 20_000);
  });
}

describe.each(TRANSPORTS)('%s adapter', (transport) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOn(transport)({ RATE_LIMIT: '100000' });
  });
  afterAll(() => server.close());

  describe('a body that is not UTF-8', () => {
    const session = '{"version":"1.0","workshop":{"title":"Grüße","description":""},"blockTypes":[],"persons":[],"items":[]}';

    it('is refused on /mcp with -32700 "not valid UTF-8" (HTTP 200, as for any parse error)', async () => {
      const body = latin1(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_session_link","arguments":{"session":${session}}}}`);
      const reply = await send(server.port, { method: 'POST', path: '/mcp', headers: JSON_HEADERS, body });
      expect([reply.status, reply.json()]).toEqual([200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid UTF-8' } }]);
    });

    it('is refused on REST with 400 "not valid UTF-8", also when it is large (assembled in a pooled buffer, read in a thread)', async () => {
      for (const padding of [0, 100_000]) {
        const body = latin1(`{"session":${session.replace('"description":""', `"description":"${'x'.repeat(padding)}"`)}}`);
        const reply = await send(server.port, { method: 'POST', path: '/api/session-links', headers: JSON_HEADERS, body });
        expect([reply.status, reply.json()]).toEqual([400, { error: { code: 'INVALID_REQUEST_BODY', message: 'Request body is not valid UTF-8.' } }]);
      }
    });

    it('still takes the same text as UTF-8 and keeps it exactly', async () => {
      const reply = await send(server.port, { method: 'POST', path: '/api/session-links', headers: JSON_HEADERS, body: Buffer.from(`{"session":${session}}`, 'utf8') });
      const decoded = await send(server.port, { method: 'POST', path: '/api/session-links/decode', headers: JSON_HEADERS, body: JSON.stringify({ link: reply.json().link }) });
      expect(decoded.json().session.workshop.title).toBe('Grüße');
    });
  });

  describe('a client that ends its side after the request', () => {
    const request = (body: string, path: string): string =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

    it('gets the answer of a small request', async () => {
      const text = await halfClosed(server.port, request('{"jsonrpc":"2.0","id":1,"method":"ping"}', '/mcp'));
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
    });

    it(transport === 'node' ? 'gets the answer of an offloaded one too' : 'gets no answer for an offloaded one (uWS closes on the FIN; docs/deployment.md §2.2)', async () => {
      const text = await halfClosed(server.port, request(`{"link":${validDecode.argumentJson}}`, '/api/session-links/decode'));
      if (transport === 'uws') return expect(text).toBe('');
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(text).toContain('"title":"Largest plan"');
    });
  });
});

describe('node:http: a request waiting for an offload thread is not idle', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A one-second idle timeout, so that requests queued behind ~40 costly decodes wait longer than it.
    server = await startOn('node')({ IDLE_TIMEOUT_S: '1' });
  });
  afterAll(() => server.close());

  it('answers every one of 50 simultaneous costly decodes from five clients (200, or 429 beyond a client\'s share), none closed silently', { timeout: 60_000 }, async () => {
    const clients = loopbackClients(5, 40);
    const body = `{"link":${validDecode.argumentJson}}`;
    const t0 = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postFrom(server.port, clients[i % clients.length]!, { path: '/api/session-links/decode', headers: { 'content-type': 'application/json' }, body })),
    );
    const wall = performance.now() - t0;
    const statuses = replies.map((r) => r.status);
    console.log(`50 costly decodes from 5 clients: ${statuses.filter((s) => s === 200).length} × 200, ${statuses.filter((s) => s === 429).length} × 429, ${statuses.filter((s) => s !== 200 && s !== 429).length} other, ${wall.toFixed(0)} ms in all (idle timeout 1 s)`);
    expect(replies.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    // Each client had at least its share queued and answered, beyond the idle timeout.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(clients.length * LIMITS.queuedJobsPerClient.value);
    expect(Math.max(...replies.filter((r) => r.status === 200).map((r) => r.ms))).toBeGreaterThan(1_000);
  });
});
