// Heavy POSTs answered in an offload thread (OFFLOAD_THREADS): the same answers and events as on the event loop, and a
// health check that is not held up by them.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { textBody } from '../../src/http/body.js';
import { bodyCost, OFFLOAD_MIN_EXPANDED_CHARS, weighDecodeHere } from '../../src/offload/cost.js';
import type { Codec } from '../../src/codec/types.js';
import { createEndpoints } from '../../src/endpoints/endpoints.js';
import { DecodeDeclined, SessionError } from '../../src/session/errors.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { smallPlan } from '../fixtures/requests.js';
import { loadCodec } from '../../src/codec/node.js';
import { hostileCases } from '../fixtures/hostile-cases.js';
import { JSON_HEADERS, send, startTestServer } from '../support/http.js';
import type { TestServer } from '../support/http.js';
import { LIMITS } from '../../src/limits/table.js';

const cases = hostileCases();
const costlyDecode = cases.find((c) => c.name.startsWith('decode: 450 blocks'))!;
const codec = await loadCodec();

/** The real codec, with its decompressions counted. */
function countingCodec(): { codec: Codec; decompressions: () => number } {
  let count = 0;
  const counted: Codec = {
    ...codec,
    decompress: (payload, options) => (count++, codec.decompress(payload, options)),
    decompressIf: (payload, take, options) => (count++, codec.decompressIf(payload, take, options)),
    decompressedLength: (payload) => (count++, codec.decompressedLength(payload)),
    jsonShape: (payload) => (count++, codec.jsonShape(payload)),
  };
  return { codec: counted, decompressions: () => count };
}

/** What a decode of `link` does on the event loop of a server with offload threads: its result, or the cost it declines at. */
async function decodeHere(link: string): Promise<{ decompressions: number; declinedAt?: number }> {
  const { codec: counted, decompressions } = countingCodec();
  const operations = createSessionOperations(() => Promise.resolve(counted), { weighDecode: weighDecodeHere });
  try {
    await operations.decodeSessionLink(link);
    return { decompressions: decompressions() };
  } catch (error) {
    if (error instanceof DecodeDeclined) return { decompressions: decompressions(), declinedAt: error.cost };
    throw error;
  }
}

/** Whether a server with offload threads answers this POST in a thread. */
async function answeredInThread(path: string, body: string): Promise<boolean> {
  if (bodyCost(textBody(body)) > 0) return true;
  const parsed = JSON.parse(body) as { link?: string; params?: { arguments?: { link?: string } } };
  const link = path === '/mcp' ? parsed.params?.arguments?.link : parsed.link;
  return link !== undefined && (await decodeHere(link)).declinedAt !== undefined;
}

describe('which POSTs are heavy', () => {
  it('large bodies of any kind, by their size alone', () => {
    expect(bodyCost(textBody('x'.repeat(LIMITS.heavyBody.value)))).toBeGreaterThan(0);
    expect(bodyCost(textBody('x'.repeat(LIMITS.heavyBody.value - 1)))).toBe(0);
  });

  it('decodes whose link expands to costly work, found by the decode itself with one decompression', async () => {
    // A plan of a few KB: its 2 KB link is decoded on the event loop (a thread round trip would cost more than the work).
    const ordinary = `v2:${codec.compress(JSON.stringify(smallPlan()))}`;
    expect(await decodeHere(ordinary)).toEqual({ decompressions: 1 });
    // A link under 1 KB whose text is costly to answer: declined once measured, its text never made.
    const hostile = JSON.parse(costlyDecode.argumentJson) as string;
    expect(hostile.length).toBeLessThan(LIMITS.heavyBody.value);
    const declined = await decodeHere(hostile);
    expect(declined.decompressions).toBe(1);
    expect(declined.declinedAt).toBeGreaterThanOrEqual(OFFLOAD_MIN_EXPANDED_CHARS);
    // A long text is declined on its length alone.
    const long = `v2:${codec.compress(JSON.stringify({ notes: 'a'.repeat(OFFLOAD_MIN_EXPANDED_CHARS) }))}`;
    expect(weighDecodeHere(OFFLOAD_MIN_EXPANDED_CHARS, undefined)).toBeGreaterThan(0);
    expect(await decodeHere(long)).toEqual({ decompressions: 1, declinedAt: 2 * (OFFLOAD_MIN_EXPANDED_CHARS + 12) });
    // What fails on the way is refused here, cheaply.
    await expect(decodeHere(`v2:${'A'.repeat(200)}`)).rejects.toBeInstanceOf(SessionError);
    await expect(decodeHere('short')).rejects.toBeInstanceOf(SessionError);
  });

  it("parses an MCP decode's body once when it is answered here", async () => {
    const local = createEndpoints('https://sessionplan.de/', { recordEvent: () => {} }, { weighDecode: weighDecodeHere });
    const link = `v2:${codec.compress(JSON.stringify(smallPlan()))}`;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link } } });
    await local.mcp({ headers: {}, body: textBody(body) }); // warm: the codec loads
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const answer = await local.mcp({ headers: {}, body: textBody(body) });
      expect(answer.status).toBe(200);
      // The body, then the document the link holds.
      expect(parse.mock.calls.map(([text]) => text)).toEqual([body, JSON.stringify(smallPlan())]);
    } finally {
      parse.mockRestore();
    }
  });
});
const validCreate = cases.find((c) => c.name.startsWith('create: the largest valid plan'))!;
const validDecode = cases.find((c) => c.name.startsWith('decode: the largest valid plan'))!;
const requests = [
  { path: '/api/session-links', body: `{"session":${validCreate.argumentJson}}` },
  { path: '/api/session-links/decode', body: `{"link":${validDecode.argumentJson}}` },
  { path: '/api/session-links/decode', body: `{"link":${costlyDecode.argumentJson}}` },
  { path: '/mcp', body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link: JSON.parse(validDecode.argumentJson) as string } } }) },
  { path: '/mcp', body: `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"create_session_link","arguments":{"session":${validCreate.argumentJson}}}}` },
];

