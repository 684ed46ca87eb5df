// The denial-of-service attacks (test/support/attacks.ts) on the built server as it starts by default (and on uWS where the row applies), from several
// loopback addresses: RSS from /proc, per-thread CPU from /proc, health on fresh connections, refusals in /metrics.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOf } from '../fixtures/hostile-cases.js';
import { closedWithin, counterValue, healthOnce, loopbackClients, neverReading, peakRssWhile, postFrom, probeHealth, rssMb, threadCpuMs, threads, wire } from '../support/attacks.js';
import { startMainProcess, type MainProcess } from '../support/main-process.js';
import { largePlan } from '../fixtures/requests.js';
import { LIMITS } from '../../src/limits/table.js';

/** A decode over MCP 2025-06-18 (legacy era, with structuredContent: the answer holds the document twice). */
const mcpDecode = (link: string): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function metricsOf(server: MainProcess): Promise<string> {
  return (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
}

describe.each(['node', 'uws'] as const)('%s adapter, defaults otherwise (rate limit 60 per minute per client)', (transport) => {
  let server: MainProcess;
  beforeAll(async () => {
    server = await startMainProcess({ TRANSPORT: transport, LOG_LEVEL: 'info', METRICS_PORT: '0' }, { built: true });
    expect((await healthOnce(server.port)).status).toBe(200);
  }, 60_000);
  /**
   * The server's RSS before an attack: the same server takes every row, so each bound is on what its own attack adds
   * (what an earlier row left with the allocator is not this row's).
   */
  const rssBefore = async (): Promise<number> => {
    await sleep(300);
    return rssMb(server.pid);
  };
  afterAll(async () => {
    expect(await server?.stop()).toEqual({ code: 0, signal: null });
  });

  it('row 2: 16 decodes of under 1 KB that expand to 64 K costly characters each are answered off the event loop', { timeout: 60_000 }, async () => {
    // Lone surrogates, the costliest characters, are refused past 10,000; the costliest text a document may still hold
    // in this length is one of many values (JSON.parse pays per object).
    const link = linkOf(`{"workshop":{"title":"W"},"extra":[${Array(15_000).fill('{}').join(',')}]}`);
    const body = mcpDecode(link);
    expect(Buffer.byteLength(body)).toBeLessThan(1_024);
    const clients = loopbackClients(4, 20);
    const before = { main: threadCpuMs(server.pid), all: threads(server.pid).reduce((sum, t) => sum + t.cpuMs, 0) };
    const probe = probeHealth(server.port, 10);
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => postFrom(server.port, clients[i % 4]!, { path: '/mcp', headers: MCP_HEADERS, body })));
    const health = await probe.stop();
    const main = threadCpuMs(server.pid) - before.main;
    const all = threads(server.pid).reduce((sum, t) => sum + t.cpuMs, 0) - before.all;
    console.log(`${transport}: 16 × ${Buffer.byteLength(body)} B decodes (answers ${replies[0]!.bytes} B): server CPU ${all.toFixed(0)} ms, of it on the event loop ${main.toFixed(0)} ms; health ${health.length} probes, max ${Math.max(...health.map((h) => h.ms)).toFixed(0)} ms`);
    expect(replies.map((r) => r.status)).toEqual(Array(16).fill(200));
    expect(health.every((h) => h.status === 200)).toBe(true);
    // Most of the work ran in the offload thread: the event loop only looked at each link and wrote the answers.
    expect(main).toBeLessThan(Math.max(60, all / 2));
  });

  // A document written as 2,000,000 bytes, all quotes: its MCP answer is ~6 MB (the text copy escapes each again), the
  // largest answer a decode can have. The kernel's socket buffers take ~4 MB of it; the rest waits in the server.
  const sixMegabyteAnswer = (): Buffer => {
    const body = mcpDecode(linkOf(JSON.stringify({ workshop: { title: 'W', description: '"'.repeat(999_900) } })));
    return Buffer.from(wire({ path: '/mcp', headers: MCP_HEADERS, body }) + body);
  };

  it('row 3: one client, 40 MCP decodes with ~6 MB answers it never reads: its share is answered, the rest refused, RSS stays bounded', { timeout: 60_000 }, async () => {
    const request = sixMegabyteAnswer();
    const idleRss = await rssBefore();
    const sockets: Socket[] = [];
    const attack = (async () => {
      for (let i = 0; i < 40; i++) sockets.push(await neverReading(server.port, '127.0.0.30', request));
      await sleep(3_000);
    })();
    const peak = await peakRssWhile(server.pid, attack);
    for (const socket of sockets) socket.destroy();
    console.log(`${transport}: one client, 40 unread ~6 MB MCP answers: RSS ${idleRss.toFixed(0)} → peak ${peak.toFixed(0)} MB`);
    expect(peak - idleRss).toBeLessThan(250);
    expect((await healthOnce(server.port)).status).toBe(200);
  });

  it('row 3: eight clients, 40 such decodes: the answer bytes left waiting are capped, the stalled connections closed and counted', { timeout: 60_000 }, async () => {
    const request = sixMegabyteAnswer();
    const idleRss = await rssBefore();
    const before = counterValue(await metricsOf(server), 'sessionplan_slow_reader_closes_total');
    const clients = loopbackClients(8, 31);
    const sockets: Socket[] = [];
    const attack = (async () => {
      for (let i = 0; i < 40; i++) sockets.push(await neverReading(server.port, clients[i % clients.length]!, request));
      // Long enough for the thread to decode the 40 requests (~40 ms each) and their answers to be written.
      await sleep(4_000);
    })();
    const peak = await peakRssWhile(server.pid, attack);
    const closes = counterValue(await metricsOf(server), 'sessionplan_slow_reader_closes_total') - before;
    for (const socket of sockets) socket.destroy();
    console.log(`${transport}: eight clients, 40 unread ~6 MB MCP answers: RSS ${idleRss.toFixed(0)} → peak ${peak.toFixed(0)} MB, ${closes} slow-reader closes`);
    // 40 answers of 6 MB would hold 240 MB: at most 32 MB of them wait, the rest of their connections are cut. What RSS
    // shows beyond is the work itself (40 such decodes read at full speed measure about the same) and the allocator.
    expect(closes).toBeGreaterThanOrEqual(30);
    expect(peak - idleRss).toBeLessThan(350);
    expect((await healthOnce(server.port)).status).toBe(200);
  });

  it('row 4: 150 uploads that stop just short of 1.9 MB are refused once the bytes being received reach their caps (429), RSS stays bounded, health is answered', { timeout: 90_000 }, async () => {
    const declared = 1_900_000;
    const partial = Buffer.alloc(1_850_000, 0x20);
    const head = Buffer.from(wire({ path: '/api/session-links', headers: { 'content-type': 'application/json' }, body: '' }, declared));
    const idleRss = await rssBefore();
    const before = counterValue(await metricsOf(server), 'sessionplan_rate_limit_refusals_total', 'reason="receiving');
    const clients = loopbackClients(10, 50);
    const sockets: Socket[] = [];
    const probe = probeHealth(server.port, 50);
    const attack = (async () => {
      await Promise.all(Array.from({ length: 150 }, async (_, i) => sockets.push(await neverReading(server.port, clients[i % clients.length]!, Buffer.concat([head, partial])))));
      await sleep(1_500);
    })();
    const peak = await peakRssWhile(server.pid, attack);
    const health = await probe.stop();
    const refused = counterValue(await metricsOf(server), 'sessionplan_rate_limit_refusals_total', 'reason="receiving') - before;
    for (const socket of sockets) socket.destroy();
    console.log(`${transport}: 150 stalled 1.9 MB uploads: RSS ${idleRss.toFixed(0)} → peak ${peak.toFixed(0)} MB, ${refused} refused, health ${health.length} probes, max ${Math.max(...health.map((h) => h.ms)).toFixed(0)} ms`);
    expect(peak - idleRss).toBeLessThan(300);
    // 32 MB of body bytes may be held at once (8 MB per client): the rest were refused as their bytes arrived.
    expect(refused).toBeGreaterThanOrEqual(150 - Math.floor(LIMITS.receivingBytes.value / partial.length));
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((h) => h.status === 200)).toBe(true);
  });

  it('row 5: a fifth client\'s 150 KB create waits for the jobs the thread has, not behind four clients spending their allowance', { timeout: 120_000 }, async () => {
    // Each attacker sends its decodes in bursts as fast as answers come; the victim sends one create in the middle.
    // A costly decode that succeeds (lone surrogates past 10,000 are refused): 1.8 MB of text, answers of 1.8 MB (REST)
    // and 3.6 MB (MCP), so that 40 of them in flight stay near the server's 32 MB of answers waiting for readers (a
    // document of quotes, 5.9 MB per MCP answer, passes it under load and one attacker's connection is cut).
    const costlyLink = linkOf(JSON.stringify({ workshop: { title: 'W', description: 'a'.repeat(1_800_000) } }));
    const costly = mcpDecode(costlyLink);
    const restCostly = JSON.stringify({ link: costlyLink });
    const attackers = loopbackClients(4, 70);
    const victimBody = JSON.stringify({ session: largePlan(150_000) });
    const answered: { at: number; status: number }[] = [];
    const statuses = new Map<number, number>();
    const burst = (client: string, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => postFrom(server.port, client, i % 2 === 0 ? { path: '/mcp', headers: MCP_HEADERS, body: costly } : { path: '/api/session-links/decode', headers: { 'content-type': 'application/json' }, body: restCostly }).then((r) => {
        answered.push({ at: performance.now(), status: r.status });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      })));
    const attack = Promise.all(attackers.map(async (client) => {
      for (let round = 0; round < 2; round++) await burst(client, 10);
    }));
    await sleep(300);
    const sent = performance.now();
    const victim = await postFrom(server.port, '127.0.0.99', { path: '/api/session-links', headers: { 'content-type': 'application/json' }, body: victimBody });
    const before = answered.filter((a) => a.status === 200 && a.at > sent && a.at < sent + victim.ms).length;
    await attack;
    console.log(`${transport}: victim's ${Buffer.byteLength(victimBody)} B create: ${victim.status} after ${victim.ms.toFixed(0)} ms, ${before} attacker decodes answered in between; attackers got ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
    expect(victim.status).toBe(200);
    expect([...statuses.keys()].every((s) => s === 200 || s === 429)).toBe(true);
    // Fair queuing: the two jobs the thread has, and the answers already on their way out; never the attackers' queues.
    expect(before).toBeLessThanOrEqual(2 + attackers.length);
    expect(victim.ms).toBeLessThan(5_000);
  });
});

describe('node:http: clients that trickle header bytes', () => {
  let server: MainProcess;
  beforeAll(async () => {
    server = await startMainProcess({ LOG_LEVEL: 'info', MAX_CONNECTIONS: '40' }, { built: true });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('row 9: 40 sockets that never read and send a header byte every 2 s are all closed within the head deadline and a linger, then new connections are served', { timeout: 60_000 }, async () => {
    const sockets = await Promise.all(
      Array.from({ length: 40 }, (_, i) => new Promise<Socket>((resolve) => {
        const socket = connect({ port: server.port, host: '127.0.0.1', localAddress: `127.0.0.${100 + (i % 10)}` }, () => resolve(socket));
        socket.on('error', () => {});
        socket.pause();
      })),
    );
    const t0 = performance.now();
    const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
    let at = 1;
    const trickle = setInterval(() => {
      for (const socket of sockets) if (!socket.destroyed) socket.write(head[at % head.length] ?? 'x');
      at++;
    }, 2_000);
    for (const socket of sockets) socket.write(head[0]!);
    try {
      // While they hold every place, a new connection is turned away; the head deadline (10 s) ends each, and the
      // socket is destroyed 1 s after its 408 however the client trickles on.
      const closedAt = await Promise.all(sockets.map(async (socket) => ((await closedWithin(socket, 20_000)) ? performance.now() - t0 : Number.POSITIVE_INFINITY)));
      console.log(`40 trickling sockets closed after ${Math.min(...closedAt).toFixed(0)}–${Math.max(...closedAt).toFixed(0)} ms`);
      expect(Math.max(...closedAt)).toBeLessThan(14_000);
    } finally {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    }
    expect((await healthOnce(server.port)).status).toBe(200);
  });
});
