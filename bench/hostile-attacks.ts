// bench:hostile, part two — the attacks of test/support/attacks.ts at full size against the built server (dist/process/main.js, defaults),
// and against an older build side by side when HOSTILE_BASE names its checkout: RSS, victim latency, answers, health.
import type { Socket } from 'node:net';
import { linkOf } from '../test/fixtures/hostile-cases.js';
import { closedWithin, counterValue, healthOnce, loopbackClients, neverReading, peakRssWhile, postFrom, probeHealth, rssMb, shareOf, steadyPosts, tricklingSockets, wire } from '../test/support/attacks.js';
import { largePlan, smallPlan } from '../test/fixtures/requests.js';
import { startMainProcess, type MainProcess } from '../test/support/main-process.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const round = (x: number): number => Math.round(x);
const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const REST = { 'content-type': 'application/json' };
const mcpDecode = (link: string): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link } } });

type Server = MainProcess;

/** `root`'s built server as it starts by default (rate limit 60 per minute, node:http, one offload thread), plus `env`. */
const start = (root: string, env: Record<string, string> = {}): Promise<Server> => startMainProcess({ METRICS_PORT: '0', LOG_LEVEL: 'info', ...env }, { built: true, root });

const metricsOf = async (server: Server): Promise<string> => (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();

/** Peak RSS above `idle` (MB) while `work` runs. */
const rssAbove = async (pid: number, idle: number, work: Promise<unknown>): Promise<number> => round((await peakRssWhile(pid, work)) - idle);

const count = (statuses: number[]): Record<string, number> => statuses.reduce<Record<string, number>>((acc, s) => ((acc[String(s)] = (acc[String(s)] ?? 0) + 1), acc), {});

/** Row 3: `clients` loopback clients send 40 MCP decodes of `link` between them and never read the answers. */
async function unreadAnswers(server: Server, link: string, clients: number) {
  const body = mcpDecode(link);
  const request = Buffer.from(wire({ path: '/mcp', headers: MCP, body }) + body);
  const idle = rssMb(server.child.pid!);
  const addresses = loopbackClients(clients, 30);
  const sockets: Socket[] = [];
  const probe = probeHealth(server.port, 50);
  const rssPlusMb = await rssAbove(server.child.pid!, idle, (async () => {
    for (let i = 0; i < 40; i++) sockets.push(await neverReading(server.port, addresses[i % clients]!, request));
    await sleep(8_000);
  })());
  const health = await probe.stop();
  for (const socket of sockets) socket.destroy();
  return { rssPlusMb, slowReaderCloses: counterValue(await metricsOf(server), 'sessionplan_slow_reader_closes_total'), healthMaxMs: round(Math.max(...health.map((h) => h.ms))), healthFailed: health.filter((h) => h.status !== 200).length };
}

/** Row 4: `n` uploads of a declared 1.9 MB from ten clients that send 1.85 MB and stall. */
async function stalledUploads(server: Server, n: number) {
  const head = Buffer.from(wire({ path: '/api/session-links', headers: REST, body: '' }, 1_900_000));
  const bytes = Buffer.concat([head, Buffer.alloc(1_850_000, 0x20)]);
  const idle = rssMb(server.child.pid!);
  const addresses = loopbackClients(10, 50);
  const sockets: Socket[] = [];
  const probe = probeHealth(server.port, 50);
  const rssPlusMb = await rssAbove(server.child.pid!, idle, (async () => {
    await Promise.all(Array.from({ length: n }, async (_, i) => sockets.push(await neverReading(server.port, addresses[i % 10]!, bytes).catch(() => undefined as unknown as Socket))));
    await sleep(3_000);
  })());
  const health = await probe.stop();
  for (const socket of sockets) socket?.destroy();
  return { rssPlusMb, refusedAtHead: counterValue(await metricsOf(server), 'sessionplan_rate_limit_refusals_total', 'reason="receiving"'), healthMaxMs: round(Math.max(...health.map((h) => h.ms))), healthFailed: health.filter((h) => h.status !== 200).length };
}

/** Row 5: four clients spend their allowance (60 MCP + 60 REST decodes each) in bursts of 20; a fifth creates 150 KB. */
async function victim(server: Server, link: string) {
  const mcp = { path: '/mcp', headers: MCP, body: mcpDecode(link) };
  const rest = { path: '/api/session-links/decode', headers: REST, body: JSON.stringify({ link }) };
  const statuses: number[] = [];
  const attack = Promise.all(loopbackClients(4, 70).map(async (client) => {
    for (let burst = 0; burst < 6; burst++) {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => postFrom(server.port, client, i % 2 === 0 ? mcp : rest)));
      statuses.push(...replies.map((r) => r.status));
    }
  }));
  const victims: { status: number; ms: number }[] = [];
  const body = JSON.stringify({ session: largePlan(150_000) });
  for (let i = 0; i < 5; i++) {
    await sleep(1_000);
    const reply = await postFrom(server.port, '127.0.0.99', { path: '/api/session-links', headers: REST, body });
    victims.push({ status: reply.status, ms: round(reply.ms) });
  }
  await attack;
  return { victim: victims, victimWorstMs: Math.max(...victims.map((v) => v.ms)), attackers: count(statuses) };
}

