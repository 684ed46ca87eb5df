// Worker threads running a module of this package, from dist/ (JavaScript) or from src/ under tsx (tests).
import { Worker } from 'node:worker_threads';
import type { ResourceLimits, TransferListItem } from 'node:worker_threads';

/** Running from source under tsx (tests, `node --import tsx src/process/main.ts`) rather than from dist/. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The entry module `name` next to the module at `base` (its import.meta.url), in the form this process runs. */
export function threadEntry(base: string, name: string): URL {
  return new URL(`./${name}${FROM_SOURCE ? '.ts' : '.js'}`, base);
}

export function spawnThread(entry: URL, workerData: unknown, transferList: TransferListItem[] = [], resourceLimits?: ResourceLimits): Worker {
  const limits = resourceLimits === undefined ? {} : { resourceLimits };
  if (!FROM_SOURCE) return new Worker(entry, { workerData, transferList, ...limits });
  // Node 20 does not hand tsx's loader to worker threads: register it inside the worker, then load the entry.
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, transferList, ...limits });
}
