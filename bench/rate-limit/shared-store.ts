// Measures the two ways to share rate-limit counters between worker threads, side by side: main-thread broker vs SAB.
// Run: npx tsx bench/rate-limit/shared-store.ts [workers=2] [durationMs=2000] [inFlight=32]
import { once } from 'node:events';
import { availableParallelism, cpus } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TransferListItem } from 'node:worker_threads';
import { MemoryRateLimitStore } from '../../src/rate-limit/memory.js';
import type { RateLimitStore } from '../../src/rate-limit/store.js';
import { RateLimitBroker } from '../../src/rate-limit/shared.js';
import type { BenchWorkerData, BenchWorkerResult } from './shared-store-worker.js';
import { createSabRateTable, SabRateLimitStore } from './sab-rate-table.js';

const [workers = 2, durationMs = 2_000, inFlight = 32] = process.argv.slice(2).map(Number);
const KEYS = Array.from({ length: 16 }, (_, i) => `rl:mcp:198.51.100.${i}`);
const WORKER_FILE = new URL('./shared-store-worker.ts', import.meta.url);
const tsxApiUrl = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;

function startWorker(workerData: BenchWorkerData, transferList: TransferListItem[]): Worker {
  // Node 20 workers cannot load .ts: register tsx inside the worker first.
  const bootstrap = `import(${JSON.stringify(tsxApiUrl)}).then((t) => { t.register(); return import(${JSON.stringify(WORKER_FILE.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, transferList });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

interface VariantResult {
  name: string;
  hitsPerSecond: number;
  p50Us: number;
  p99Us: number;
  exact: boolean;
}

async function measure(name: string, makeStore: () => { data: BenchWorkerData['store']; transfer: TransferListItem[] }, verifier: RateLimitStore): Promise<VariantResult> {
  const threads = Array.from({ length: workers }, () => {
    const { data, transfer } = makeStore();
    return startWorker({ store: data, keys: KEYS, inFlight, durationMs }, transfer);
  });
  await Promise.all(threads.map(async (w) => once(w, 'message')));
  const results = Promise.all(threads.map(async (w) => (await once(w, 'message'))[0] as BenchWorkerResult));
  const started = performance.now();
  for (const w of threads) w.postMessage('go');
  const all = await results;
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(threads.map((w) => w.terminate()));
  // Exactness: one more hit per key must see exactly (hits made by all workers) + 1.
  let exact = true;
  for (const key of KEYS) {
    const made = all.reduce((sum, r) => sum + (r.hitsPerKey[key] ?? 0), 0);
    if ((await verifier.hit(key, 600_000)).count !== made + 1) exact = false;
  }
  const latencies = all.flatMap((r) => r.latenciesUs).sort((a, b) => a - b);
  return { name, hitsPerSecond: latencies.length / seconds, p50Us: percentile(latencies, 0.5), p99Us: percentile(latencies, 0.99), exact };
}

const backing = new MemoryRateLimitStore();
const broker = new RateLimitBroker(backing);
const sab = createSabRateTable(1024);
const brokerResult = await measure('main-thread broker (MessagePort)', () => {
  const port = broker.connect();
  return { data: { kind: 'broker', port }, transfer: [port] };
}, backing);
const sabResult = await measure('SharedArrayBuffer + Atomics lock', () => ({ data: { kind: 'sab', sab }, transfer: [] }), new SabRateLimitStore(sab));

console.log(`${new Date().toISOString()} · ${cpus()[0]?.model ?? 'cpu'} · ${availableParallelism()} cores · Node ${process.version}`);
console.log(`${workers} workers × ${inFlight} hits in flight, ${durationMs} ms, ${KEYS.length} keys`);
for (const r of [brokerResult, sabResult]) {
  console.log(`${r.name.padEnd(34)} ${Math.round(r.hitsPerSecond).toString().padStart(9)} hits/s  p50 ${r.p50Us.toFixed(1)} µs  p99 ${r.p99Us.toFixed(1)} µs  exact=${r.exact}`);
}
console.log(`ratio SAB / broker throughput: ${(sabResult.hitsPerSecond / brokerResult.hitsPerSecond).toFixed(1)}×`);
if (!brokerResult.exact || !sabResult.exact) process.exitCode = 1;
