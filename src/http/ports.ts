// What the HTTP core needs from the outside, in one place: the MCP and REST handlers, rate limiter, metrics, static files.
import type { JsonText } from '../session/json-pieces.js';
import type { JsonSource } from '../session/operations.js';
import type { RequestBody } from './body.js';

/** What an answer carries: text (one string or pieces), bytes, or nothing. */
export type AnswerBody = JsonText | Uint8Array | null;

/** Fixed route labels (metrics, logs), so label cardinality never depends on client input. */
export type RouteLabel = 'mcp' | 'rest_create' | 'rest_decode' | 'livez' | 'readyz' | 'schema' | 'icon' | 'static' | 'not_found';

export type RateDecision =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'limited'; readonly retryAfterS: number }
  | { readonly kind: 'unavailable' };

export interface RateLimiter {
  /**
   * Counts one POST to `endpoint` from the client `key`. Never rejects: a failing store yields 'unavailable'. An
   * in-process store answers synchronously (no promise on the hot path).
   */
  check(endpoint: string, key: string): RateDecision | Promise<RateDecision>;
}

/** The analytics the REST layer reports (the MCP layer reports through its own observer). */
export type AnalyticsEndpoint = 'mcp' | 'rest';
export type AnalyticsOperation = 'create' | 'decode';
/** For REST: 422 counts as tool_error, a 400 body-shape failure as protocol_error. */
export type AnalyticsOutcome = 'success' | 'tool_error' | 'protocol_error' | 'internal_error';

export interface AnalyticsEvent {
  endpoint: AnalyticsEndpoint;
  operation: AnalyticsOperation;
  outcome: AnalyticsOutcome;
  durationMs: number;
}

/** What the access log and the request metrics get for every request (never bodies, never addresses). */
export interface RequestRecord {
  /** This process's number for the request, also in the log line of a failure under it. */
  requestId: number;
  method: string;
  path: string;
  route: RouteLabel;
  /** 0 when the client went away before an answer. */
  status: number;
  bytesIn: number;
  bytesOut: number;
  durationMs: number;
  aborted: boolean;
}

/**
 * Why a POST was refused before it ran: `limited` (its client's rate limit), `unavailable` (the rate-limit store),
 * `busy` (heavy work from all clients fills the offload queue), `busy_client` (this client has as much heavy work
 * waiting as any client may), `receiving` and `receiving_client` (the server, or this client's share of it, is receiving
 * as many body bytes as it takes at once), `slow_upload` (a body arrived slower than the minimum rate: 408).
 */
export type RefusalReason = 'limited' | 'unavailable' | 'busy' | 'busy_client' | 'receiving' | 'receiving_client' | 'slow_upload';

/** Where a failure no rule covers happened: the request's route and its number (the access log line has it too). */
export interface FailureContext {
  readonly route: RouteLabel | 'stdio';
  readonly requestId: number;
}

/**
 * The one port every last-resort catch reports to, with the request's context: the log gets a line with the error's
 * stack, the metrics a count; the client only ever sees the generic answer.
 */
export type OnUnexpected = (error: unknown, context: FailureContext) => void;

/** The metrics and log side of the core: one call per finished request, event, refusal, and failure. */
export interface HttpObserver {
  requestCompleted(record: RequestRecord): void;
  /** One create/decode event: endpoint, operation, outcome and duration only — never input, link or referrer. */
  recordEvent(event: AnalyticsEvent): void;
  recordRateLimitRefusal(route: RouteLabel, reason: RefusalReason): void;
  /** A connection was closed because its reader left too many answer bytes waiting (answer-backlog.ts). */
  recordSlowReaderClose(): void;
  /** A connection could not be accepted (`code`: EMFILE, ENFILE…); the listener goes on. */
  recordAcceptError(code: string): void;
  readonly onUnexpected: OnUnexpected;
}

/** The metrics listener's page: Prometheus text and its content type (may reject: workers that did not answer). */
export type RenderMetrics = () => Promise<{ contentType: string; body: string }>;

/** One ready answer of a static file: status, headers (they override the defaults), bytes. */
export interface StaticResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface StaticAssets {
  /** The answer for a GET/HEAD of this path, or undefined when the path is not a viewer file. */
  lookup(path: string): StaticResponse | undefined;
}

/**
 * Whether the client of a request is still there (work still queued for a client that went away is skipped), and who it
 * is: its rate-limit key, by which queues of heavy work take clients in turn.
 */
export interface ClientPresence {
  readonly departed: boolean;
  readonly client: string;
}

/**
 * Thrown by an endpoint that cannot take more work now; the core answers 429 with Retry-After (docs/http-api.md).
 * `scope`: the whole server is busy, or this client already has as much work waiting as any client may.
 */
export class ServerBusyError extends Error {
  constructor(
    readonly retryAfterS: number,
    readonly scope: 'server' | 'client' = 'server',
  ) {
    super(scope === 'server' ? 'server busy' : 'client has too much work waiting');
  }
}

/** A POST as an endpoint sees it: its headers and its body (text on demand, or its bytes to hand to a thread). */
export interface EndpointRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: RequestBody;
}

/**
 * An endpoint's answer: status and body. Bytes in a pooled buffer come with `release`, called once they are written;
 * JSON text in pieces (json-pieces.ts) comes from endpoints made for large requests. A generic internal-error answer
 * carries the failure behind it in `unexpected`, for the core to report (never for the client).
 */
export interface EndpointAnswer {
  readonly status: number;
  readonly body: AnswerBody;
  readonly release?: (() => void) | undefined;
  readonly unexpected?: unknown;
}

/** The MCP protocol layer behind POST /mcp: status and JSON-RPC body out. */
export type McpEndpoint = (request: EndpointRequest, presence?: ClientPresence) => Promise<EndpointAnswer>;

/** The part of the session operations the REST layer calls (structurally the session layer's SessionOperations). */
export interface RestOperations {
  /** `source`: where the session is in the body's JSON text (the session layer may compress that text as it is). */
  createSessionLink(session: unknown, options?: { source?: JsonSource }): Promise<unknown> | unknown;
  decodeSessionLink(link: unknown): Promise<unknown> | unknown;
}
