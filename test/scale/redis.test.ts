// Real server processes (npm start's main) sharing a real Redis through REDIS_URL: exact 61st refusal across processes
// and workers, 503 within 1 s of Redis dying, served again within 2 s of its return, and a start while Redis is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, send } from '../support/http.js';
import { startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';
import { startRedisServer } from '../support/redis.js';
import type { RedisServerHandle } from '../support/redis.js';

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function ping(port: number, ip: string) {
  return post(port, '/mcp', PING, { 'x-forwarded-for': ip }).then((r) => ({
    status: r.status,
    code: r.status === 200 ? undefined : (r.json() as { error?: { code?: number } }).error?.code,
    retryAfter: r.headers['retry-after'],
  }));
}

type Outcome = { at: number; status: number; code: number | undefined };

/** Fresh client addresses (so the limit never refuses) POSTing in a loop to the given ports until stopped. */
function steadyLoad(ports: number[]): { outcomes: Outcome[]; stop(): Promise<void> } {
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const client = async (c: number): Promise<void> => {
    while (running) {
      const i = n++;
      const reply = await ping(ports[i % ports.length]!, `10.${c}.${(i >> 8) & 255}.${i & 255}`);
      outcomes.push({ at: performance.now(), status: reply.status, code: reply.code });
      await sleep(5);
    }
  };
  const clients = [0, 1, 2, 3].map(client);
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

describe('REDIS_URL: two server processes (WORKERS=2 and WORKERS=1) sharing one Redis', () => {
  let redis: RedisServerHandle;
  let a: MainProcess;
  let b: MainProcess;
  beforeAll(async () => {
    redis = await startRedisServer();
    [a, b] = await Promise.all([
      startMainProcess({ REDIS_URL: redis.url, WORKERS: '2', TRANSPORT: 'uws', TRUST_PROXY: '1' }),
      startMainProcess({ REDIS_URL: redis.url, WORKERS: '1', TRUST_PROXY: '1' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('allows exactly 60 POSTs from one client spread over both processes, then refuses the 61st and every later one', async () => {
    const ip = '203.0.113.61';
    const first = await Promise.all(Array.from({ length: 60 }, (_, i) => ping(i % 2 === 0 ? a.port : b.port, ip)));
    expect(first.map((r) => r.status)).toEqual(Array(60).fill(200));
    const later = await Promise.all(Array.from({ length: 30 }, (_, i) => ping(i % 2 === 0 ? a.port : b.port, ip)));
    expect(later.every((r) => r.status === 429 && r.code === -32000 && r.retryAfter === '60')).toBe(true);
  });

  it('answers 503 -32603 within 1 s of Redis dying and serves again within 2 s of its restart, without a server restart', async () => {
    const load = steadyLoad([a.port, b.port]);
    try {
      await sleep(300);
      expect(load.outcomes.length).toBeGreaterThan(0);
      expect(load.outcomes.every((o) => o.status === 200)).toBe(true);

      const killedAt = performance.now();
      await redis.kill();
      await sleep(1_500);
      const first503 = load.outcomes.find((o) => o.at > killedAt && o.status === 503);
      expect(first503, 'no 503 after Redis was killed').toBeDefined();
      console.log(`first 503 ${(first503!.at - killedAt).toFixed(0)} ms after the kill`);
      expect(first503!.at - killedAt).toBeLessThan(1_000);
      expect(first503!.code).toBe(-32603);
      // Fail closed: nothing is served uncounted while Redis is down.
      expect(load.outcomes.filter((o) => o.at > first503!.at && o.status === 200)).toHaveLength(0);

      await redis.restart();
      const restartedAt = performance.now();
      await sleep(2_000);
      const served = load.outcomes.find((o) => o.at > restartedAt && o.status === 200);
      expect(served, 'nothing served within 2 s of the Redis restart').toBeDefined();
      console.log(`first 200 ${(served!.at - restartedAt).toFixed(0)} ms after the restart`);
      expect(served!.at - restartedAt).toBeLessThan(2_000);
      expect(load.outcomes.some((o) => o.status !== 200 && o.status !== 503)).toBe(false);
    } finally {
      await load.stop();
    }
    // Both processes (and both workers of A, over fresh connections) recovered by themselves.
    const after = await Promise.all([a.port, a.port, a.port, b.port].map((port, i) => ping(port, `10.99.99.${i}`)));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  });
});

describe('REDIS_URL while Redis is down at startup', () => {
  it('starts anyway, answers POSTs with 503 -32603 (fail closed), and serves them once Redis is reachable', async () => {
    const redis = await startRedisServer();
    await redis.kill();
    let server: MainProcess | undefined;
    try {
      server = await startMainProcess({ REDIS_URL: redis.url, WORKERS: '2', TRANSPORT: 'uws' });
      const down = await ping(server.port, '127.0.0.1');
      expect([down.status, down.code]).toEqual([503, -32603]);
      // Reads never touch the store; the health answer says it cannot count (200: the instance stays in rotation).
      const health = await send(server.port);
      expect(health.status).toBe(200);
      expect(health.json()).toMatchObject({ status: 'degraded', rateLimitStore: { kind: 'redis', state: 'unreachable' } });
      await redis.restart();
      const restartedAt = performance.now();
      let status = 0;
      while (status !== 200 && performance.now() - restartedAt < 5_000) {
        status = (await ping(server.port, '127.0.0.1')).status;
        if (status !== 200) await sleep(20);
      }
      expect(status).toBe(200);
      expect(performance.now() - restartedAt).toBeLessThan(2_000);
      // Each of the two workers holds its own Redis connection and reconnects on its own schedule (≤ 500 ms apart),
      // so the health answer may come from the one that is still reconnecting: it must turn ok soon, not at once.
      let health2 = (await send(server.port)).json();
      while (health2.status !== 'ok' && performance.now() - restartedAt < 3_000) {
        await sleep(50);
        health2 = (await send(server.port)).json();
      }
      expect(health2).toMatchObject({ status: 'ok', rateLimitStore: { kind: 'redis', state: 'up' } });
      expect(performance.now() - restartedAt).toBeLessThan(3_000);
    } finally {
      await server?.stop();
      await redis.stop();
    }
  });
});

describe('REDIS_URL: a Redis that stalls or refuses writes', () => {
  let redis: RedisServerHandle;
  let server: MainProcess;
  beforeAll(async () => {
    redis = await startRedisServer();
    server = await startMainProcess({ REDIS_URL: redis.url, TRUST_PROXY: '1' });
    for (let i = 0; i < 50 && (await ping(server.port, '198.51.100.1')).status !== 200; i++) await sleep(100);
  });
  afterAll(async () => {
    redis?.thaw();
    await server?.stop();
    await redis?.stop();
  });

  it('a client whose 30 POSTs got 503 during a 2 s stall keeps at least 57 of its 60 once Redis wakes', async () => {
    redis.freeze();
    const frozenAt = performance.now();
    await sleep(50);
    const during = await Promise.all(Array.from({ length: 30 }, () => ping(server.port, '198.51.100.70')));
    await sleep(Math.max(0, frozenAt + 2_000 - performance.now()));
    redis.thaw();
    await sleep(500);
    const after = await Promise.all(Array.from({ length: 60 }, () => ping(server.port, '198.51.100.70')));
    const ok = after.filter((r) => r.status === 200).length;
    console.log(`30 POSTs in a 2 s stall: ${during.filter((r) => r.status === 503).length} × 503; then ${ok} of 60 answered 200`);
    expect(during.every((r) => r.status === 503)).toBe(true);
    expect(ok).toBeGreaterThanOrEqual(57);
  });

  it('READONLY and OOM replies are answered 503 and logged once per kind', async () => {
    redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    redis.command('CONFIG', 'SET', 'maxmemory', '1');
    const oom = await Promise.all(Array.from({ length: 5 }, () => ping(server.port, '198.51.100.80')));
    redis.command('CONFIG', 'SET', 'maxmemory', '0');
    redis.command('REPLICAOF', '127.0.0.1', '1');
    const readonly = await Promise.all(Array.from({ length: 5 }, () => ping(server.port, '198.51.100.81')));
    redis.command('REPLICAOF', 'NO', 'ONE');
    await sleep(1_200); // the periodic hand-over of log lines
    expect([...oom, ...readonly].map((r) => r.status)).toEqual(Array(10).fill(503));
    const failures = server.stdout().split('\n').filter((line) => line.includes('"store":"redis"')).map((line) => (JSON.parse(line) as { failure: string }).failure);
    expect(failures.filter((kind) => kind === 'OOM')).toHaveLength(1);
    expect(failures.filter((kind) => kind === 'READONLY')).toHaveLength(1);
  });
});

describe('REDIS_URL: health follows the store without traffic, and RATE_LIMIT_STORE_FAILURE=local', () => {
  it('a hung Redis makes the health degraded and a woken one ok again within seconds, with no POST at all', async () => {
    const redis = await startRedisServer();
    const server = await startMainProcess({ REDIS_URL: redis.url });
    try {
      const status = async (): Promise<string> => (send(server.port).then((r) => (r.json() as { status: string }).status));
      const until = async (wanted: string, ms: number): Promise<number> => {
        const t0 = performance.now();
        while ((await status()) !== wanted && performance.now() - t0 < ms) await sleep(100);
        return performance.now() - t0;
      };
      expect(await until('ok', 5_000)).toBeLessThan(5_000);
      redis.freeze();
      expect(await until('degraded', 5_000)).toBeLessThan(3_000);
      redis.thaw();
      expect(await until('ok', 8_000)).toBeLessThan(5_000);
    } finally {
      redis.thaw();
      await server.stop();
      await redis.stop();
    }
  });

  it('with local: while Redis is down, POSTs are counted in memory with the same limit, health says degraded, a metric counts them', async () => {
    const redis = await startRedisServer();
    const server = await startMainProcess({ REDIS_URL: redis.url, RATE_LIMIT_STORE_FAILURE: 'local', TRUST_PROXY: '1', METRICS_PORT: '0' });
    try {
      await redis.kill();
      const replies = await Promise.all(Array.from({ length: 70 }, () => ping(server.port, '198.51.100.90')));
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      expect((await send(server.port)).json()).toMatchObject({ status: 'degraded', rateLimitStore: { kind: 'redis', state: 'unreachable' } });
      const metrics = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
      const local = metrics.split('\n').find((line) => line.startsWith('sessionplan_rate_limit_local_total{route="mcp"}'));
      expect(Number(local?.split(' ').pop())).toBe(70);
    } finally {
      await server.stop();
      await redis.stop();
    }
  });
});