/** Row 6: 50 simultaneous decodes of `link` from five clients: every one must get an answer. */
async function queuedDecodes(server: Server, link: string) {
  const rest = { path: '/api/session-links/decode', headers: REST, body: JSON.stringify({ link }) };
  const clients = loopbackClients(5, 80);
  const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => postFrom(server.port, clients[i % 5]!, rest)));
  return { statuses: count(replies.map((r) => r.status)), noAnswer: replies.filter((r) => r.status === 0).length, slowestMs: round(Math.max(...replies.map((r) => r.ms))) };
}

/** Row 9: MAX_CONNECTIONS sockets that never read trickle one header byte every 2 s: when is a new connection served? */
async function trickledHeads(server: Server, n: number) {
  const { connect } = await import('node:net');
  const sockets = await Promise.all(Array.from({ length: n }, (_, i) => new Promise<Socket>((resolve) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', localAddress: `127.0.0.${100 + (i % 50)}` }, () => resolve(socket));
    socket.on('error', () => {});
    socket.pause();
  })));
  const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
  let at = 0;
  const write = (): void => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(head[at % head.length] ?? 'x');
    at++;
  };
  write();
  const trickle = setInterval(write, 2_000);
  const t0 = performance.now();
  let servedAfterMs = -1;
  while (performance.now() - t0 < 40_000) {
    const health = await healthOnce(server.port, 1_000);
    if (health.status === 200) {
      servedAfterMs = round(performance.now() - t0);
      break;
    }
    await sleep(250);
  }
  const closed = (await Promise.all(sockets.map((s) => closedWithin(s, 100)))).filter(Boolean).length;
  clearInterval(trickle);
  for (const socket of sockets) socket.destroy();
  return { newConnectionServedAfterMs: servedAfterMs, trickledSocketsClosed: closed, of: n };
}

/**
 * Round three, row 1: one address holds 17 uploads declaring 33.5 MB in all, sends a body byte every 2 s and re-opens
 * each one the server closes, while 13 other addresses create small plans: how many of theirs are answered 200.
 */
async function trickledUploads(server: Server) {
  const declared = Math.floor(33_554_000 / 17);
  const bytes = Buffer.from(wire({ path: '/api/session-links', headers: REST, body: '' }, declared) + `{"session":${' '.repeat(declared)}`);
  const attack = tricklingSockets(server.port, '127.0.0.141', { sockets: 17, bytes, everyMs: 2_000, first: bytes.indexOf('{') + 1 });
  await sleep(1_000);
  const victims = steadyPosts(server.port, loopbackClients(13, 150), { path: '/api/session-links', headers: REST, body: JSON.stringify({ session: smallPlan() }) }, 150);
  await sleep(130 * 150);
  const served = await victims.stop();
  const { opened, statuses } = await attack.stop();
  return { victimsServed: round(100 * shareOf(served, 200)), victims: Object.fromEntries(served), uploadsOpened: opened, uploadAnswers: Object.fromEntries(statuses) };
}

/**
 * Round three, row 3: one address holds `sockets` sockets that trickle header bytes and re-opens each one
 * closed, while fresh health checks come from 20 other addresses: how many of those are answered.
 */
