// Redis rate-limit store against a real redis-server: exact counts under concurrency, expiry, fail-fast and recovery.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/rate-limit/limiter.js';
import { RedisRateLimitStore } from '../../src/rate-limit/redis.js';
import { RateLimitStoreError } from '../../src/rate-limit/store-error.js';
import { startRedisServer } from '../support/redis.js';
import type { RedisServerHandle } from '../support/redis.js';

const LIMIT = 60;
const WINDOW_MS = 60_000;

let redis: RedisServerHandle;
const stores: RedisRateLimitStore[] = [];

async function connectedStore(url: string): Promise<RedisRateLimitStore> {
  const store = new RedisRateLimitStore({ url, keyPrefix: 'test:rl:' });
  stores.push(store);
  await store.ready(5_000);
  return store;
}

function sortedCounts(results: { count: number }[]): number[] {
  return results.map((r) => r.count).sort((a, b) => a - b);
}

function oneToN(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The rejection of one hit, or a marker string when it resolved or did not settle within 2 s (so a hang fails fast). */
async function hitFailure(store: RedisRateLimitStore, key: string): Promise<unknown> {
  const outcome = store.hit(key, WINDOW_MS).then(
    () => 'resolved instead of failing',
    (e: unknown) => e,
  );
  return Promise.race([outcome, sleep(2_000).then(() => 'did not settle within 2 s')]);
}

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

describe('RedisRateLimitStore', () => {
  it('counts 100 concurrent hits on one key exactly 1..100, so exactly 60 pass a 60-per-window limit', async () => {
    const store = await connectedStore(redis.url);
    const results = await Promise.all(Array.from({ length: 100 }, () => store.hit('mcp:198.51.100.7', WINDOW_MS)));
    expect(sortedCounts(results)).toEqual(oneToN(100));
    const allowed = results.filter((r) => r.count <= LIMIT).length;
    expect(allowed).toBe(LIMIT);
    for (const r of results) {
      expect(r.resetMs).toBeGreaterThan(0);
      expect(r.resetMs).toBeLessThanOrEqual(WINDOW_MS);
    }
  });

  it('lets a limiter built on it allow exactly 60 of 80 concurrent POSTs and refuse the rest with Retry-After 60', async () => {
    const store = await connectedStore(redis.url);
    const limiter = createRateLimiter(store, { limit: LIMIT, windowS: WINDOW_MS / 1000 });
    const decisions = await Promise.all(Array.from({ length: 80 }, () => limiter.check('mcp', '198.51.100.8')));
    expect(decisions.filter((d) => d.kind === 'allowed')).toHaveLength(LIMIT);
    expect(decisions.filter((d) => d.kind === 'limited')).toEqual(Array(20).fill({ kind: 'limited', retryAfterS: 60 }));
    // A different client IP is not affected by the first one's window.
    expect(await limiter.check('mcp', '198.51.100.9')).toEqual({ kind: 'allowed' });
  });

  it('reaches Redis over a unix socket given a unix:// REDIS_URL', async () => {
    const own = await startRedisServer({ unixSocket: true });
    try {
      expect(own.url.startsWith('unix:///')).toBe(true);
      const store = await connectedStore(own.url);
      expect((await store.hit('mcp:unix', WINDOW_MS)).count).toBe(1);
      expect((await store.hit('mcp:unix', WINDOW_MS)).count).toBe(2);
    } finally {
      await own.stop();
    }
  });

  it('is exact across two connections sharing one Redis (as two instances would)', async () => {
    const a = await connectedStore(redis.url);
    const b = await connectedStore(redis.url);
    const hits = Array.from({ length: 90 }, (_, i) => (i % 2 === 0 ? a : b).hit('api:203.0.113.9', WINDOW_MS));
    const results = await Promise.all(hits);
    expect(sortedCounts(results)).toEqual(oneToN(90));
    // The 61st hit, whichever instance served it, is the first one over the limit.
    expect(results.filter((r) => r.count > LIMIT)).toHaveLength(30);
  });

  it('is exact across two separate processes hitting the same key at once', async () => {
    const script = fileURLToPath(new URL('../fixtures/redis-hits-process.ts', import.meta.url));
    const processes = [0, 1].map(() => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, redis.url, 'mcp:203.0.113.77', '70'], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const lines = async (n: number): Promise<string[]> => {
        while (out.split('\n').length <= n) {
          if (child.exitCode !== null) throw new Error(`hit process exited early: ${out}`);
          await sleep(10);
        }
        return out.split('\n');
      };
      return { child, lines };
    });
    await Promise.all(processes.map((p) => p.lines(1)));
    for (const p of processes) p.child.stdin.write('go\n');
    const counts = await Promise.all(processes.map(async (p) => JSON.parse((await p.lines(2))[1] ?? '[]') as number[]));
    expect(counts.flat().sort((a, b) => a - b)).toEqual(oneToN(140));
    // Each process got a share of the first 60, and together exactly 60 are under the limit.
    expect(counts.flat().filter((c) => c <= LIMIT)).toHaveLength(LIMIT);
  });

  it('keeps keys apart', async () => {
    const store = await connectedStore(redis.url);
    await store.hit('mcp:192.0.2.1', WINDOW_MS);
    await store.hit('mcp:192.0.2.1', WINDOW_MS);
    expect((await store.hit('mcp:192.0.2.2', WINDOW_MS)).count).toBe(1);
    expect((await store.hit('api:192.0.2.1', WINDOW_MS)).count).toBe(1);
    expect((await store.hit('mcp:192.0.2.1', WINDOW_MS)).count).toBe(3);
  });

  it('uses a fixed window: later hits do not extend it, and a new window starts at 1', async () => {
    const store = await connectedStore(redis.url);
    const windowMs = 400;
    const first = await store.hit('mcp:expiry', windowMs);
    await sleep(150);
    const second = await store.hit('mcp:expiry', windowMs);
    expect(second.count).toBe(2);
    // Fixed, not sliding: the second hit sees less time left than the first did.
    expect(second.resetMs).toBeLessThan(first.resetMs);
    await sleep(second.resetMs + 50);
    const afterWindow = await store.hit('mcp:expiry', windowMs);
    expect(afterWindow.count).toBe(1);
  });

  it('makes a limiter answer unavailable (→ 503) rather than allowed when Redis is down', async () => {
    const gone = await startRedisServer();
    const store = await connectedStore(gone.url);
    const limiter = createRateLimiter(store, { limit: LIMIT, windowS: 60 });
    expect(await limiter.check('mcp', '192.0.2.50')).toEqual({ kind: 'allowed' });
    await gone.stop();
    expect(await limiter.check('mcp', '192.0.2.50')).toEqual({ kind: 'unavailable' });
  });

  it('fails within 1 s with a RateLimitStoreError when Redis was never reachable', async () => {
    const stopped = await startRedisServer();
    await stopped.stop();
    const store = new RedisRateLimitStore({ url: stopped.url });
    stores.push(store);
    const started = performance.now();
    const error = await hitFailure(store, 'mcp:x');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect((error as RateLimitStoreError).message).not.toContain('mcp:x');
    expect(store.connected).toBe(false);
  });

  it('turns a hung Redis into a timeout error within 1 s', async () => {
    const own = await startRedisServer();
    try {
      const store = await connectedStore(own.url);
      expect((await store.hit('mcp:hang', WINDOW_MS)).count).toBe(1);
      expect(store.health()).toEqual({ kind: 'redis', state: 'up' });
      own.freeze();
      const started = performance.now();
      const error = await hitFailure(store, 'mcp:hang');
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(error).toBeInstanceOf(RateLimitStoreError);
      expect((error as RateLimitStoreError).failure).toBe('timeout');
      // The connection is still open, but a Redis that does not answer cannot count: the health says so.
      expect(store.connected).toBe(true);
      expect(store.health()).toEqual({ kind: 'redis', state: 'unreachable' });
      own.thaw();
      expect((await store.hit('mcp:hang', WINDOW_MS)).count).toBeGreaterThanOrEqual(2);
      expect(store.health()).toEqual({ kind: 'redis', state: 'up' });
    } finally {
      own.thaw();
      await own.stop();
    }
  });

  it('does not count hits that Redis runs after the caller stopped waiting (a stalled Redis that wakes up)', async () => {
    const own = await startRedisServer();
    try {
      const store = await connectedStore(own.url);
      expect((await store.hit('mcp:stall', WINDOW_MS)).count).toBe(1);
      own.freeze();
      await sleep(50); // stopped for sure: hits sent from now on wait in its socket
      const failures = await Promise.all(Array.from({ length: 30 }, () => hitFailure(store, 'mcp:stall')));
      expect(failures.every((f) => f instanceof RateLimitStoreError)).toBe(true);
      own.thaw();
      await sleep(300); // Redis runs the 30 queued scripts now, each past its deadline
      expect((await store.hit('mcp:stall', WINDOW_MS)).count).toBe(2);
    } finally {
      own.thaw();
      await own.stop();
    }
  });

  it('reports READONLY and OOM replies as failures of their own kind', async () => {
    const own = await startRedisServer();
    const kinds: string[] = [];
    try {
      const store = new RedisRateLimitStore({ url: own.url, keyPrefix: 'test:rl:', onFailure: (kind) => kinds.push(kind) });
      stores.push(store);
      await store.ready(5_000);
      await store.hit('mcp:warm', WINDOW_MS); // the clock is compared on ready
      own.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
      own.command('CONFIG', 'SET', 'maxmemory', '1');
      expect(await hitFailure(store, 'mcp:oom')).toBeInstanceOf(RateLimitStoreError);
      own.command('CONFIG', 'SET', 'maxmemory', '0');
      // A replica refuses writes: what a demoted primary answers after a failover.
      own.command('REPLICAOF', '127.0.0.1', '1');
      expect(await hitFailure(store, 'mcp:readonly')).toBeInstanceOf(RateLimitStoreError);
      expect(kinds).toEqual(['OOM', 'READONLY']);
    } finally {
      await own.stop();
    }
  });

  it('errors within 1 s when Redis is killed mid-load and recovers within 2 s of its restart, same store', async () => {
    const own = await startRedisServer();
    const store = await connectedStore(own.url);
    type Outcome = { startedAt: number; settledAt: number; ok: boolean; error?: unknown };
    const outcomes: Outcome[] = [];
    let running = true;
    // 8 clients hitting back to back, a few ms apart: steady load across the kill and the restart.
    const client = async (n: number): Promise<void> => {
      while (running) {
        const startedAt = performance.now();
        try {
          await store.hit(`mcp:load-${n}`, WINDOW_MS);
          outcomes.push({ startedAt, settledAt: performance.now(), ok: true });
        } catch (error) {
          outcomes.push({ startedAt, settledAt: performance.now(), ok: false, error });
        }
        await sleep(5);
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    try {
      await sleep(300);
      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes.every((o) => o.ok)).toBe(true);

      const killedAt = performance.now();
      await own.kill();
      await sleep(1_500);
      const duringOutage = outcomes.filter((o) => o.startedAt >= killedAt);
      const firstError = duringOutage.find((o) => !o.ok);
      expect(firstError, 'no hit failed after Redis was killed').toBeDefined();
      expect(firstError!.settledAt - killedAt).toBeLessThan(1_000);
      // Fail closed: once the kill is noticed nothing passes, and every failed hit settled within 1 s.
      expect(duringOutage.filter((o) => o.startedAt > firstError!.settledAt && o.ok)).toHaveLength(0);
      const failed = duringOutage.filter((o) => !o.ok);
      expect(failed.every((o) => o.error instanceof RateLimitStoreError)).toBe(true);
      expect(Math.max(...failed.map((o) => o.settledAt - o.startedAt))).toBeLessThan(1_000);

      await own.restart();
      const restartedAt = performance.now();
      await sleep(2_000);
      const firstSuccess = outcomes.find((o) => o.ok && o.startedAt >= restartedAt);
      expect(firstSuccess, 'no hit succeeded within 2 s of the restart').toBeDefined();
      expect(firstSuccess!.settledAt - restartedAt).toBeLessThan(2_000);
      expect(store.connected).toBe(true);
    } finally {
      running = false;
      await Promise.all(clients);
      await own.stop();
    }
  });
});
