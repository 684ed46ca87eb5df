// Benchmark worker: hammers one shared rate-limit store (broker port or SAB table) and reports hits and latencies.
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { RateLimitStore } from '../../src/rate-limit/store.js';
import { SharedRateLimitStore } from '../../src/rate-limit/shared.js';
import { SabRateLimitStore } from './sab-rate-table.js';

export interface BenchWorkerData {
  store: { kind: 'broker'; port: MessagePort } | { kind: 'sab'; sab: SharedArrayBuffer };
  keys: string[];
  inFlight: number;
  durationMs: number;
}

export interface BenchWorkerResult {
  hitsPerKey: Record<string, number>;
  latenciesUs: number[];
}

const data = workerData as BenchWorkerData;
const store: RateLimitStore =
  data.store.kind === 'broker' ? new SharedRateLimitStore(data.store.port, { timeoutMs: 5_000 }) : new SabRateLimitStore(data.store.sab);

async function run(): Promise<BenchWorkerResult> {
  const hitsPerKey: Record<string, number> = Object.fromEntries(data.keys.map((k) => [k, 0]));
  const latenciesUs: number[] = [];
  const deadline = performance.now() + data.durationMs;
  let next = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const key = data.keys[next++ % data.keys.length] ?? '';
      const started = performance.now();
      await store.hit(key, 600_000);
      latenciesUs.push((performance.now() - started) * 1000);
      hitsPerKey[key] = (hitsPerKey[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: data.inFlight }, loop));
  return { hitsPerKey, latenciesUs };
}

parentPort!.once('message', () => {
  void run().then((result) => parentPort!.postMessage(result));
});
parentPort!.postMessage('ready');
