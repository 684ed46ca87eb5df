// Measures the Redis rate-limit store on a private redis-server: hit latency, throughput, and kill/restart timings.
// Run: npx tsx bench/rate-limit/redis-store.ts   (needs redis-server: apt-get install redis-server)
import { availableParallelism, cpus } from 'node:os';
import { RedisRateLimitStore } from '../../src/rate-limit/redis.js';
import { startRedisServer } from '../../test/support/redis.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const redis = await startRedisServer();
const store = new RedisRateLimitStore({ url: redis.url, keyPrefix: 'bench:' });
await store.ready(5_000);

const latencies: number[] = [];
for (let i = 0; i < 2_000; i++) {
  const started = performance.now();
  await store.hit(`seq:${i % 50}`, 60_000);
  latencies.push((performance.now() - started) * 1000);
}
latencies.sort((a, b) => a - b);

let hits = 0;
const t0 = performance.now();
while (performance.now() - t0 < 1_000) {
  await Promise.all(Array.from({ length: 100 }, (_, i) => store.hit(`par:${i}`, 60_000)));
  hits += 100;
}
const perSecond = hits / ((performance.now() - t0) / 1000);

console.log(`${new Date().toISOString()} · ${cpus()[0]?.model ?? 'cpu'} · ${availableParallelism()} cores · Node ${process.version} · loopback TCP`);
console.log(`sequential hit: p50 ${latencies[1000]?.toFixed(0)} µs, p99 ${latencies[1980]?.toFixed(0)} µs; 100 in flight: ${Math.round(perSecond)} hits/s`);

// Outage: 4 clients hit back to back; kill -9 Redis, wait, start it again on the same port.
for (let round = 1; round <= 3; round++) {
  let killedAt = 0;
  let restartedAt = 0;
  let firstErrorMs = NaN;
  let firstSuccessMs = NaN;
  let slowestFailureMs = 0;
  let running = true;
  const client = async (): Promise<void> => {
    while (running) {
      const started = performance.now();
      try {
        await store.hit('outage', 60_000);
        if (restartedAt > 0 && Number.isNaN(firstSuccessMs)) firstSuccessMs = performance.now() - restartedAt;
      } catch {
        slowestFailureMs = Math.max(slowestFailureMs, performance.now() - started);
        if (killedAt > 0 && Number.isNaN(firstErrorMs)) firstErrorMs = performance.now() - killedAt;
      }
      await sleep(2);
    }
  };
  const clients = Array.from({ length: 4 }, client);
  await sleep(200);
  killedAt = performance.now();
  await redis.kill();
  await sleep(1_200);
  await redis.restart();
  restartedAt = performance.now();
  await sleep(2_500);
  running = false;
  await Promise.all(clients);
  console.log(
    `outage ${round}: first 503-worthy error ${firstErrorMs.toFixed(1)} ms after kill, slowest failed hit ${slowestFailureMs.toFixed(1)} ms, first success ${firstSuccessMs.toFixed(0)} ms after restart`,
  );
}
// Hung Redis (SIGSTOP): the command timeout turns it into an error.
redis.freeze();
const hungAt = performance.now();
const hungOutcome = await store.hit('hung', 60_000).then(
  () => 'answered',
  (e: unknown) => (e as Error).name,
);
console.log(`hung Redis: ${hungOutcome} after ${(performance.now() - hungAt).toFixed(0)} ms`);
redis.thaw();
await store.close();
await redis.stop();
