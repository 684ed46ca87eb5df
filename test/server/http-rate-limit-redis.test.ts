// Two real servers (this process + a child process) sharing one real Redis: the 61st POST is refused exactly across
// both, a killed Redis turns POSTs into 503 -32603 within 1 s, and a restarted one is used again within 2 s; the
// health answer and the store gauge say so.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../src/rate-limit/redis.js';
import { post, send, startTestServer } from '../support/http.js';
import type { TestServer } from '../support/http.js';
import { startRedisServer } from '../support/redis.js';
import type { RedisServerHandle } from '../support/redis.js';

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let redis: RedisServerHandle;
let local: TestServer;
let child: ChildProcessWithoutNullStreams;
let childPort = 0;

/** One POST to /mcp from the client `ip` (TRUST_PROXY=1: the X-Forwarded-For hop is the client address). */
function ping(port: number, ip: string): Promise<{ status: number; code: number | undefined; retryAfter: string | undefined }> {
  return post(port, '/mcp', PING, { 'x-forwarded-for': ip }).then((r) => ({
    status: r.status,
    code: r.status === 200 ? undefined : (r.json() as { error?: { code?: number } }).error?.code,
    retryAfter: r.headers['retry-after'] as string | undefined,
  }));
}

beforeAll(async () => {
  redis = await startRedisServer();
  local = await startTestServer({ TRUST_PROXY: '1' }, { rateLimitStore: new RedisRateLimitStore({ url: redis.url }) });
  const script = fileURLToPath(new URL('../fixtures/redis-server-process.ts', import.meta.url));
  child = spawn(process.execPath, ['--import', 'tsx', script, redis.url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!/port (\d+)/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server process did not start: ${err || out}`);
    await sleep(20);
  }
  childPort = Number(/port (\d+)/.exec(out)?.[1]);
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await exited;
  }
  await local?.close();
  await redis?.stop();
});

describe('rate limit shared through Redis by two server processes', () => {
  it('allows exactly 60 of 90 concurrent POSTs from one client spread over both processes; the rest get 429', async () => {
    const replies = await Promise.all(Array.from({ length: 90 }, (_, i) => ping(i % 2 === 0 ? local.port : childPort, '198.51.100.61')));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(60);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(30);
    expect(refused.every((r) => r.status === 429 && r.code === -32000 && r.retryAfter === '60')).toBe(true);
    // With per-process counting all 90 would pass: exactly 60 in total means the count is shared.
    // Each process got 45, so whatever the arrival order each one must have allowed at least 15.
    const allowedBy = (port: number) => replies.filter((r, i) => r.status === 200 && (i % 2 === 0 ? local.port : childPort) === port).length;
    expect(allowedBy(local.port)).toBeGreaterThanOrEqual(15);
    expect(allowedBy(childPort)).toBeGreaterThanOrEqual(15);
  });

  it('answers 503 -32603 within 1 s of Redis dying and serves again within 2 s of its restart, without a server restart', async () => {
    // `sent`: when the POST left; `at`: when its answer came. A POST that passed Redis just before the kill may be
    // answered after another POST's 503, so fail-closed is judged by when a POST was sent.
    type Outcome = { sent: number; at: number; status: number; code: number | undefined };
    const outcomes: Outcome[] = [];
    let running = true;
    let n = 0;
    // 4 clients, each POST from a fresh client address so the limit itself never refuses.
    const client = async (c: number): Promise<void> => {
      while (running) {
        const port = n % 2 === 0 ? local.port : childPort;
        const ip = `10.${c}.${(n >> 8) & 255}.${n++ & 255}`;
        const sent = performance.now();
        const reply = await ping(port, ip);
        outcomes.push({ sent, at: performance.now(), status: reply.status, code: reply.code });
        await sleep(5);
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    try {
      await sleep(300);
      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes.every((o) => o.status === 200)).toBe(true);

      const killedAt = performance.now();
      await redis.kill();
      await sleep(1_500);
      const first503 = outcomes.find((o) => o.at > killedAt && o.status === 503);
      expect(first503, 'no 503 after Redis was killed').toBeDefined();
      expect(first503!.at - killedAt).toBeLessThan(1_000);
      expect(first503!.code).toBe(-32603);
      // Fail closed: no POST sent after the first 503 was served while Redis was down.
      expect(outcomes.filter((o) => o.sent > first503!.at && o.status === 200)).toHaveLength(0);

      await redis.restart();
      const restartedAt = performance.now();
      await sleep(2_000);
      const firstServed = outcomes.find((o) => o.at > restartedAt && o.status === 200);
      expect(firstServed, 'nothing served within 2 s of the Redis restart').toBeDefined();
      expect(firstServed!.at - restartedAt).toBeLessThan(2_000);
      // Both processes recovered by themselves.
      const lastOf = (port: number) => ping(port, '10.99.99.99');
      expect((await lastOf(local.port)).status).toBe(200);
      expect((await lastOf(childPort)).status).toBe(200);
      expect(outcomes.some((o) => o.status !== 200 && o.status !== 503)).toBe(false);
    } finally {
      running = false;
      await Promise.all(clients);
    }
  });
});

describe('GET /mcp and /metrics with a Redis store', () => {
  /** Polls the health answer until `done` holds or `boundMs` passes; returns the last answer and when it came. */
  async function healthUntil(port: number, done: (body: Record<string, unknown>) => boolean, boundMs: number) {
    const started = performance.now();
    for (;;) {
      const reply = await send(port);
      const body = reply.json() as Record<string, unknown>;
      if (done(body) || performance.now() - started > boundMs) return { status: reply.status, body, afterMs: performance.now() - started };
      await sleep(20);
    }
  }
  const storeGauge = async (metricsPort: number): Promise<string | undefined> =>
    /^sessionplan_rate_limit_store_up\{store="redis"\} (\d)$/m.exec((await send(metricsPort, { path: '/metrics' })).text)?.[1];

  it('says ok and redis up; degraded and unreachable (still 200) within 1 s of Redis being killed, with no POST needed; ok again after its restart', async () => {
    const server = await startTestServer({ METRICS_PORT: '0' }, { rateLimitStore: new RedisRateLimitStore({ url: redis.url }) });
    try {
      const up = await healthUntil(server.port, (body) => body.status === 'ok', 5_000);
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ status: 'ok', name: 'sessionplan-mcp', rateLimitStore: { kind: 'redis', state: 'up' } });
      expect(await storeGauge(server.metricsPort!)).toBe('1');

      await redis.kill();
      const down = await healthUntil(server.port, (body) => body.status === 'degraded', 1_000);
      expect(down.body).toMatchObject({ status: 'degraded', rateLimitStore: { kind: 'redis', state: 'unreachable' } });
      // 200, not 503: with a shared store down every instance is equally degraded (docs/deployment.md, "Health checks").
      expect(down.status).toBe(200);
      expect((await ping(server.port, '192.0.2.77')).status).toBe(503);
      expect(await storeGauge(server.metricsPort!)).toBe('0');

      await redis.restart();
      const back = await healthUntil(server.port, (body) => body.status === 'ok', 2_000);
      expect(back.body).toMatchObject({ status: 'ok', rateLimitStore: { kind: 'redis', state: 'up' } });
      expect((await ping(server.port, '192.0.2.78')).status).toBe(200);
      expect(await storeGauge(server.metricsPort!)).toBe('1');
    } finally {
      await server.close();
    }
  });
});
