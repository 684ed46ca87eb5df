// The HTTP core's observer: request metrics plus one access-log line per request (method, path, status, sizes, time).
import type { Logger } from 'pino';
import type { HttpObserver, RequestRecord, RouteLabel } from '../http/ports.js';
import { acceptErrorReporter, unexpectedReporter } from './failures.js';
import type { ServerMetrics } from './metrics.js';

/** Longest path written to the access log; longer ones are cut (the path comes from the client). */
const MAX_LOGGED_PATH = 200;
/**
 * A health check (GET or HEAD of a health route) is logged at most once per this long per path and status, with the
 * number of checks the line stands for: probes and clients that poll them would otherwise decide how fast the log grows.
 */
export const HEALTH_LOG_INTERVAL_MS = 10_000;
const HEALTH_ROUTES: ReadonlySet<RouteLabel> = new Set<RouteLabel>(['mcp', 'livez', 'readyz']);

/**
 * Where the access log goes when the logger is a plain one of logging/logger.ts: its destination, and the JSON of the
 * child logger's bindings as pino writes them after the time (`,"worker":1`, or '').
 */
export interface AccessLogDestination {
  write(line: string): void;
  readonly bindings: string;
}

/** The logged path: cut after MAX_LOGGED_PATH characters (it comes from the client). */
const loggedPath = (r: RequestRecord): string => (r.path.length > MAX_LOGGED_PATH ? `${r.path.slice(0, MAX_LOGGED_PATH)}…` : r.path);
/** The logged duration: milliseconds to two decimals. */
const loggedMs = (r: RequestRecord): number => Math.round(r.durationMs * 100) / 100;

/**
 * The access-log line pino writes for a record at level info (`base: undefined`, default time and message keys);
 * `sampled`: the number of health checks the line stands for.
 */
export function accessLogLine(record: RequestRecord, now: number, bindings = '', sampled?: number): string {
  const path = loggedPath(record);
  const ms = loggedMs(record);
  return `{"level":30,"time":${now}${bindings},"requestId":${record.requestId},"method":${JSON.stringify(record.method)},"path":${JSON.stringify(path)},"status":${record.status},"bytesIn":${record.bytesIn},"bytesOut":${record.bytesOut},"ms":${ms}${record.aborted ? ',"aborted":true' : ''}${sampled === undefined ? '' : `,"sampled":${sampled}`},"msg":"request"}\n`;
}

/** Health checks since the last logged one, per path and status. */
class HealthSampler {
  readonly #last = new Map<string, { at: number; skipped: number }>();

  /** The number of checks a line logged now stands for, or undefined when this one is not logged. */
  take(record: RequestRecord, now: number): number | undefined {
    const key = `${record.path} ${record.status}`;
    const last = this.#last.get(key);
    if (last !== undefined && now - last.at < HEALTH_LOG_INTERVAL_MS) {
      last.skipped++;
      return undefined;
    }
    this.#last.set(key, { at: now, skipped: 0 });
    return (last?.skipped ?? 0) + 1;
  }
}

const isHealthCheck = (r: RequestRecord): boolean => (r.method === 'GET' || r.method === 'HEAD') && HEALTH_ROUTES.has(r.route);

/**
 * Never bodies, headers, query strings or client addresses: the log must not hold what the plan or its viewer sent.
 * `destination`: given when `logger` is the server's plain one (logging/logger.ts); the line written per request is
 * then built by accessLogLine instead of pino's general object walk, which costs a small request more than 3 % of its
 * CPU (test/unit/metrics-request-observer.test.ts holds the two byte for byte). Any other logger gets logger.info.
 */
export function createHttpObserver(metrics: ServerMetrics, logger: Logger, destination?: AccessLogDestination): HttpObserver {
  const logging = logger.isLevelEnabled('info');
  const log =
    destination === undefined
      ? (r: RequestRecord, sampled?: number) => logger.info({ ...accessLogFields(r), sampled }, 'request')
      : (r: RequestRecord, sampled?: number) => destination.write(accessLogLine(r, Date.now(), destination.bindings, sampled));
  const health = new HealthSampler();
  return {
    requestCompleted(r: RequestRecord): void {
      metrics.observeRequest(r.route, r.method, r.status, r.durationMs);
      if (!logging) return;
      if (!isHealthCheck(r)) return log(r);
      const sampled = health.take(r, Date.now());
      if (sampled !== undefined) log(r, sampled);
    },
    recordEvent: (event) => metrics.recordEvent(event),
    recordRateLimitRefusal: (route, reason) => metrics.recordRateLimitRefusal(route, reason),
    recordSlowReaderClose: () => metrics.recordSlowReaderClose(),
    recordAcceptError: acceptErrorReporter(logger, metrics),
    onUnexpected: unexpectedReporter(logger, metrics),
  };
}

/** The fields of the access-log line, for pino. */
export function accessLogFields(r: RequestRecord): Record<string, unknown> {
  return {
    requestId: r.requestId,
    method: r.method,
    path: loggedPath(r),
    status: r.status,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    ms: loggedMs(r),
    aborted: r.aborted || undefined,
  };
}
