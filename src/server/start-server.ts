// Composition root: one server from codec, session operations, MCP handler, REST, rate limiting, metrics and an adapter.
import type { Logger } from 'pino';
import { loadAppView } from '../assets/app-view.js';
import { iconPng } from '../assets/icon.js';
import { loadStaticAssets } from '../assets/static.js';
import { loadCodec } from '../codec/node.js';
import type { ServerConfig } from './config.js';
import { connectionLimits, unhonouredSetting } from './connection-limits.js';
import { createEndpoints, serverIdentity } from '../endpoints/endpoints.js';
import { createHealthJson } from './health.js';
import type { EndpointHooks } from '../endpoints/endpoints.js';
import { BufferPool } from '../http/buffer-pool.js';
import { createHttpCore } from '../http/core.js';
import { createOriginPolicy } from '../http/origins.js';
import type { StaticAssets } from '../http/ports.js';
import { createRouteTable } from '../http/routes.js';
import { isLoopbackAddress } from '../http/rules.js';
import { LIMITS } from '../limits/table.js';
import { createMetrics } from '../metrics/metrics.js';
import type { ServerMetrics } from '../metrics/metrics.js';
import { listenMetrics } from '../metrics/listener.js';
import { createHttpObserver } from '../metrics/request-observer.js';
import type { AccessLogDestination } from '../metrics/request-observer.js';
import { createLogger } from '../logging/logger.js';
import { oncePerInterval } from '../logging/throttle.js';
import { weighDecodeHere } from '../offload/cost.js';
import { offloadEndpoints } from '../offload/endpoints.js';
import { OffloadPool } from '../offload/pool.js';
import { createRateLimiter } from '../rate-limit/limiter.js';
import { MemoryRateLimitStore } from '../rate-limit/memory.js';
import { RedisRateLimitStore } from '../rate-limit/redis.js';
import type { RateLimitStore } from '../rate-limit/store.js';
import { sessionJsonSchema } from '../session/json-schema.js';
import { selectTransport } from '../transport/select.js';
import type { Transport } from '../transport/types.js';

/** Startup cannot continue; the message is one line meant for the operator. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export interface ServerOptions {
  /** Rate-limit counters; default: the embedded in-memory store. */
  rateLimitStore?: RateLimitStore;
  /**
   * Where POSTs are counted while a shared store (REDIS_URL) cannot count, with RATE_LIMIT_STORE_FAILURE=local; default:
   * an in-memory store of this server (worker threads share the process's through the main thread).
   */
  rateLimitFallback?: RateLimitStore;
  /** Default: a pino logger at config.logLevel writing JSON lines to stdout. */
  logger?: Logger;
  /** The destination of `logger` when it is one of logging/logger.ts (the access log is then written straight to it). */
  accessLog?: AccessLogDestination;
  /** How many lines that logger dropped (logging/logger.ts), for the metric. */
  droppedLogLines?: () => number;
  /** Viewer files; default: the built viewer (dist/viewer). `null` serves no viewer. */
  staticAssets?: StaticAssets | null;
  /** Share the port with the other worker threads (SO_REUSEPORT); only after the main thread probed it. */
  sharedPort?: boolean;
  /** The registry this server records into; default: a fresh one with Node's default metrics. */
  metrics?: ServerMetrics;
  /** The socket adapter; default: the one config.transport selects. */
  transport?: Transport;
  /** Called with the one warning line of an automatic adapter fallback (default: logged at warn). */
  onTransportWarning?: (line: string) => void;
  /** The offload threads' entry module; default: offload/thread (tests give one that fails on purpose). */
  offloadEntry?: URL;
}

export interface StartedServer {
  /** The port actually bound (differs from config.port when that is 0). */
  port: number;
  /** Base URL of this server, e.g. http://127.0.0.1:8080 (the MCP endpoint is `${url}/mcp`). */
  url: string;
  /** The adapter serving, e.g. { name: 'node', version: 'node:http v22.12.0' }. */
  transport: { name: string; version: string };
  metrics: ServerMetrics;
  /** The port of the metrics listener (METRICS_PORT), when there is one. */
  metricsPort: number | undefined;
  /** From now on `/readyz` answers 503 and every answer closes its connection; the server goes on serving. */
  drain(): void;
  /** Stops accepting, finishes in-flight requests, closes connections and the store. */
  close(): Promise<void>;
}

export { PACKAGE_VERSION } from '../endpoints/endpoints.js';

