// Heavy POSTs answered in an offload thread (OFFLOAD_THREADS): the same answers and events as on the event loop, and a
// health check that is not held up by them.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textBody } from '../../src/http/body.js';
import { MAX_CLIENT_RECEIVING_BYTES } from '../../src/http/reception.js';
import { heavyCost, OFFLOAD_MIN_BODY_BYTES, OFFLOAD_MIN_DECODE_CHARS } from '../../src/offload/cost.js';
import { BUSY_RETRY_AFTER_S, MAX_QUEUED_BYTES_PER_THREAD, MAX_QUEUED_JOBS_PER_CLIENT } from '../../src/offload/pool.js';
import { smallPlan } from '../fixtures/requests.js';
import { loadCodec } from '../../src/codec/node.js';
import { hostileCases } from '../fixtures/hostile-cases.js';
import { JSON_HEADERS, send, startTestServer } from '../support/http.js';
import type { TestServer } from '../support/http.js';

const cases = hostileCases();
const costlyDecode = cases.find((c) => c.name.startsWith('decode: 450 blocks'))!;
const codec = await loadCodec();
const isHeavy = (...args: Parameters<typeof heavyCost>): boolean => heavyCost(...args) > 0;

describe('which POSTs are heavy', () => {
  it('large bodies of any kind, and decodes of links that expand to 64 K characters or more', () => {
    const big = textBody('x'.repeat(OFFLOAD_MIN_BODY_BYTES));
    for (const kind of ['mcp', 'create', 'decode'] as const) expect(isHeavy(kind, big, codec)).toBe(true);
    expect(isHeavy('create', textBody('x'.repeat(OFFLOAD_MIN_BODY_BYTES - 1)), codec)).toBe(false);
    // A plan of a few KB: its 2 KB link is decoded on the event loop (a thread round trip would cost more than the work).
    const ordinary = `v2:${codec.compress(JSON.stringify(smallPlan()))}`;
    expect(ordinary.length).toBeGreaterThan(OFFLOAD_MIN_DECODE_CHARS);
    const hostile = JSON.parse(costlyDecode.argumentJson) as string;
    expect(hostile.length).toBeLessThan(OFFLOAD_MIN_BODY_BYTES);
    const mcpDecode = (link: string): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link } } });
    expect([isHeavy('decode', textBody(JSON.stringify({ link: ordinary })), codec), isHeavy('mcp', textBody(mcpDecode(ordinary)), codec)]).toEqual([false, false]);
    expect([isHeavy('decode', textBody(JSON.stringify({ link: hostile })), codec), isHeavy('mcp', textBody(mcpDecode(hostile)), codec)]).toEqual([true, true]);
    // The tool's name spelled with JSON escapes is the same name to JSON.parse, and just as heavy.
    const escaped = mcpDecode(hostile).replace('"decode_session_link"', '"decode\\u005fsession\\u005Flink"');
    expect(escaped).not.toContain('decode_session_link');
    expect((JSON.parse(escaped) as { params: { name: string } }).params.name).toBe('decode_session_link');
    expect(isHeavy('mcp', textBody(escaped), codec)).toBe(true);
    // What fails on the way is refused cheaply by the endpoint itself: not heavy.
    expect(isHeavy('decode', textBody(`{"link":"${'A'.repeat(OFFLOAD_MIN_DECODE_CHARS)}"}`), codec)).toBe(false);
    expect(isHeavy('decode', textBody(`{"link":${'['.repeat(30_000)}`), codec)).toBe(false);
    expect(isHeavy('create', textBody(JSON.stringify({ link: hostile })), codec)).toBe(false);
    expect(isHeavy('decode', textBody('{"link":"short"}'), codec)).toBe(false);
  });

  it('a modern MCP request whose headers name another tool, without reading its body', () => {
    const hostile = JSON.parse(costlyDecode.argumentJson) as string;
    const body = textBody(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link: hostile } } }));
    const unread = { byteLength: body.byteLength, text: () => { throw new Error('the body was read'); }, takeBuffer: body.takeBuffer, release: body.release };
    const modern = (name?: string, method = 'tools/call'): Record<string, string> => ({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    });
    // The modern checks refuse the body unless Mcp-Method is tools/call and Mcp-Name names the called tool.
    expect(isHeavy('mcp', unread, codec, modern('create_session_link'))).toBe(false);
    expect(isHeavy('mcp', unread, codec, modern())).toBe(false);
    expect(isHeavy('mcp', unread, codec, modern('decode_session_link', 'tools/list'))).toBe(false);
    // Headers that do name the tool (also in Base64), or a legacy request (which ignores Mcp-Name): the body decides.
    const base64 = `=?base64?${Buffer.from('decode_session_link').toString('base64')}?=`;
    for (const headers of [modern('decode_session_link'), modern(base64), modern(' decode_session_link\t'), { 'mcp-protocol-version': '2025-06-18', 'mcp-name': 'create_session_link' }, {}]) {
      expect(isHeavy('mcp', body, codec, headers), JSON.stringify(headers)).toBe(true);
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
      expect(isHeavy(path === '/mcp' ? 'mcp' : path.endsWith('decode') ? 'decode' : 'create', textBody(body), codec), path).toBe(true);
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
    expect(isHeavy('mcp', textBody(body), codec, headers)).toBe(false);
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
    const fit = Math.floor(MAX_QUEUED_BYTES_PER_THREAD / Buffer.byteLength(create));
    const clients = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);
    const perClient = Math.floor(MAX_CLIENT_RECEIVING_BYTES / Buffer.byteLength(create));
    expect(perClient).toBeLessThanOrEqual(MAX_QUEUED_JOBS_PER_CLIENT);
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
    console.log(`${total} concurrent 1.75 MB creates from ${clients.length} clients: ${served.length} answered, ${busy.length} refused 429 (queue cap ${MAX_QUEUED_BYTES_PER_THREAD.toLocaleString('en-US')} bytes per thread)`);
    expect(served.length + busy.length).toBe(total);
    expect(served.length).toBeGreaterThanOrEqual(fit);
    for (const r of busy) expect(r.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_S));
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
