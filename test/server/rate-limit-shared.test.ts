// Shared (main-thread broker) rate-limit store across real worker threads: exact counts, limiter, failures, clean exit.
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/rate-limit/memory.js';
import { RedisRateLimitStore } from '../../src/rate-limit/redis.js';
import { RateLimitBroker, SharedRateLimitStore } from '../../src/rate-limit/shared.js';
import { RateLimitStoreError } from '../../src/rate-limit/store-error.js';
import type { SharedStoreWorkerData, SharedStoreWorkerResult } from '../fixtures/shared-store-worker.js';
import { startRedisServer } from '../support/redis.js';
import { startTsWorker } from '../support/ts-worker.js';

const FIXTURE = new URL('../fixtures/shared-store-worker.ts', import.meta.url);
const WINDOW_MS = 60_000;
const cleanups: (() => Promise<unknown> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Plan = Omit<SharedStoreWorkerData, 'port'>;

/** Starts one worker per plan, each with its own broker port, releases them together, and collects their results. */
async function runWorkers(broker: RateLimitBroker, plans: Plan[]): Promise<{ results: SharedStoreWorkerResult[]; exitCodes: number[] }> {
  const workers: Worker[] = plans.map((plan) => {
    const port = broker.connect();
    const worker = startTsWorker(FIXTURE, { workerData: { ...plan, port } satisfies SharedStoreWorkerData, transferList: [port] });
    cleanups.push(() => worker.terminate());
    return worker;
  });
  const exits = workers.map((w) => once(w, 'exit').then(([code]) => code as number));
  await Promise.all(workers.map(async (w) => expect((await once(w, 'message'))[0]).toBe('ready')));
  const results = Promise.all(workers.map(async (w) => (await once(w, 'message'))[0] as SharedStoreWorkerResult));
  for (const w of workers) w.postMessage('go');
  return { results: await results, exitCodes: await Promise.all(exits) };
}

function counts(result: SharedStoreWorkerResult | undefined): number[] {
  if (result?.kind !== 'counts') throw new Error(`expected counts, got ${JSON.stringify(result)}`);
  return result.counts;
}

describe('RateLimitBroker + SharedRateLimitStore across worker threads', () => {
  it('counts 4 workers × 50 concurrent hits on one key exactly 1..200, and the workers exit by themselves', async () => {
    const broker = new RateLimitBroker(new MemoryRateLimitStore());
    // A generous broker timeout: this test is about exact counts, not about a slow main thread on a busy CI box.
    const plan: Plan = { mode: 'hits', key: 'rl:mcp:198.51.100.1', hits: 50, windowMs: WINDOW_MS, timeoutMs: 5_000 };
    const { results, exitCodes } = await runWorkers(broker, [plan, plan, plan, plan]);
    const all = results.flatMap(counts).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const r of results) {
      if (r.kind === 'counts') for (const reset of r.resets) expect(reset).toBeGreaterThan(0);
    }
    expect(exitCodes).toEqual([0, 0, 0, 0]);
    // Ports close when their worker ends, so the broker holds no stale connections.
    await new Promise((r) => setTimeout(r, 50));
    expect(broker.connections).toBe(0);
  });

  it('lets limiters in 2 workers allow exactly 60 of 2 × 45 concurrent POSTs from one IP', async () => {
    const broker = new RateLimitBroker(new MemoryRateLimitStore());
    const plan: Plan = { mode: 'limiter', key: '203.0.113.5', hits: 45, windowMs: WINDOW_MS, timeoutMs: 5_000 };
    const { results } = await runWorkers(broker, [plan, plan]);
    const decisions = results.flatMap((r) => (r.kind === 'decisions' ? r.decisions : [`unexpected ${r.kind}`]));
    expect(decisions).toHaveLength(90);
    expect(decisions.filter((d) => d === 'allowed')).toHaveLength(60);
    expect(decisions.filter((d) => d === 'limited')).toHaveLength(30);
  });

  it('keeps keys apart and starts a new window after expiry', async () => {
    const broker = new RateLimitBroker(new MemoryRateLimitStore());
    const port = broker.connect();
    const store = new SharedRateLimitStore(port);
    cleanups.push(() => store.close());
    expect((await store.hit('a', 200)).count).toBe(1);
    expect((await store.hit('a', 200)).count).toBe(2);
    expect((await store.hit('b', 200)).count).toBe(1);
    const third = await store.hit('a', 200);
    expect(third.count).toBe(3);
    await new Promise((r) => setTimeout(r, third.resetMs + 30));
    expect((await store.hit('a', 200)).count).toBe(1);
  });

  it('passes a backing-store failure (Redis down) to the workers as a RateLimitStoreError', async () => {
    const redis = await startRedisServer();
    const backing = new RedisRateLimitStore({ url: redis.url });
    cleanups.push(() => backing.close());
    await redis.stop();
    const broker = new RateLimitBroker(backing);
    const { results } = await runWorkers(broker, [{ mode: 'hits', key: 'k', hits: 3, windowMs: WINDOW_MS }]);
    expect(results[0]).toEqual({ kind: 'failure', failures: ['unavailable', 'unavailable', 'unavailable'] });
  });

  it('turns a blocked main thread into a timeout error in the worker instead of a hung request', async () => {
    const broker = new RateLimitBroker(new MemoryRateLimitStore());
    const port = broker.connect();
    const worker = startTsWorker(FIXTURE, {
      workerData: { port, mode: 'hits', key: 'k', hits: 2, windowMs: WINDOW_MS, timeoutMs: 150 } satisfies SharedStoreWorkerData,
      transferList: [port],
    });
    cleanups.push(() => worker.terminate());
    expect((await once(worker, 'message'))[0]).toBe('ready');
    const result = once(worker, 'message');
    worker.postMessage('go');
    // Block this thread well past the worker's timeout, so the broker cannot answer in time.
    const until = Date.now() + 600;
    while (Date.now() < until) {
      /* busy on purpose */
    }
    expect((await result)[0]).toEqual({ kind: 'failure', failures: ['timeout', 'timeout'] });
  });

  it('fails pending and later hits with a closed error once the broker closes', async () => {
    const broker = new RateLimitBroker(new MemoryRateLimitStore());
    const store = new SharedRateLimitStore(broker.connect());
    expect((await store.hit('k', WINDOW_MS)).count).toBe(1);
    broker.close();
    const error = await store.hit('k', WINDOW_MS).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect((error as RateLimitStoreError).failure).toBe('closed');
  });
});