async function reopeningSlowloris(server: Server, sockets: number) {
  const head = Buffer.from(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'x'.repeat(10_000)}`);
  const attack = tricklingSockets(server.port, '127.0.0.200', { sockets, bytes: head, everyMs: 2_000 });
  await sleep(3_000);
  const victims = loopbackClients(20, 201);
  const probes: number[] = [];
  const t0 = performance.now();
  for (let i = 0; performance.now() - t0 < 30_000; i++) {
    probes.push((await healthOnce(server.port, 5_000, victims[i % victims.length])).status);
    await sleep(50);
  }
  const { opened } = await attack.stop();
  return { healthServed: round((100 * probes.filter((s) => s === 200).length) / probes.length), probes: probes.length, attackerSocketsOpened: opened };
}

/** Every attack against the build in `root` (a fresh server per attack, so none inherits another's state); `only`: those whose name holds it. */
export async function attacks(root: string, only = process.env.HOSTILE_ATTACKS_ONLY ?? ''): Promise<Record<string, unknown>> {
  const worstLink = linkOf(`{"workshop":{"title":"W","description":"${'\ud800'.repeat(1_990_000)}"}}`);
  const largestAnswer = linkOf(JSON.stringify({ workshop: { title: 'W', description: '"'.repeat(999_900) } }));
  // The costliest decode that still succeeds (lone surrogates past 10,000 are refused): 990,000 quotes, 1.98 MB written.
  const costly = linkOf(`{"workshop":{"title":"W","description":"${'\\"'.repeat(990_000)}"}}`);
  const results: Record<string, unknown> = {};
  const run = async (name: string, env: Record<string, string>, attack: (server: Server) => Promise<unknown>): Promise<void> => {
    if (!name.includes(only)) return;
    const server = await start(root, env);
    try {
      results[name] = await attack(server);
    } catch (error) {
      results[name] = { failed: (error as Error).message };
    } finally {
      await server.stop();
    }
    console.log(`  ${name}: ${JSON.stringify(results[name])}`);
  };
  await run('row 2: 16 sub-1 KB decodes expanding to 65,000 lone surrogates, health while they run', {}, async (server) => {
    const body = mcpDecode(linkOf(`{"workshop":{"title":"W","description":"${'\udfff'.repeat(65_000)}"}}`));
    const clients = loopbackClients(4, 20);
    const probe = probeHealth(server.port, 5);
    await sleep(100);
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => postFrom(server.port, clients[i % 4]!, { path: '/mcp', headers: MCP, body })));
    await sleep(100);
    const health = await probe.stop();
    return { requestBytes: Buffer.byteLength(body), statuses: count(replies.map((r) => r.status)), healthMaxMs: round(Math.max(...health.map((h) => h.ms))), healthProbes: health.length };
  });
  await run('row 3: one client, 40 unread MCP decodes of 1.99 M lone surrogates (3.5 KB link)', {}, (server) => unreadAnswers(server, worstLink, 1));
  await run('row 3: eight clients, 40 unread MCP decodes of the largest answer a decode can have (~6 MB)', {}, (server) => unreadAnswers(server, largestAnswer, 8));
  await run('row 4: 150 stalled 1.9 MB uploads', {}, (server) => stalledUploads(server, 150));
  await run('row 4: 500 stalled 1.9 MB uploads', {}, (server) => stalledUploads(server, 500));
  await run('row 5: victim under four clients bursting 60 MCP + 60 REST decodes of 990,000 quotes', {}, (server) => victim(server, costly));
  await run('row 6: 50 simultaneous decodes of 1.99 M lone surrogates from five clients', {}, (server) => queuedDecodes(server, worstLink));
  await run('row 9: 300 sockets trickling header bytes, MAX_CONNECTIONS=300', { MAX_CONNECTIONS: '300', MAX_CONNECTIONS_PER_CLIENT: '0' }, (server) => trickledHeads(server, 300));
  await run('round 3, row 1: 17 trickled uploads declaring 33.5 MB from one address, re-opened; 130 small creates from 13 others (node:http)', {}, (server) => trickledUploads(server));
  await run('round 3, row 1: the same on uWS', { TRANSPORT: 'uws' }, (server) => trickledUploads(server));
  await run('round 3, row 3: one address re-opening 10,050 trickling sockets; fresh health checks from 20 others (node:http)', {}, (server) => reopeningSlowloris(server, 10_050));
  await run('round 3, row 3: the same on uWS', { TRANSPORT: 'uws' }, (server) => reopeningSlowloris(server, 10_050));
  return results;
}
