// Request bodies on a real server (both adapters): the 2,000,000-byte cap while streaming, drained 413s, chunked uploads, smuggling, aborts.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_HEADERS, expectSecurityHeaders, parseRaw, post, raw, send, startOn, TRANSPORTS } from '../support/http.js';
import type { TestServer } from '../support/http.js';
import { LIMITS } from '../../src/limits/table.js';

// The same suite over both socket adapters: the HTTP rules live in the core, so they must hold on either.
describe.each(TRANSPORTS)('%s adapter', (transport) => {
  const start = startOn(transport);

  /** Sends each frame in its own write, 30 ms apart, and returns everything received until the server closes. */
  function rawSlowly(port: number, frames: (string | Buffer)[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.on('connect', async () => {
        for (const frame of frames) {
          socket.write(frame);
          await new Promise((r) => setTimeout(r, 30));
        }
      });
    });
  }

  /**
   * Writes frames as a real client does (waiting for 'drain', so the event loop keeps reading; pausing near
   * the cap) and stops writing at the first answer byte. A client that blindly queues megabytes can lose an early answer to
   * the reset that follows the server's close, which would test the client, not the server.
   */
  let firstByteMs = Number.NaN;
  function uploadUntilAnswered(port: number, frames: (string | Buffer)[], elapsed: () => number): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const received: Buffer[] = [];
      const done = (): void => resolve(Buffer.concat(received).toString('latin1'));
      socket.on('data', (d: Buffer) => {
        if (received.length === 0) firstByteMs = elapsed();
        received.push(d);
      });
      socket.on('close', done);
      socket.on('error', (error) => (received.length > 0 ? done() : reject(error)));
      socket.on('connect', async () => {
        let sent = 0;
        for (const frame of frames) {
          if (received.length > 0 || socket.destroyed) return;
          if (!socket.write(frame)) await new Promise((r) => socket.once('drain', r));
          sent += frame.length;
          // Near the cap, give the event loop time to read the answer before the next write can meet the server's close.
          if (sent > 1_800_000) await new Promise((r) => setTimeout(r, 2));
        }
      });
    });
  }

  const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await start({ RATE_LIMIT: '100000' });
    port = server.port;
  });
  afterAll(() => server.close());

  describe('request body cap (2,000,000 bytes)', () => {
    it('refuses a declared Content-Length over the cap without reading the body', async () => {
      const text = await raw(port, [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000001\r\n\r\n`]);
      const reply = parseRaw(text);
      expect(reply.status).toBe(413);
      expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Request body too large' } });
      expect(reply.headers['connection']).toBe('close');
      expectSecurityHeaders(reply.headers, '413');
    });

    it('refuses a chunked body the moment it passes the cap, while the client is still sending', async () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const frames: (string | Buffer)[] = [head];
      const total = 5_000_000;
      for (let sent = 0; sent < total; sent += chunk.length) frames.push(`${chunk.length.toString(16)}\r\n`, chunk, '\r\n');
      // The terminating chunk is never sent: the answer must come while the upload is unfinished. node:http answers at
      // once; uWS cannot cut a connection after answering, so it holds a chunked body's answer until the drain ends or
      // times out (request-cycle.ts, LIMITS.drainTimeout.value).
      const started = performance.now();
      const reply = parseRaw(await uploadUntilAnswered(port, frames, () => performance.now() - started));
      expect(reply.status).toBe(413);
      expect(firstByteMs).toBeLessThan(transport === 'node' ? 1_000 : LIMITS.drainTimeout.value + 1_000);
      expect(JSON.parse(reply.body).error.code).toBe(-32600);
    });

    it('answers REST with a JSON error body and accepts a body of exactly the cap', async () => {
      const rest = await send(port, { method: 'POST', path: '/api/session-links', headers: { ...JSON_HEADERS, 'content-length': '2000001' } });
      expect(rest.status).toBe(413);
      expect(rest.json()).toEqual({ error: { code: 'BODY_TOO_LARGE', message: 'Request body too large' } });
      const prefix = '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"';
      const suffix = '"}}';
      const exact = prefix + 'x'.repeat(2_000_000 - prefix.length - suffix.length) + suffix;
      expect(Buffer.byteLength(exact)).toBe(2_000_000);
      const atCap = await post(port, '/mcp', exact);
      expect(atCap.status).toBe(200);
      expect(atCap.json().id).toBe(7);
      const over = await post(port, '/mcp', `${exact} `);
      expect(over.status).toBe(413);
    });

    it('reads a chunked body that arrives in several writes', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'chunked', method: 'ping' });
      const parts = [body.slice(0, 10), body.slice(10, 25), body.slice(25)];
      const frames = [
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
        ...parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`),
        '0\r\n\r\n',
      ];
      const reply = parseRaw(await rawSlowly(port, frames));
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 'chunked', result: {} });
    });

    it('reads a large body the same in one write, in uneven writes that split UTF-8 sequences, and chunked', async () => {
      // ~210 KB of text with 2-, 3- and 4-byte characters: the writes below cut through some of them.
      const description = Array.from({ length: 60_000 }, (_, i) => ['ä', '€', '😀', 'plan '][i % 4]).join('');
      const session = { version: '1.0', workshop: { title: 'Große Pläne', description, date: null, startTime: null }, blockTypes: [], persons: [], items: [] };
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'large', method: 'tools/call', params: { name: 'create_session_link', arguments: { session } } }));
      expect(body.byteLength).toBeGreaterThan(200_000);
      const whole = await post(port, '/mcp', JSON.parse(body.toString()));
      expect(whole.status).toBe(200);
      expect(JSON.parse(whole.json().result.content[0].text).summary.title).toBe('Große Pläne');
      const cuts = [1, 70_001, 70_002, 150_003, body.byteLength - 5, body.byteLength];
      const pieces = cuts.map((end, i) => body.subarray(i === 0 ? 0 : cuts[i - 1], end));
      const head = (framing: string): string => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${framing}\r\nConnection: close\r\n\r\n`;
      const declared = parseRaw(await rawSlowly(port, [head(`Content-Length: ${body.byteLength}`), ...pieces]));
      const chunked = parseRaw(
        await rawSlowly(port, [head('Transfer-Encoding: chunked'), ...pieces.flatMap((p) => [`${p.byteLength.toString(16)}\r\n`, p, '\r\n']), '0\r\n\r\n']),
      );
      for (const reply of [declared, chunked]) {
        expect(reply.status).toBe(200);
        expect(Buffer.from(reply.body, 'latin1').toString('utf8') === whole.text).toBe(true);
      }
    });

    it('refuses two different Content-Length headers (request smuggling)', async () => {
      const text = await raw(port, [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}`]);
      expect(parseRaw(text).status).toBe(400);
    });
  });

  describe('oversized bodies written at once (fetch, node:http): every client reads its 413', () => {
    /** Node's fetch (undici, what the MCP SDK clients use): the whole body is handed over before the answer is read. */
    async function fetchStatus(size: number): Promise<string> {
      try {
        const reply = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: Buffer.alloc(size, 0x20) });
        const body = (await reply.json()) as { error?: { code?: number } };
        return `${reply.status} ${body.error?.code}`;
      } catch (error) {
        return `failed: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`;
      }
    }

    /** node:http writing the whole body in one write, reading the answer only when it comes. */
    function oneWriteStatus(size: number): Promise<string> {
      return new Promise((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/session-links', agent: false, headers: { ...JSON_HEADERS, 'content-length': String(size) } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve(`${res.statusCode} ${(JSON.parse(Buffer.concat(parts).toString()) as { error: { code: string } }).error.code}`));
          res.on('error', (error) => resolve(`failed: ${error.message}`));
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve(`failed: ${error.code ?? error.message}`));
        req.end(Buffer.alloc(size, 0x20));
      });
    }

    it.each([2_100_000, 3_000_000, 10_000_000])('%i bytes: 10 of 10 fetch() and 10 of 10 one-write node:http clients get the 413', async (size) => {
      const fetched: string[] = [];
      const written: string[] = [];
      for (let i = 0; i < 10; i++) {
        fetched.push(await fetchStatus(size));
        written.push(await oneWriteStatus(size));
      }
      expect(fetched).toEqual(Array(10).fill('413 -32600'));
      expect(written).toEqual(Array(10).fill('413 BODY_TOO_LARGE'));
      // The server keeps serving afterwards.
      expect((await post(port, '/mcp', PING)).status).toBe(200);
    });
  });

  describe('connection behaviour', () => {
    it('survives clients that abort mid-body and keeps serving', async () => {
      for (let i = 0; i < 5; i++) {
        await raw(port, [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`], 50);
      }
      const reply = await post(port, '/mcp', PING);
      expect(reply.status).toBe(200);
    });

    it('serves several requests on one keep-alive connection', async () => {
      const one = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${JSON.stringify(PING).length}\r\n\r\n${JSON.stringify(PING)}`;
      const socketText = await raw(port, [one], 300);
      const second = await raw(port, [one, `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], 500);
      expect(socketText.match(/HTTP\/1\.1 200 OK/g)?.length).toBe(1);
      expect(second.match(/HTTP\/1\.1 200 OK/g)?.length).toBe(2);
    });
  });
});
