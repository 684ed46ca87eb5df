// Composition root: wires codec, session operations, MCP handler, REST, rate limiting, metrics and logging onto uWS.
import { readFileSync } from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { loadCodec } from './codec/node.js';
import type { ServerConfig } from './config.js';
import { createMcpHandler, mcpHealth } from './mcp/handler.js';
import type { McpObserver, McpServerIdentity } from './mcp/handler.js';
import { sessionJsonSchema } from './session/json-schema.js';
import { createSessionOperations } from './session/operations.js';
import { isLoopbackAddress } from './transport/http-rules.js';
import { iconPng } from './transport/icon.js';
import { createMetrics } from './transport/metrics.js';
import { connectWorkerMetrics } from './transport/metrics-shared.js';
import type { ServerMetrics } from './transport/metrics.js';
import { MemoryRateLimitStore, createRateLimiter } from './transport/rate-limit.js';
import type { RateLimitStore } from './transport/rate-limit.js';
import { RedisRateLimitStore } from './transport/rate-limit-redis.js';
import { SharedRateLimitStore } from './transport/rate-limit-shared.js';
import { createRestHandlers } from './transport/rest.js';
import { createRouter } from './transport/router.js';
import { loadStaticAssets } from './transport/static.js';
import type { StaticAssets } from './transport/static.js';
import { assertNativeUws, listenUws } from './transport/uws.js';
import type { RequestRecord } from './transport/uws.js';
import type { WorkerServer } from './transport/workers.js';

/** Request bodies above this many bytes are refused with 413 while streaming (owner's "Transport and limits"). */
export const MAX_BODY_BYTES = 2_000_000;

/** Startup cannot continue; the message is one line meant for the operator. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export interface ServerOptions {
  /** Rate-limit counters; default: the embedded in-memory store. */
  rateLimitStore?: RateLimitStore;
  /** Default: a pino logger at config.logLevel writing JSON lines to stdout. */
  logger?: Logger;
  /** Viewer files; default: the built viewer (dist/viewer). `null` serves no viewer. */
  staticAssets?: StaticAssets | null;
  /** Share the port with the other worker threads (SO_REUSEPORT); only after the main thread probed it. */
  sharedPort?: boolean;
  /** The registry this server records into; default: a fresh one with Node's default metrics. */
  metrics?: ServerMetrics;
  /** What GET /metrics serves; default: this server's registry (worker mode: the whole process, from the main thread). */
  renderMetrics?: () => Promise<{ contentType: string; body: string }>;
}

export interface StartedServer {
  /** The port actually bound (differs from config.port when that is 0). */
  port: number;
  /** Base URL of this server, e.g. http://127.0.0.1:8080 (the MCP endpoint is `${url}/mcp`). */
  url: string;
  metrics: ServerMetrics;
  /** Stops accepting, finishes in-flight requests, closes connections and the store. */
  close(): Promise<void>;
}

function packageVersion(): string {
  const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

/** Log lines are written in batches of this many bytes (one write per request would cost ~8 % of a small request). */
const LOG_BATCH_BYTES = 4096;
/**
 * sonic-boom measures its last pending string (Buffer.byteLength, which flattens it) on every write, and lets it grow to
 * maxWrite (16 KiB by default) while a write is in flight; capping it just above the batch size saves ~1 µs per line.
 */
const LOG_MAX_WRITE_BYTES = LOG_BATCH_BYTES + 512;
/** Batched lines reach stdout at the latest after this long. */
const LOG_FLUSH_INTERVAL_MS = 1000;

/** JSON lines on stdout, batched; `stop()` ends the periodic flush (pino flushes the rest when the process exits). */
export function createLogger(level: ServerConfig['logLevel']): { logger: Logger; stop(): void } {
  const logger = pino({ level, base: undefined }, pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, maxWrite: LOG_MAX_WRITE_BYTES }));
  const timer = setInterval(() => logger.flush(), LOG_FLUSH_INTERVAL_MS);
  timer.unref();
  return { logger, stop: () => clearInterval(timer) };
}

