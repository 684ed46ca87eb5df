// Request bodies on a real uWS server: the 2,000,000-byte cap while streaming, chunked uploads, smuggling, aborts, keep-alive.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_HEADERS, expectSecurityHeaders, parseRaw, post, raw, send, startTestServer } from './http-helpers.js';
import type { TestServer } from './http-helpers.js';

/** Sends each frame in its own write, 30 ms apart, and returns everything received until the server closes. */
function rawSlowly(port: number, frames: string[]): Promise<string> {
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
function uploadUntilAnswered(port: number, frames: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const done = (): void => resolve(Buffer.concat(received).toString('latin1'));
    socket.on('data', (d: Buffer) => received.push(d));
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
  server = await startTestServer({ RATE_LIMIT: '100000' });
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
    // The terminating chunk is never sent: the answer must come while the upload is unfinished.
    const reply = parseRaw(await uploadUntilAnswered(port, frames));
    expect(reply.status).toBe(413);
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

  it('refuses two different Content-Length headers (request smuggling)', async () => {
    const text = await raw(port, [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}`]);
    expect(parseRaw(text).status).toBe(400);
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
