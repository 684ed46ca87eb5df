// Prometheus metrics: request counters and latencies per route, and one analytics event per create/decode (no payloads).
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { AnalyticsEvent, RefusalReason, RouteLabel } from '../http/ports.js';
import type { RateLimitStoreHealth } from '../rate-limit/store.js';
import { DurationHistogram, type BoundDuration } from './duration-histogram.js';

export interface ServerMetrics {
  readonly registry: Registry;
  observeRequest(route: RouteLabel, method: string, status: number, durationMs: number): void;
  /** One create/decode event: endpoint, operation, outcome and duration only — never input, link or referrer. */
  recordEvent(event: AnalyticsEvent): void;
  recordRateLimitRefusal(route: RouteLabel, reason: RefusalReason): void;
  /** The gauge sessionplan_rate_limit_store_up reads the store's state from `read` at every scrape. */
  watchRateLimitStore(read: () => RateLimitStoreHealth): void;
  /** A connection closed because its reader left too many answer bytes waiting (http/answer-backlog.ts). */
  recordSlowReaderClose(): void;
  /** A POST counted in this process's memory because the shared store could not count (RATE_LIMIT_STORE_FAILURE=local). */
  recordLocalRateLimit(route: string): void;
  /** A connection the listener could not accept, by its error code. */
  recordAcceptError(code: string): void;
  /** A failure no rule covers, answered with the generic error (metrics/failures.ts logs it). */
  recordUnexpected(route: string): void;
  /** The counter sessionplan_log_lines_dropped_total reads the logger's count from `read` at every scrape. */
  watchDroppedLogLines(read: () => number): void;
  /** Prometheus text exposition and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Accept errors counted by their own code; any other is 'other' (a fixed label space). */
const ACCEPT_ERROR_CODES = new Set(['EMFILE', 'ENFILE', 'ENOBUFS', 'ENOMEM', 'ECONNABORTED']);
/** Methods outside this set are counted as 'OTHER' (the method string comes from the client). */
const KNOWN_METHODS = new Set(['GET', 'POST', 'OPTIONS', 'HEAD', 'PUT', 'DELETE', 'PATCH']);

/** A histogram's series bound per label set once (fixed label space), found by a key cheaper than its labels. */
class BoundSeries {
  private readonly children = new Map<string, BoundDuration>();
  constructor(private readonly histogram: DurationHistogram) {}

  /** The series bound to the label set named by `key`, or undefined the first time (then call bind). */
  get(key: string): BoundDuration | undefined {
    return this.children.get(key);
  }

  bind(key: string, labels: Readonly<Record<string, string>>): BoundDuration {
    const child = this.histogram.bind(labels);
    this.children.set(key, child);
    return child;
  }
}

/** A registry per server instance, so several servers in one process (tests) never share counters. */
export function createMetrics(options: { defaultMetrics?: boolean } = {}): ServerMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'sessionplan_' });

  // Each counter is the count of the histogram beside it: every request and event is one observation.
  const latency = new DurationHistogram(
    'sessionplan_http_request_duration_seconds',
    'Time from the first request byte seen by the handler to the answer, by route, method and status.',
    LATENCY_BUCKETS_S,
    [registry],
    { name: 'sessionplan_http_requests_total', help: 'HTTP requests answered, by route, method and status.' },
  );
  const eventLatency = new DurationHistogram(
    'sessionplan_session_link_duration_seconds',
    'Duration of create/decode operations, by endpoint, operation and outcome.',
    LATENCY_BUCKETS_S,
    [registry],
    { name: 'sessionplan_session_link_events_total', help: 'Create/decode operations, by endpoint (mcp|rest), operation and outcome.' },
  );
  const refusals = new Counter({
    name: 'sessionplan_rate_limit_refusals_total',
    help: 'POSTs refused before they ran: limited (429), store unavailable (503), busy, busy_client, receiving or receiving_client (429: heavy work or body bytes past the server\'s or the client\'s caps), slow_upload (408: a body below the minimum rate).',
    labelNames: ['route', 'reason'] as const,
    registers: [registry],
  });

  let storeHealth: (() => RateLimitStoreHealth) | undefined;
  new Gauge({
    name: 'sessionplan_rate_limit_store_up',
    help: 'Whether the rate-limit store can count (1) or not (0, POSTs are answered 503), by store (memory|redis).',
    labelNames: ['store'] as const,
    registers: [registry],
    // WORKERS>1: each worker has its own connection to the store; the process is up only when all of them are.
    aggregator: 'min',
    collect() {
      if (storeHealth === undefined) return;
      const { kind, state } = storeHealth();
      this.reset(); // one series, for the store in use
      this.set({ store: kind }, state === 'up' ? 1 : 0);
    },
  });

  const slowReaders = new Counter({
    name: 'sessionplan_slow_reader_closes_total',
    help: 'Connections closed because their reader left more answer bytes waiting than a connection or the server may hold.',
    registers: [registry],
  });

  const acceptErrors = new Counter({
    name: 'sessionplan_accept_errors_total',
    help: 'Connections the listener could not accept, by error code (EMFILE, ENFILE: no file descriptor left); the server serves on.',
    labelNames: ['code'] as const,
    registers: [registry],
  });

  const unexpected = new Counter({
    name: 'sessionplan_unexpected_errors_total',
    help: 'Failures no rule covers, answered with the generic error and logged with their stack, by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });

  const localCounts = new Counter({
    name: 'sessionplan_rate_limit_local_total',
    help: 'POSTs counted in this process\'s memory because the shared rate-limit store could not count (RATE_LIMIT_STORE_FAILURE=local), by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });

  let droppedLogLines: (() => number) | undefined;
  new Counter({
    name: 'sessionplan_log_lines_dropped_total',
    help: 'Log lines dropped because the log destination (stdout) was full, stalled or failing.',
    registers: [registry],
    collect() {
      if (droppedLogLines === undefined) return;
      this.reset();
      this.inc(droppedLogLines());
    },
  });

  const requestSeries = new BoundSeries(latency);
  const eventSeries = new BoundSeries(eventLatency);

  return {
    registry,
    observeRequest(route, method, status, durationMs) {
      const m = KNOWN_METHODS.has(method) ? method : 'OTHER';
      const key = `${route} ${m} ${status}`;
      (requestSeries.get(key) ?? requestSeries.bind(key, { route, method: m, status: String(status) })).observe(durationMs / 1000);
    },
    recordEvent({ endpoint, operation, outcome, durationMs }) {
      const key = `${endpoint} ${operation} ${outcome}`;
      (eventSeries.get(key) ?? eventSeries.bind(key, { endpoint, operation, outcome })).observe(durationMs / 1000);
    },
    recordRateLimitRefusal(route, reason) {
      refusals.inc({ route, reason });
    },
    watchRateLimitStore(read) {
      storeHealth = read;
    },
    recordSlowReaderClose() {
      slowReaders.inc();
    },
    recordLocalRateLimit(route) {
      localCounts.inc({ route });
    },
    recordAcceptError(code) {
      acceptErrors.inc({ code: ACCEPT_ERROR_CODES.has(code) ? code : 'other' });
    },
    recordUnexpected(route) {
      unexpected.inc({ route });
    },
    watchDroppedLogLines(read) {
      droppedLogLines = read;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
