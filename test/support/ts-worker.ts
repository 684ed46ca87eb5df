// Test helper: start a worker thread from a TypeScript file (tsx registered inside the worker, as in the test process).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TransferListItem } from 'node:worker_threads';

// The ESM entry of tsx's register API (resolving 'tsx/esm/api' from here would pick its CommonJS twin).
const tsxApiUrl = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;

/** Node 20 cannot load .ts in a worker; the bootstrap registers tsx's loader first, then imports the file. */
export function startTsWorker(file: URL, options: { workerData?: unknown; transferList?: readonly TransferListItem[] } = {}): Worker {
  const bootstrap = `import(${JSON.stringify(tsxApiUrl)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); });`;
  return new Worker(bootstrap, {
    eval: true,
    workerData: options.workerData,
    transferList: options.transferList ? [...options.transferList] : undefined,
  });
}
