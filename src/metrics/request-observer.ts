// The HTTP core's observer: request metrics plus one access-log line per request (method, path, status, sizes, time).
import type { Logger } from 'pino';
import type { HttpObserver, RequestRecord } from '../http/ports.js';
import type { ServerMetrics } from './metrics.js';

/** Longest path written to the access log; longer ones are cut (the path comes from the client). */
const MAX_LOGGED_PATH = 200;

/**
 * Where the access log goes when the logger is a plain one of process/logger.ts: its destination, and the JSON of the
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

/** The access-log line pino writes for a record at level info (`base: undefined`, default time and message keys). */
export function accessLogLine(record: RequestRecord, now: number, bindings = ''): string {
  const path = loggedPath(record);
  const ms = loggedMs(record);
  return `{"level":30,"time":${now}${bindings},"method":${JSON.stringify(record.method)},"path":${JSON.stringify(path)},"status":${record.status},"bytesIn":${record.bytesIn},"bytesOut":${record.bytesOut},"ms":${ms}${record.aborted ? ',"aborted":true' : ''},"msg":"request"}\n`;
}

/**
 * Never bodies, headers, query strings or client addresses: the log must not hold what the plan or its viewer sent.
 * `destination`: given when `logger` is the server's plain one (process/logger.ts); the line written per request is
 * then built by accessLogLine instead of pino's general object walk (~3 µs of a small request;
 * test/request-observer.test.ts holds the two byte for byte). Any other logger gets logger.info.
 */
export function createHttpObserver(metrics: ServerMetrics, logger: Logger, destination?: AccessLogDestination): HttpObserver {
  const logging = logger.isLevelEnabled('info');
  const log =
    destination === undefined
      ? (r: RequestRecord) => logger.info(accessLogFields(r), 'request')
      : (r: RequestRecord) => destination.write(accessLogLine(r, Date.now(), destination.bindings));
  return {
    requestCompleted(r: RequestRecord): void {
      metrics.observeRequest(r.route, r.method, r.status, r.durationMs);
      if (logging) log(r);
    },
    recordEvent: (event) => metrics.recordEvent(event),
    recordRateLimitRefusal: (route, reason) => metrics.recordRateLimitRefusal(route, reason),
    recordSlowReaderClose: () => metrics.recordSlowReaderClose(),
  };
}

/** The fields of the access-log line, for pino. */
export function accessLogFields(r: RequestRecord): Record<string, unknown> {
  return {
    method: r.method,
    path: loggedPath(r),
    status: r.status,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    ms: loggedMs(r),
    aborted: r.aborted || undefined,
  };
}
