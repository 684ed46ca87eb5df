// Valid but unusual HTTP/1.1 (and 1.0) requests over raw sockets: every one is answered on the default setup; the
// limits (header lines, header bytes, Host) are answered too. The uWS rows record what uWS 20.30 leaves unanswered.
import { connect } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits/table.js';
import { startTestServer, TRANSPORTS } from '../support/http.js';
import type { TestServer } from '../support/http.js';

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const post = (headers: string, body = PING, target = '/mcp', version = 'HTTP/1.1'): string =>
  `POST ${target} ${version}\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Content-Length: ${body.length}\r\n\r\n${body}`;
const filler = (n: number): string => Array.from({ length: n }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');

interface Row {
  name: string;
  /** Written one after another, a few ms apart. */
  writes: string[];
  /** Status codes expected, in order (pipelined requests answer several). */
  statuses: number[];
}

/** Valid requests: each must be answered (RFC 9110 token header names, HTTP/1.0, absolute-form, pipelining…). */
const VALID: Row[] = [
  ...['X_Request_Id', 'X.Trace', 'X~Tilde', "X'Quote", 'X|Pipe', 'X!Bang', 'X#Hash', 'X^Caret', 'X`Tick'].map((name) => ({ name: `header name ${name}`, writes: [post(`${name}: 1\r\n`)], statuses: [200] })),
  // post() writes 3 header lines of its own.
  { name: '49 header lines', writes: [post(filler(46))], statuses: [200] },
  { name: '60 header lines', writes: [post(filler(57))], statuses: [200] },
  { name: `${LIMITS.headLines.value} header lines (the limit)`, writes: [post(filler(LIMITS.headLines.value - 3))], statuses: [200] },
  { name: '8 KB header value in one write', writes: [post(`X-Big: ${'a'.repeat(8_000)}\r\n`)], statuses: [200] },
  { name: '8 KB header value split over two writes', writes: [post(`X-Big: ${'a'.repeat(8_000)}\r\n`).slice(0, 4_000), post(`X-Big: ${'a'.repeat(8_000)}\r\n`).slice(4_000)], statuses: [200] },
  { name: 'request line split over two writes', writes: ['POST /m', post('').slice(7)], statuses: [200] },
  { name: 'HTTP/1.0 with Host', writes: [post('', PING, '/mcp', 'HTTP/1.0')], statuses: [200] },
  // Answered by the DNS-rebinding guard: this test server listens on loopback, where a Host must name it.
  { name: 'HTTP/1.0 without Host', writes: [`GET /mcp HTTP/1.0\r\n\r\n`], statuses: [403] },
  { name: 'absolute-form target', writes: [`GET http://127.0.0.1/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], statuses: [200] },
  { name: 'HEAD then GET pipelined', writes: [`HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], statuses: [200, 200] },
  { name: 'two POSTs pipelined', writes: [post('') + post('')], statuses: [200, 200] },
  { name: 'empty header value and tabs around a value', writes: [post('X-Empty:\r\nX-Tabs:\t v \t\r\n')], statuses: [200] },
  { name: 'chunked body with an extension and a trailer', writes: [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${PING.length.toString(16)};ext=1\r\n${PING}\r\n0\r\nX-Trailer: t\r\n\r\n`], statuses: [200] },
  { name: 'Expect: 100-continue', writes: [post('Expect: 100-continue\r\n')], statuses: [200] },
  { name: 'percent-encoded query string', writes: [`GET /mcp?q=%E2%9C%93&x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], statuses: [200] },
  { name: 'OPTIONS /mcp with no Origin', writes: [`OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], statuses: [204] },
];

/** Beyond the documented limits, or missing what HTTP/1.1 requires: answered with a status and a body, never silence. */
const AT_THE_LIMITS: Row[] = [
  { name: `${LIMITS.headLines.value + 1} header lines → 431`, writes: [post(filler(LIMITS.headLines.value - 2))], statuses: [431] },
  { name: '17 KB of header → 431', writes: [post(`X-Big: ${'a'.repeat(17_000)}\r\n`)], statuses: [431] },
  { name: 'HTTP/1.1 without Host → 400', writes: [`GET /mcp HTTP/1.1\r\n\r\n`], statuses: [400] },
];

const chunkedHead = (coding: string): string => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${coding}\r\n`;
/**
 * Malformed framing, and a method this server does not serve: a 400, 405 or 413 where node:http lets the server answer
 * (it used to close these silently), never silence.
 */
const MALFORMED: Row[] = [
  { name: 'a chunk size that is not hex → 400', writes: [`${chunkedHead('Transfer-Encoding: chunked\r\n')}zz\r\n${PING}\r\n0\r\n\r\n`], statuses: [400] },
  { name: 'CONNECT → 405', writes: [`CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], statuses: [405] },
  { name: 'Transfer-Encoding: identity with a Content-Length → 400', writes: [post('Transfer-Encoding: identity\r\n')], statuses: [400] },
  { name: 'Transfer-Encoding: identity alone → 400', writes: [`${chunkedHead('Transfer-Encoding: identity\r\n')}${PING}`], statuses: [400] },
  { name: 'two Transfer-Encoding: chunked headers → 400', writes: [`${chunkedHead('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n')}${PING.length.toString(16)}\r\n${PING}\r\n0\r\n\r\n`], statuses: [400] },
  { name: 'Transfer-Encoding : chunked (white space before the colon) → 400', writes: [`${chunkedHead('Transfer-Encoding : chunked\r\n')}${PING.length.toString(16)}\r\n${PING}\r\n0\r\n\r\n`], statuses: [400] },
];

/** How uWS 20.30 differs (measured; docs/deployment.md): mostly no answer at all, which is why node:http is the default. */
const UWS_DIFFERS = new Map<string, number[] | 'unanswered'>([['17 KB of header → 431', [200]], ...[
  'header name X_Request_Id', 'header name X.Trace', 'header name X~Tilde', "header name X'Quote", 'header name X|Pipe', 'header name X!Bang',
  'header name X#Hash', 'header name X^Caret', 'header name X`Tick', '49 header lines', '60 header lines', `${LIMITS.headLines.value} header lines (the limit)`,
  '8 KB header value split over two writes', 'HTTP/1.0 with Host', 'HTTP/1.0 without Host', 'absolute-form target', 'HEAD then GET pipelined',
  'chunked body with an extension and a trailer', `${LIMITS.headLines.value + 1} header lines → 431`, 'HTTP/1.1 without Host → 400',
  // docs/deployment.md §2.2: uWS closes these without an answer, or (CONNECT, white space before a colon) holds the
  // connection for ~11 s before closing it. Two Transfer-Encoding headers reach the core, which refuses them.
  'a chunk size that is not hex → 400', 'CONNECT → 405', 'Transfer-Encoding: identity with a Content-Length → 400', 'Transfer-Encoding: identity alone → 400',
  'Transfer-Encoding : chunked (white space before the colon) → 400',
].map((name) => [name, 'unanswered'] as [string, 'unanswered'])]);

/**
 * uWS 20.30 closes a connection whose next pipelined request arrives while an answer is still pending. Whether the
 * first of two pipelined POSTs is answered before the second is parsed depends on load: it is answered at once when it
 * is the first request of its event-loop turn, else at the turn's end (src/http/turn-batch.ts). This table sends all
 * rows at once, so on uWS that row may get both answers or none; test/server/http-turn-batch.test.ts checks each case.
 */
const UWS_EITHER = new Map<string, readonly (number[] | 'unanswered')[]>([['two POSTs pipelined', [[200, 200], 'unanswered']]]);

/** Writes the frames and collects the answer until the server closes or 1.5 s pass without data; returns the statuses. */
function exchange(port: number, writes: string[]): Promise<number[]> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve([...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1])).filter((status) => status !== 100));
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(done, 1_500);
    };
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      arm();
    });
    socket.on('close', done);
    socket.on('error', done);
    socket.on('connect', async () => {
      for (const frame of writes) {
        socket.write(frame);
        await new Promise((r) => setTimeout(r, 20));
      }
      arm();
    });
  });
}

