// WORKERS>1: the main thread probes the port, supervises N server worker threads, shares rate limits and metrics.
import type { TransferListItem, Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import type { ServerConfig } from '../server/config.js';
import { listenMetrics } from '../metrics/listener.js';
import type { MetricsListener } from '../metrics/listener.js';
import { MetricsHub } from '../metrics/shared.js';
import { MemoryRateLimitStore } from '../rate-limit/memory.js';
import { RateLimitBroker } from '../rate-limit/shared.js';
import { displayUrl } from '../server/start-server.js';
import { nodeSupportsReusePort } from '../transport/select.js';
import type { Transport } from '../transport/types.js';
import { EXIT_INTERNAL, EXIT_STARTUP_FAILED } from './exit-codes.js';
import { LAUNCHER_EXITED_MESSAGE, watchNpmLauncher } from './launcher.js';
import { STOP_SIGNALS } from './signals.js';
import { WorkerSupervisor, stopOnSignals } from './supervisor.js';
import type { SupervisorEvent } from './supervisor.js';
import { spawnThread, threadEntry } from '../offload/threads.js';
import type { WorkerServerData } from './worker-main.js';


/** The worker entry next to this file. */
const WORKER_ENTRY = threadEntry(import.meta.url, 'worker-main');

function spawnWorker(workerData: Record<string, unknown>, transferList: TransferListItem[]): Worker {
  return spawnThread(WORKER_ENTRY, workerData, transferList);
}

/**
 * Runs `count` server workers on one port. Never calls process.exit: ending the process while a worker's uWS app is
 * open aborts Node (exit 134, measured), so the process ends by itself once every worker has stopped.
 */
export async function runWorkers(
  config: ServerConfig,
  count: number,
  transport: Transport,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<void> {
  if (transport.name === 'node' && !nodeSupportsReusePort()) {
    console.error(`WORKERS=${count} with the node:http adapter needs Node 22.12 or newer (SO_REUSEPORT in listen); on Node ${process.versions.node} use WORKERS=1, or the uWS adapter (TRANSPORT=uws on Node 20).`);
    process.exitCode = EXIT_STARTUP_FAILED;
    return;
  }
  let port: number;
  try {
    // Workers bind with SO_REUSEPORT, which would silently share a port a stale process holds: check it exclusively
    // first; this also turns PORT=0 into the real port all workers then share.
    port = await transport.probeExclusivePort(config.host, config.port);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = EXIT_STARTUP_FAILED;
    return;
  }

  // Without Redis the main thread holds the one set of counters every worker asks (exact across workers); with Redis and
  // RATE_LIMIT_STORE_FAILURE=local it is where they count while Redis cannot.
  const broker = config.redisUrl === undefined || config.rateLimitStoreFailure === 'local' ? new RateLimitBroker(new MemoryRateLimitStore()) : undefined;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sessionplan_' }); // process-wide figures, counted once
  const restarts = new Counter({ name: 'sessionplan_worker_restarts_total', help: 'Server worker threads restarted after a crash.', registers: [registry] });
  const hub = new MetricsHub(registry);
  // Workers use the adapter the main thread chose (so an automatic fallback is decided, and announced, once).
  const workerData: Omit<WorkerServerData, 'metricsPort' | 'workerIndex'> = { config: { ...config, port, transport: transport.name } };

  const supervisor = new WorkerSupervisor({
    count,
    spawn: spawnWorker,
    // Called on every (re)start, so a restarted worker gets fresh ports.
    payload: () => {
      const metricsPort = hub.connect();
      const rateLimitPort = broker?.connect();
      return {
        data: { ...workerData, metricsPort, ...(rateLimitPort === undefined ? {} : { rateLimitPort }) },
        transferList: rateLimitPort === undefined ? [metricsPort] : [metricsPort, rateLimitPort],
      };
    },
    onEvent: (event) => logEvent(logger, event, restarts),
  });

  let signalled = false;
  const noteSignal = (): void => {
    signalled = true;
  };
  for (const signal of STOP_SIGNALS) process.once(signal, noteSignal);
  let metricsListener: MetricsListener | undefined;
  const release = (): void => {
    broker?.close();
    hub.close();
    void metricsListener?.close();
  };
  const removeSignalHandlers = stopOnSignals(
    supervisor,
    () => {
      release();
      logger.info('stopped');
      logger.flush();
    },
    { ignored: (signal) => logger.info({ signal }, 'signal ignored'), inspector: config.inspectorSignal, shutdownDelayMs: config.shutdownDelayS * 1000 },
  );
  // Under npx the SIGTERM a process manager sends stops at npm's shell (launcher.ts): npm's exit counts as SIGTERM.
  const unwatchLauncher = watchNpmLauncher(env, () => {
    logger.info(LAUNCHER_EXITED_MESSAGE);
    process.emit('SIGTERM', 'SIGTERM');
  });
  // No stack trace leaves the process; a failure of the supervising thread stops the workers gracefully.
  const crash = (error: unknown): void => {
    logger.fatal({ err: error }, 'unexpected failure; stopping the workers');
    logger.flush();
    process.exitCode = EXIT_INTERNAL;
    void supervisor.stop().finally(release);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  const url = displayUrl(config.host, port);
  try {
    // One scrape for the whole process: the main thread sums every worker's registry with its own.
    if (config.metricsPort !== undefined) metricsListener = await listenMetrics({ host: config.metricsHost, port: config.metricsPort, render: () => hub.render() });
    await supervisor.start();
  } catch (error) {
    removeSignalHandlers();
    unwatchLauncher();
    release();
    if (signalled) return; // stopped during startup: not a failure
    console.error((error as Error).message);
    process.exitCode = EXIT_STARTUP_FAILED;
    return;
  }
  const metrics = metricsListener === undefined ? undefined : `${displayUrl(config.metricsHost, metricsListener.port)}/metrics`;
  logger.info(
    { url, mcp: `${url}/mcp`, viewer: `${url}/`, workers: count, transport: transport.version, metrics },
    `sessionplan-mcp listening on ${url} (MCP endpoint ${url}/mcp, ${count} workers, ${transport.version}${metrics === undefined ? '' : `, metrics ${metrics}`}); viewer ${url}/`,
  );
  logger.flush();
}

function logEvent(logger: Logger, event: SupervisorEvent, restarts: Counter): void {
  if (event.type === 'crashed') {
    restarts.inc();
    logger.error({ worker: event.index, reason: event.reason, stack: event.stack, restartInMs: event.restartInMs }, 'worker crashed; restarting it');
  } else if (event.type === 'listening' && event.generation > 0) {
    logger.info({ worker: event.index, generation: event.generation }, 'worker restarted');
  }
}
