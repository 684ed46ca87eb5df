// Connections are bounded on the default setup: idle sockets close after IDLE_TIMEOUT_S whatever the last request was,
// and MAX_CONNECTIONS refuses new ones cheaply while existing connections keep being served (all from one address here,
// so the per-client share is switched off). Server as its own process.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { openFds, startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';

const IDLE_S = 10; // the documented default
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Idle {
  sockets: Socket[];
  connectedAt: number[];
  /** When the answer arrived (GET sockets). */
  answeredAt: number[];
  closedAt: number[];
}

/** Opens `count` sockets (in batches of 500), each sending `request` once; records connect, answer and close times. */
async function openIdle(port: number, count: number, request: string): Promise<Idle> {
  const idle: Idle = { sockets: [], connectedAt: [], answeredAt: [], closedAt: [] };
  for (let i = 0; i < count; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - i) }, () =>
        new Promise<void>((resolve) => {
          const index = idle.sockets.length;
          const socket = connect(port, '127.0.0.1');
          socket.on('error', () => {});
          socket.once('data', () => (idle.answeredAt[index] = performance.now()));
          socket.on('close', () => {
            idle.closedAt[index] = performance.now();
            resolve();
          });
          socket.once('connect', () => {
            idle.connectedAt[index] = performance.now();
            if (request !== '') socket.write(request);
            resolve();
          });
          idle.sockets.push(socket);
        }),
      ),
    );
  }
  return idle;
}

const count = (times: (number | undefined)[]): number => times.filter((t) => t !== undefined).length;

/** Health GETs on fresh connections every 250 ms until `until()`; resolves with each latency in ms. */
async function probeHealth(port: number, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const t0 = performance.now();
    const reply = await send(port);
    if (reply.status !== 200) throw new Error(`health answered ${reply.status}`);
    latencies.push(performance.now() - t0);
    await sleep(250);
  }
  return latencies;
}

let server: MainProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('idle connections (node:http, IDLE_TIMEOUT_S=10)', () => {
  it('closes 10,000 sockets idle after a GET within the idle timeout + 2 s, keeps health fast, and gives the fds back', { timeout: 120_000 }, async () => {
    server = await startMainProcess({ LOG_LEVEL: 'info', MAX_CONNECTIONS: '15000', MAX_CONNECTIONS_PER_CLIENT: '0' });
    await sleep(500);
    const baseline = openFds(server.pid);
    const idle = await openIdle(server.port, 10_000, 'GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const silent = await openIdle(server.port, 500, ''); // and some that never send a byte
    // Once every GET is answered, all 10,500 connections are idle; health is probed from then until they are closed.
    for (let waited = 0; count(idle.answeredAt) < 10_000 && waited < 30_000; waited += 100) await sleep(100);
    expect(count(idle.answeredAt)).toBe(10_000);
    const deadline = performance.now() + (IDLE_S + 4) * 1000;
    const latencies = await probeHealth(server.port, () => count(idle.closedAt) + count(silent.closedAt) === 10_500 || performance.now() > deadline);
    expect(count(idle.closedAt) + count(silent.closedAt)).toBe(10_500);
    // Each closed within the idle timeout + 2 s of its last activity: its answer, or for a silent one its connect.
    const late = [
      ...idle.closedAt.map((t, i) => t - idle.answeredAt[i]!),
      ...silent.closedAt.map((t, i) => t - silent.connectedAt[i]!),
    ].filter((ms) => !(ms <= (IDLE_S + 2) * 1000));
    const delays = [...idle.closedAt.map((t, i) => t - idle.answeredAt[i]!), ...silent.closedAt.map((t, i) => t - silent.connectedAt[i]!)];
    console.log(`10,500 idle sockets: closed ${(Math.min(...delays) / 1000).toFixed(1)}–${(Math.max(...delays) / 1000).toFixed(1)} s after their last activity; health max ${Math.max(...latencies).toFixed(0)} ms over ${latencies.length} probes; fds ${baseline} → ${openFds(server.pid)}`);
    expect(late.length, `closed late: ${late.slice(0, 5).map((ms) => ms.toFixed(0)).join(' ')} ms`).toBe(0);
    expect(Math.max(...latencies), `health latencies ${latencies.map((l) => l.toFixed(0)).join(' ')}`).toBeLessThan(100);
    await sleep(500);
    expect(openFds(server.pid)).toBeLessThanOrEqual(baseline + 2);
  });
});

describe('MAX_CONNECTIONS', () => {
  it('refuses connections beyond the cap at once, keeps serving the open ones, and accepts again when they close', { timeout: 60_000 }, async () => {
    server = await startMainProcess({ LOG_LEVEL: 'info', MAX_CONNECTIONS: '300', MAX_CONNECTIONS_PER_CLIENT: '0', IDLE_TIMEOUT_S: '3' });
    // A keep-alive client that was there first: it is served again while the cap is reached.
    const early = connect(server.port, '127.0.0.1');
    let answers = '';
    early.on('data', (d: Buffer) => (answers += d.toString('latin1')));
    const ask = async (): Promise<void> => {
      const before = (answers.match(/HTTP\/1\.1 200 /g) ?? []).length;
      early.write('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      for (let waited = 0; (answers.match(/HTTP\/1\.1 200 /g) ?? []).length === before && waited < 2_000; waited += 10) await sleep(10);
    };
    await new Promise((r) => early.once('connect', r));
    await ask();
    const flood = await openIdle(server.port, 400, 'GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await sleep(300);
    // node:http destroys connections past maxConnections as soon as it accepts them: about 100 are gone already.
    expect(count(flood.closedAt)).toBeGreaterThanOrEqual(95);
    expect(count(flood.closedAt)).toBeLessThan(200);
    await ask();
    expect((answers.match(/HTTP\/1\.1 200 /g) ?? []).length).toBe(2);
    early.destroy();
    // Once the idle ones are closed (3 s), new connections are served again.
    await sleep(5_000);
    expect(count(flood.closedAt)).toBe(400);
    expect((await send(server.port)).status).toBe(200);
  });
});
