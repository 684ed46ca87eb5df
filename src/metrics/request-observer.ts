// The HTTP core's observer: request metrics plus one access-log line per request (method, path, status, sizes, time).
import type { Logger } from 'pino';
import type { HttpObserver, RequestRecord } from '../http/ports.js';
import type { ServerMetrics } from './metrics.js';

/** Longest path written to the access log; longer ones are cut (the path comes from the client). */
const MAX_LOGGED_PATH = 200;

/** Never bodies, headers, query strings or client addresses: the log must not hold what the plan or its viewer sent. */
export function createHttpObserver(metrics: ServerMetrics, logger: Logger): HttpObserver {
  const logging = logger.isLevelEnabled('info');
  return {
    requestCompleted(r: RequestRecord): void {
      metrics.observeRequest(r.route, r.method, r.status, r.durationMs);
      if (!logging) return;
      logger.info(
        {
          method: r.method,
          path: r.path.length > MAX_LOGGED_PATH ? `${r.path.slice(0, MAX_LOGGED_PATH)}…` : r.path,
          status: r.status,
          bytesIn: r.bytesIn,
          bytesOut: r.bytesOut,
          ms: Math.round(r.durationMs * 100) / 100,
          aborted: r.aborted || undefined,
        },
        'request',
      );
    },
    recordEvent: (event) => metrics.recordEvent(event),
    recordRateLimitRefusal: (route, reason) => metrics.recordRateLimitRefusal(route, reason),
  };
}