export function displayUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startServer(config: ServerConfig, options: ServerOptions = {}): Promise<StartedServer> {
  try {
    assertNativeUws();
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
  const ownLogger = options.logger === undefined ? createLogger(config.logLevel) : undefined;
  const logger: Logger = ownLogger?.logger ?? (options.logger as Logger);
  try {
    await loadCodec(); // fail at startup, not on the first request, when the WASM file is missing
  } catch (error) {
    await options.rateLimitStore?.close?.(); // an open Redis connection would keep a failed process (or worker) alive
    ownLogger?.stop();
    throw new StartupError(`Cannot load the WASM codec: ${(error as Error).message}`);
  }

  const identity: McpServerIdentity = {
    name: 'sessionplan-mcp',
    title: 'Sessionplan snapshot links',
    version: packageVersion(),
    iconUrl: new URL('icon.png', config.publicBaseUrl).href,
  };
  const metrics = options.metrics ?? createMetrics();
  const observer: McpObserver = {
    onToolCall: ({ tool, outcome, durationMs }) =>
      metrics.recordEvent({ endpoint: 'mcp', operation: tool === 'create_session_link' ? 'create' : 'decode', outcome, durationMs }),
  };
  const operations = createSessionOperations(loadCodec, { baseUrl: config.publicBaseUrl });
  const store: RateLimitStore = options.rateLimitStore ?? new MemoryRateLimitStore();
  const staticAssets = options.staticAssets === undefined ? await loadStaticAssets() : (options.staticAssets ?? undefined);

  const router = createRouter({
    mcp: createMcpHandler({ operations, identity, observer }),
    mcpHealth: () => mcpHealth(identity),
    rest: createRestHandlers(operations, metrics, (error) => logger.error({ err: { type: (error as Error)?.name } }, 'unexpected REST failure')),
    schemaJson: JSON.stringify(sessionJsonSchema),
    iconPng: iconPng(),
    metrics: options.renderMetrics === undefined ? metrics : { ...metrics, render: options.renderMetrics },
    rateLimiter: createRateLimiter(store, { limit: config.rateLimit, windowS: config.rateWindowS }),
    originPolicy: { allowed: new Set(config.allowedOrigins), development: config.env === 'development' },
    hostGuard: isLoopbackAddress(config.host),
    maxBodyBytes: MAX_BODY_BYTES,
    staticAssets,
  });

  const onComplete = (r: RequestRecord): void => {
    metrics.observeRequest(r.route, r.method, r.status, r.durationMs);
    if (!logger.isLevelEnabled('info')) return;
    // Method, path, status, sizes and duration only: never bodies, headers or client addresses.
    logger.info(
      { method: r.method, path: r.path.length > 200 ? `${r.path.slice(0, 200)}…` : r.path, status: r.status, bytesIn: r.bytesIn, bytesOut: r.bytesOut, ms: Math.round(r.durationMs * 100) / 100, aborted: r.aborted || undefined },
      'request',
    );
  };

  let server;
  try {
    server = await listenUws({ host: config.host, port: config.port, router, maxBodyBytes: MAX_BODY_BYTES, trustProxy: config.trustProxy, onComplete, sharedPort: options.sharedPort });
  } catch (error) {
    await store.close?.();
    ownLogger?.stop();
    throw new StartupError((error as Error).message);
  }
  const running = server;
  return {
    port: running.port,
    url: displayUrl(config.host, running.port),
    metrics,
    async close() {
      await running.close();
      await store.close?.();
      ownLogger?.stop();
      logger.flush();
    },
  };
}

/** ioredis reports every reconnect attempt; one warning per this interval is enough for the operator. */
const STORE_WARNING_INTERVAL_MS = 10_000;

/**
 * The Redis rate-limit store (REDIS_URL). It connects in the background: while Redis is unreachable — also at
 * startup — POSTs are answered 503 -32603 (fail closed) and it reconnects by itself. The log line names neither the
 * address nor the credentials.
 */
export function createRedisRateLimitStore(url: string, logger: Logger): RedisRateLimitStore {
  let lastWarning = -Infinity;
  return new RedisRateLimitStore({
    url,
    onConnectionError: (error) => {
      const now = performance.now();
      if (now - lastWarning < STORE_WARNING_INTERVAL_MS) return;
      lastWarning = now;
      logger.warn({ err: { type: error.name, code: (error as NodeJS.ErrnoException).code } }, 'rate-limit store (Redis) unreachable: POSTs are answered 503 until it is back');
    },
  });
}

/** What the main thread hands each worker (src/main.ts → src/worker-main.ts). */
export interface WorkerServerData {
  /** With `port` already probed by the main thread (never 0). */
  config: ServerConfig;
  /** The main thread's rate-limit broker; absent when `config.redisUrl` is set (each worker talks to Redis). */
  rateLimitPort?: MessagePort;
  /** The main thread's metrics hub. */
  metricsPort: MessagePort;
  workerIndex: number;
}

/** One worker thread's server: shares the port, counts rate limits globally, serves the whole process's /metrics. */
export async function startWorkerServer(workerData: Record<string, unknown>): Promise<WorkerServer> {
  const { config, rateLimitPort, metricsPort, workerIndex } = workerData as unknown as WorkerServerData;
  const own = createLogger(config.logLevel);
  const logger = own.logger.child({ worker: workerIndex });
  let store: RateLimitStore;
  if (config.redisUrl !== undefined) store = createRedisRateLimitStore(config.redisUrl, logger);
  else if (rateLimitPort !== undefined) store = new SharedRateLimitStore(rateLimitPort);
  else throw new StartupError('Worker started without a rate-limit store (no REDIS_URL and no broker port).');
  // Process-wide default metrics (RSS, CPU) come from the main thread once; per worker they would be summed N times.
  const metrics = createMetrics({ defaultMetrics: false });
  const renderMetrics = connectWorkerMetrics(metricsPort, metrics.registry);
  const server = await startServer(config, { logger, rateLimitStore: store, sharedPort: true, metrics, renderMetrics }).catch(async (error: unknown) => {
    await store.close?.();
    own.stop();
    throw error;
  });
  return {
    stop: async () => {
      await server.close();
      own.stop();
    },
  };
}
