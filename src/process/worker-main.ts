// Entry of one server worker thread (WORKERS>1): runs the server on the shared port until the main thread says stop.
import type { MessagePort } from 'node:worker_threads';
import type { ServerConfig } from '../server/config.js';
import { connectWorkerMetrics } from '../metrics/shared.js';
import { createMetrics } from '../metrics/metrics.js';
import { SharedRateLimitStore } from '../rate-limit/shared.js';
import type { RateLimitStore } from '../rate-limit/store.js';
import { StartupError, createRedisRateLimitStore, startServer } from '../server/start-server.js';
import { createLogger } from '../logging/logger.js';
import { serveInWorker } from './supervisor.js';
import type { WorkerServer } from './supervisor.js';

/** What the main thread hands each worker (main-workers.ts → here). */
export interface WorkerServerData {
  /** With `port` already probed by the main thread (never 0). */
  config: ServerConfig;
  /**
   * The main thread's rate-limit broker: the store without `config.redisUrl`; with it, where POSTs are counted while
   * Redis cannot (RATE_LIMIT_STORE_FAILURE=local), else absent (each worker talks to Redis).
   */
  rateLimitPort?: MessagePort;
  /** The main thread's metrics hub (it serves METRICS_PORT for the whole process). */
  metricsPort: MessagePort;
  workerIndex: number;
}

/** One worker thread's server: shares the port, counts rate limits globally, hands its metrics to the main thread. */
export async function startWorkerServer(workerData: Record<string, unknown>): Promise<WorkerServer> {
  const { config, rateLimitPort, metricsPort, workerIndex } = workerData as unknown as WorkerServerData;
  const own = createLogger(config.logLevel);
  const logger = own.logger.child({ worker: workerIndex });
  let store: RateLimitStore;
  let fallback: RateLimitStore | undefined;
  if (config.redisUrl !== undefined) {
    store = createRedisRateLimitStore(config.redisUrl, logger);
    if (rateLimitPort !== undefined) fallback = new SharedRateLimitStore(rateLimitPort);
  } else if (rateLimitPort !== undefined) store = new SharedRateLimitStore(rateLimitPort);
  else throw new StartupError('Worker started without a rate-limit store (no REDIS_URL and no broker port).');
  // Process-wide default metrics (RSS, CPU) come from the main thread once; per worker they would be summed N times.
  const metrics = createMetrics({ defaultMetrics: false });
  connectWorkerMetrics(metricsPort, metrics.registry);
  // The main thread already said which adapter serves (and warned once if auto fell back): workers stay quiet.
  const accessLog = { write: own.writeLine, bindings: `,"worker":${workerIndex}` };
  const server = await startServer(config, { logger, accessLog, droppedLogLines: own.droppedLines, rateLimitStore: store, rateLimitFallback: fallback, sharedPort: true, metrics, onTransportWarning: () => {} }).catch(async (error: unknown) => {
    await store.close?.();
    own.stop();
    throw error;
  });
  return {
    drain: () => server.drain(),
    stop: async () => {
      await server.close();
      own.stop();
    },
  };
}

serveInWorker(startWorkerServer);
