// Failures the server survives, made visible: an unexpected error under a request, and a connection it could not accept.
import type { Logger } from 'pino';
import type { FailureContext, OnUnexpected } from '../http/ports.js';
import { oncePerInterval } from '../logging/throttle.js';
import type { ServerMetrics } from './metrics.js';

/** An accept error of one kind is logged at most once per this long (a full descriptor table fails every accept). */
export const ACCEPT_ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * The OnUnexpected port: one error line per failure, with the error's stack (causes included, as pino writes them),
 * its route and the request's number, and a count per route when `metrics` is given.
 */
export function unexpectedReporter(logger: Logger, metrics?: Pick<ServerMetrics, 'recordUnexpected'>): OnUnexpected {
  return (error: unknown, context: FailureContext) => {
    metrics?.recordUnexpected(context.route);
    logger.error({ err: error, route: context.route, requestId: context.requestId }, 'unexpected failure; the client got the generic error answer');
  };
}

/** Counts every failed accept by its code, and logs each code at most once per ACCEPT_ERROR_LOG_INTERVAL_MS. */
export function acceptErrorReporter(logger: Logger, metrics: Pick<ServerMetrics, 'recordAcceptError'>): (code: string) => void {
  const mayLog = oncePerInterval(ACCEPT_ERROR_LOG_INTERVAL_MS);
  return (code) => {
    metrics.recordAcceptError(code);
    if (mayLog(code)) logger.warn({ code }, `a connection could not be accepted (${code}); serving on, further ${code} failures are counted in sessionplan_accept_errors_total`);
  };
}