let offloaded: TestServer;
let inline: TestServer;
beforeAll(async () => {
  offloaded = await startTestServer({ OFFLOAD_THREADS: '1', RATE_LIMIT: '100000' });
  inline = await startTestServer({ OFFLOAD_THREADS: '0', RATE_LIMIT: '100000' });
});
afterAll(async () => {
  await offloaded?.close();
  await inline?.close();
});

const events = async (server: TestServer): Promise<string> =>
  (await server.metrics.render()).body.split('\n').filter((line) => line.startsWith('sessionplan_session_link_events_total{')).sort().join('\n');

const protocolErrors = (counted: string): number =>
  Number(counted.split('\n').find((line) => line.includes('operation="decode",outcome="protocol_error"'))?.split(' ').pop() ?? 0);

describe('OFFLOAD_THREADS=1 against OFFLOAD_THREADS=0', () => {
  it('gives byte-identical answers and counts the same events', { timeout: 60_000 }, async () => {
    for (const { path, body } of requests) {
      const [a, b] = await Promise.all([send(offloaded.port, { method: 'POST', path, headers: JSON_HEADERS, body }), send(inline.port, { method: 'POST', path, headers: JSON_HEADERS, body })]);
      expect(await answeredInThread(path, body), path).toBe(true);
      expect([a.status, a.text.length], path).toEqual([b.status, b.text.length]);
      expect(a.text === b.text, `${path}: the same answer body`).toBe(true);
    }
    const counted = await events(offloaded);
    expect(counted).toContain('outcome="success"');
    expect(counted).toBe(await events(inline));
  });

  it('refuses on the event loop, without decoding, a costly decode whose modern headers name another tool', async () => {
    const link = JSON.parse(costlyDecode.argumentJson) as string;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'decode_session_link', arguments: { link }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    const headers = { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'create_session_link' };
    const before = await events(offloaded);
    const reply = await send(offloaded.port, { method: 'POST', path: '/mcp', headers, body });
    expect([reply.status, reply.json().error.code, reply.json().error.message]).toEqual([400, -32020, 'Header mismatch: the Mcp-Name header must equal params.name']);
    // Counted as a protocol error of a decode call; no decode outcome moved.
    const moved = (await events(offloaded)).split('\n').filter((line) => !before.split('\n').includes(line));
    expect(moved).toEqual([`sessionplan_session_link_events_total{endpoint="mcp",operation="decode",outcome="protocol_error"} ${protocolErrors(before) + 1}`]);
  });

  it('keeps health fast while ten costly decodes run (on the event loop they hold it up)', { timeout: 60_000 }, async () => {
    const healthWhile = async (server: TestServer): Promise<number> => {
      const decodes = Promise.all(
        Array.from({ length: 10 }, () => send(server.port, { method: 'POST', path: '/api/session-links/decode', headers: JSON_HEADERS, body: `{"link":${costlyDecode.argumentJson}}` })),
      );
      let worst = 0;
      let done = false;
      void decodes.then(() => (done = true));
      while (!done) {
        const t0 = performance.now();
        expect((await send(server.port, { path: '/mcp' })).status).toBe(200);
        worst = Math.max(worst, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect((await decodes).map((r) => r.status)).toEqual(Array(10).fill(422));
      return worst;
    };
    const inThread = await healthWhile(offloaded);
    const onLoop = await healthWhile(inline);
    console.log(`health while 10 costly decodes run: worst ${inThread.toFixed(0)} ms with an offload thread, ${onLoop.toFixed(0)} ms on the event loop`);
    expect(inThread).toBeLessThan(100);
  });
});

const eventCount = async (server: TestServer): Promise<number> =>
  (await events(server)).split('\n').reduce((sum, line) => sum + (Number(line.split(' ').pop()) || 0), 0);

describe('the offload queue', () => {
  it('answers 429 with Retry-After once the queued bodies pass their cap, in each endpoint family, and counts it', { timeout: 60_000 }, async () => {
    const create = `{"session":${validCreate.argumentJson}}`;
    const mcpCreate = requests[4]!.body;
    // Each body is ~1.75 MB: a thread runs one, the queue holds 19 of them; ten clients send four each (as many as one
    // client's share of the bytes being received holds at once), so the rest must be refused at once.
    const fit = Math.floor(LIMITS.queuedBytesPerThread.value / Buffer.byteLength(create));
    const clients = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);
    const perClient = Math.floor(LIMITS.clientReceivingBytes.value / Buffer.byteLength(create));
    expect(perClient).toBeLessThanOrEqual(LIMITS.queuedJobsPerClient.value);
    const total = clients.length * perClient;
    expect(total).toBeGreaterThan(2 * fit);
    const replies = await Promise.all(
      Array.from({ length: total }, (_, i) => {
        const localAddress = clients[i % clients.length]!;
        return send(offloaded.port, i % 2 === 0 ? { method: 'POST', path: '/api/session-links', headers: JSON_HEADERS, body: create, localAddress } : { method: 'POST', path: '/mcp', headers: JSON_HEADERS, body: mcpCreate, localAddress });
      }),
    );
    const busy = replies.filter((r) => r.status === 429);
    const served = replies.filter((r) => r.status === 200);
    console.log(`${total} concurrent 1.75 MB creates from ${clients.length} clients: ${served.length} answered, ${busy.length} refused 429 (queue cap ${LIMITS.queuedBytesPerThread.value.toLocaleString('en-US')} bytes per thread)`);
    expect(served.length + busy.length).toBe(total);
    expect(served.length).toBeGreaterThanOrEqual(fit);
    for (const r of busy) expect(r.headers['retry-after']).toBe(String(LIMITS.busyRetryAfter.value));
    const server = 'Rate limit exceeded: too many large requests are waiting on this server; retry in a few seconds';
    const client = 'Rate limit exceeded: too many of your large requests are waiting on this server; retry once they are answered';
    const known = [
      JSON.stringify({ error: { code: 'SERVER_BUSY', message: server } }),
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: server } }),
      JSON.stringify({ error: { code: 'RATE_LIMITED', message: client } }),
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: client } }),
    ];
    for (const r of busy) expect(known).toContain(r.text);
    // The server-wide cap was what refused some of them (the per-client cap alone would have let 24 wait).
    expect(busy.filter((r) => r.text.includes('this server; retry in a few seconds')).length).toBeGreaterThan(0);
    const counted = (await offloaded.metrics.render()).body.split('\n').filter((l) => l.startsWith('sessionplan_rate_limit_refusals_total{') && /reason="(busy|receiving)(_client)?"/.test(l));
    expect(counted.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0)).toBe(busy.length);
    // Once the queue has drained, large requests are taken again.
    expect((await send(offloaded.port, { method: 'POST', path: '/api/session-links', headers: JSON_HEADERS, body: create })).status).toBe(200);
  });

  it('drops the queued jobs of clients that went away without running them', { timeout: 60_000 }, async () => {
    const body = `{"link":${costlyDecode.argumentJson}}`;
    const before = await eventCount(offloaded);
    const head = `POST /api/session-links/decode HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const sockets = await Promise.all(
      Array.from({ length: 10 }, () => new Promise<ReturnType<typeof connect>>((resolve) => {
        const socket = connect(offloaded.port, '127.0.0.1', () => socket.write(head + body, () => resolve(socket)));
        socket.on('error', () => {});
      })),
    );
    // All ten are read and queued within a few ms; one runs (~30 ms), the clients leave while the rest wait.
    await new Promise((r) => setTimeout(r, 15));
    for (const socket of sockets) socket.destroy();
    // A request after them (from another client: the server may not have seen the first one leave yet, and one client may
    // have only so many jobs waiting) is answered once the thread is free: the jobs left behind were dropped, not run.
    const t0 = performance.now();
    expect((await send(offloaded.port, { method: 'POST', path: '/api/session-links/decode', headers: JSON_HEADERS, body, localAddress: '127.0.0.77' })).status).toBe(422);
    const waited = performance.now() - t0;
    const ran = (await eventCount(offloaded)) - before - 1;
    console.log(`10 costly decodes whose clients left while queued: ${ran} ran, the next decode was answered after ${waited.toFixed(0)} ms`);
    expect(ran).toBeLessThanOrEqual(5); // two in flight per thread, one or two dispatched before the clients left; all ten without the drop
  });
});