export function displayUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The adapter config.transport names; an unusable `uws` choice becomes a StartupError. */
export async function transportFor(config: ServerConfig, onWarning: (line: string) => void): Promise<Transport> {
  try {
    const { transport, warning } = await selectTransport(config.transport, (candidate) => unhonouredSetting(config, candidate));
    if (warning !== undefined) onWarning(warning);
    return transport;
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
}

export async function startServer(config: ServerConfig, options: ServerOptions = {}): Promise<StartedServer> {
  const ownLogger = options.logger === undefined ? createLogger(config.logLevel) : undefined;
  const logger: Logger = ownLogger?.logger ?? (options.logger as Logger);
  const store: RateLimitStore = options.rateLimitStore ?? new MemoryRateLimitStore();
  // Whatever was opened is closed again when start-up fails: an open Redis connection would keep the process alive.
  const opened: (() => Promise<void> | undefined)[] = [];
  const release = async (): Promise<void> => {
    for (const close of opened) await close();
    await store.close?.();
    await options.rateLimitFallback?.close?.();
    ownLogger?.stop();
  };
  try {
    const transport = options.transport ?? (await transportFor(config, options.onTransportWarning ?? ((line) => logger.warn(line))));
    // A limit the operator set that this adapter cannot apply stops start-up (ConfigError) before anything is opened.
    const limits = connectionLimits(config, transport);
    await loadCodec().catch((error: unknown) => {
      throw new StartupError(`Cannot load the WASM codec: ${(error as Error).message}`);
    });

    const identity = serverIdentity(config.publicBaseUrl);
    const metrics = options.metrics ?? createMetrics();
    metrics.watchRateLimitStore(() => store.health());
    const droppedLogLines = options.droppedLogLines ?? ownLogger?.droppedLines;
    if (droppedLogLines !== undefined) metrics.watchDroppedLogLines(droppedLogLines);
    const observer = createHttpObserver(metrics, logger, options.accessLog ?? (ownLogger === undefined ? undefined : { write: ownLogger.writeLine, bindings: '' }));
    const hooks: EndpointHooks = { recordEvent: (event) => metrics.recordEvent(event) };
    const appView = config.mcpApps
      ? await loadAppView(config.publicBaseUrl).catch((error: unknown) => {
          throw new StartupError((error as Error).message);
        })
      : undefined;
    // With offload threads, a decode whose link expands to costly work is declined here before its text is made.
    let threadsUp = (): boolean => true;
    let endpoints = createEndpoints(config.publicBaseUrl, hooks, { appView, prompts: config.mcpPrompts, weighDecode: config.offloadThreads > 0 ? weighDecodeHere : undefined });
    // Large bodies are assembled in these buffers and travel in them to an offload thread and back with its answer.
    const buffers = new BufferPool();
    if (config.offloadThreads > 0) {
      // Heavy POSTs go to threads, so that a 2 MB create or a link that expands to 2 MB never holds health checks up.
      const pool = new OffloadPool(config.offloadThreads, { publicBaseUrl: config.publicBaseUrl, appView, prompts: config.mcpPrompts }, {
        onThreadFailure: (error) => logger.error({ err: error }, 'offload thread failed or could not start; a new one is started'),
        entry: options.offloadEntry,
      });
      threadsUp = () => pool.hasThreads;
      opened.push(() => pool.close());
      // Started before listening: the first heavy request finds a warm thread, and a server's memory and file
      // descriptors are what they will be from its first request on.
      await pool.start().catch((error: unknown) => {
        throw new StartupError(`Cannot start the offload threads: ${(error as Error).message}`);
      });
      endpoints = offloadEndpoints(endpoints, pool, hooks, buffers);
    }
    const staticAssets = options.staticAssets === undefined ? await loadStaticAssets() : (options.staticAssets ?? undefined);
    let draining = false;
    const routes = createRouteTable({
      mcp: endpoints.mcp,
      healthJson: createHealthJson(identity, transport, () => store.health()),
      // Not ready while draining, nor while every offload thread is gone: heavy POSTs would wait for a replacement.
      ready: () => !draining && threadsUp(),
      rest: endpoints.rest,
      schemaJson: JSON.stringify(sessionJsonSchema),
      iconPng: iconPng(),
      staticAssets,
    });
    const core = createHttpCore({
      routes,
      rateLimiter: createRateLimiter(store, {
        limit: config.rateLimit,
        windowS: config.rateWindowS,
        fallback: config.redisUrl !== undefined && config.rateLimitStoreFailure === 'local' ? (options.rateLimitFallback ?? new MemoryRateLimitStore()) : undefined,
        onFallback: (route) => metrics.recordLocalRateLimit(route),
      }),
      observer,
      origins: createOriginPolicy({ allowed: config.allowedOrigins, development: config.env === 'development' }),
      hostGuard: isLoopbackAddress(config.host),
      trustProxy: config.trustProxy,
      ipv6PrefixBits: config.rateLimitIpv6Prefix,
      maxBodyBytes: LIMITS.requestBody.value,
      buffers,
    });
    // Worker threads leave /metrics to the main thread, which sums their registries (process/main-workers.ts).
    const metricsListener = config.metricsPort === undefined || options.sharedPort === true
      ? undefined
      : await listenMetrics({ host: config.metricsHost, port: config.metricsPort, render: () => metrics.render() }).catch((error: unknown) => {
          throw new StartupError((error as Error).message);
        });
    opened.push(() => metricsListener?.close());
    const listening = await transport
      .listen({ host: config.host, port: config.port, core, sharedPort: options.sharedPort, limits, ipv6PrefixBits: config.rateLimitIpv6Prefix })
      .catch((error: unknown) => {
        throw new StartupError((error as Error).message);
      });
    return {
      port: listening.port,
      url: displayUrl(config.host, listening.port),
      transport: { name: transport.name, version: transport.version },
      metrics,
      metricsPort: metricsListener?.port,
      drain() {
        draining = true;
        listening.drain();
      },
      async close() {
        await listening.close();
        await release(); // the metrics listener, the store, the log timer
        logger.flush();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Each kind of store failure is logged at most once per this interval (ioredis reports every reconnect attempt). */
const STORE_FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The Redis rate-limit store (REDIS_URL). It connects in the background: while Redis is unreachable — also at
 * startup — POSTs are answered 503 -32603 (fail closed) and it reconnects by itself. Every kind of failure (a
 * connection error's code, a reply such as READONLY or OOM, a timeout) is logged once per minute; the line names
 * neither the address nor the credentials.
 */
export function createRedisRateLimitStore(url: string, logger: Logger): RedisRateLimitStore {
  const mayLog = oncePerInterval(STORE_FAILURE_LOG_INTERVAL_MS);
  return new RedisRateLimitStore({
    url,
    onFailure: (kind) => {
      if (!mayLog(kind)) return;
      logger.warn({ store: 'redis', failure: kind }, `rate-limit store (Redis) failing (${kind}): POSTs are answered 503 until it recovers`);
    },
  });
}
