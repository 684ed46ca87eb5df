// Answers that say exactly what was sent: a valid request before garbage is still answered, HTTP/2.0 is refused with
// 505, a number too large for a double is named as such, and an id is echoed as its JSON text was written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRaw, post, raw, startOn, TRANSPORTS } from '../support/http.js';
import type { TestServer } from '../support/http.js';

const PING_HEAD = (body: string): string => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;

describe.each(TRANSPORTS)('%s adapter', (transport) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOn(transport)();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['12345678901234567890', '-0', '1.0', '1e400', '0.1e-2', '7'])('echoes the id %s exactly as it was written', async (id) => {
    const reply = await post(server.port, '/mcp', `{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
  });

  it('echoes an exact id in an error too, and reads the id member after other members', async () => {
    const reply = await post(server.port, '/mcp', `{"method":"no/such","params":{"id":1,"x":["}",{"id":2}]},"jsonrpc":"2.0","id":12345678901234567891}`);
    expect(reply.text).toMatch(/^\{"jsonrpc":"2\.0","id":12345678901234567891,"error":\{"code":-32601,/);
  });

  it('names a number beyond the double range as one that is too large, not as "a number"', async () => {
    const body = '{"session":{"version":"1.0","workshop":{"title":"T","description":""},"blockTypes":[],"persons":[],"items":[{"type":"block","id":"a","title":"A","duration":1e400,"blockTypeId":null,"personIds":[],"description":"","notes":"","material":"","fixedStartTime":null}]}}';
    const reply = await post(server.port, '/api/session-links', body);
    expect(reply.status).toBe(422);
    expect(JSON.parse(reply.text)).toEqual({ error: { code: 'SESSION_VALIDATION_FAILED', message: 'items[0].duration: must be a number, not a number too large to represent.' } });
  });
});

describe('node:http adapter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOn('node')();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a valid POST that garbage follows in the same write, then closes the connection', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const text = await raw(server.port, [`${PING_HEAD(body)}${body}\x00\x01GARBAGE /// \r\n\r\n`]);
    const reply = parseRaw(text);
    expect(reply.status).toBe(200);
    expect(reply.headers['connection']).toBe('close');
    expect(reply.body).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });

  it('refuses HTTP/2.0 in a request line with 505', async () => {
    const reply = parseRaw(await raw(server.port, ['GET /mcp HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n']));
    expect(reply.status).toBe(505);
    expect(JSON.parse(reply.body)).toEqual({ error: 'HTTP version not supported; use HTTP/1.1' });
  });
});