describe.each(TRANSPORTS)('%s adapter', (transport) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRANSPORT: transport, RATE_LIMIT: '100000' });
  });
  afterAll(() => server.close());

  const rows = [...VALID, ...AT_THE_LIMITS, ...MALFORMED];
  it(`answers ${transport === 'node' ? `all ${rows.length}` : 'the expected'} rows of the table`, async () => {
    const outcomes = await Promise.all(rows.map(async (row) => [row.name, await exchange(server.port, row.writes)] as const));
    const expected = rows.map((row) => [row.name, (transport === 'uws' ? UWS_DIFFERS.get(row.name) : undefined) ?? row.statuses] as const);
    const got = outcomes.map(([name, statuses]) => {
      const outcome = statuses.length === 0 ? 'unanswered' : statuses;
      const either = transport === 'uws' ? UWS_EITHER.get(name) : undefined;
      // A row with two possible outcomes on uWS is reported as its first one when it got either of them.
      const settled = either?.some((allowed) => isDeepStrictEqual(allowed, outcome)) === true ? either[0]! : outcome;
      return [name, settled] as const;
    });
    expect(got).toEqual(expected);
  });

  it('answers Expect: 100-continue with 413 at once, without 100, when the declared length is over the cap (uWS sends 100 first)', async () => {
    const text = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      const t0 = performance.now();
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      // The client never sends the body it was not invited to send: the server closes at once.
      socket.on('close', () => resolve(`${received}|closed after ${Math.round(performance.now() - t0)} ms`));
      socket.on('connect', () => socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\nExpect: 100-continue\r\n\r\n`));
      setTimeout(() => socket.destroy(), 3_000);
    });
    if (transport === 'uws') return expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 413 /);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(Number(/closed after (\d+) ms/.exec(text)![1])).toBeLessThan(2_000);
  });

  it('sends 100 Continue for an accepted Expect: 100-continue, then answers the body', async () => {
    const text = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => {
        received += d.toString('latin1');
        if (received.startsWith('HTTP/1.1 100') && !received.includes('200 OK')) socket.write(PING);
        if (received.includes('"result"')) socket.destroy();
      });
      socket.on('close', () => resolve(received));
      socket.on('connect', () => socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${PING.length}\r\nExpect: 100-continue\r\n\r\n`));
      setTimeout(() => socket.destroy(), 3_000);
    });
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });

  it('answers a limit refusal with the security headers and a JSON body', async () => {
    const text = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('close', () => resolve(received));
      socket.on('connect', () => socket.write(`GET /mcp HTTP/1.1\r\n\r\n`));
      setTimeout(() => socket.destroy(), 2_000);
    });
    if (transport === 'uws') return expect(text).toBe(''); // uWS 20.30 closes such a request without an answer
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe('{"error":"An HTTP/1.1 request needs a Host header"}');
  });
});

it('the table holds at least 20 valid-but-unusual requests', () => {
  expect(VALID.length).toBeGreaterThanOrEqual(20);
});
