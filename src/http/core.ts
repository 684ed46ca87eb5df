// The runtime-neutral HTTP core: resolves a request once (route, origin), decides every refusal before the body, answers.
import { LIMITS } from '../limits/table.js';
import { headerNamesModernEra } from '../mcp/version.js';
import { joinText } from '../session/json-pieces.js';
import type { RequestBody } from './body.js';
import { BufferPool } from './buffer-pool.js';
import { rateLimitKey } from './client-ip.js';
import { HeaderSet, JSON_CONTENT_TYPE, JSON_HEADERS } from './headers.js';
import type { CorsGrant, OriginPolicy, OriginVerdict } from './origins.js';
import { ServerBusyError } from './ports.js';
import type { ClientPresence, HttpObserver, RateDecision, RateLimiter } from './ports.js';
import { familyRefusalBody, familyStatus, PLAIN_REFUSALS, plainRefusalBody } from './refusals.js';
import type { EndpointFamily, FamilyRefusal, PlainRefusal } from './refusals.js';
import { NOT_FOUND_ROUTE } from './routes.js';
import type { Route, RouteAnswer, RouteTable } from './routes.js';
import { headRefusal } from './head.js';
import { acceptsJson, isJsonContentType, isLoopbackHostHeader } from './rules.js';
import { TurnBatch } from './turn-batch.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { Reception } from './reception.js';
import type { ReceptionRefusal } from './reception.js';
import { AnswerBacklog } from './answer-backlog.js';

export interface HttpCoreDeps {
  routes: RouteTable;
  rateLimiter: RateLimiter;
  observer: HttpObserver;
  origins: OriginPolicy;
  /** DNS-rebinding guard: on when the server listens on a loopback address. */
  hostGuard: boolean;
  /** X-Forwarded-For hops to trust (0: the socket address is the client). */
  trustProxy: number;
  /** IPv6 clients are rate-limited per network of this prefix length (one /64 is usually one subscriber). */
  ipv6PrefixBits: number;
  maxBodyBytes: number;
  /** Buffers for large bodies (shared with whatever hands them on, e.g. offload threads); default: a pool of its own. */
  buffers?: BufferPool;
  /** Body bytes received at once, server-wide and per client (reception.ts); default: its own limits. */
  reception?: Reception;
  /** Answer bytes waiting for slow readers (answer-backlog.ts); default: its own limits. */
  backlog?: AnswerBacklog;
}

/** A request resolved once: its route and origin verdict travel with it to the answer and the metrics label. */
export interface Exchange {
  /** This process's number for the request (the access log and the log line of a failure under it carry it). */
  readonly id: number;
  readonly request: HttpRequest;
  readonly route: Route;
  readonly origin: OriginVerdict;
  /** The client's rate-limit key, set by head() for a POST ('' before): queues of heavy work take clients in turn by it. */
  client: string;
}

/** head() lets a POST through to its body. */
export const READ_BODY = 'read-body';
export type HeadDecision = HttpResponse | typeof READ_BODY;

export interface HttpCore {
  readonly maxBodyBytes: number;
  /** Where large bodies are assembled (request-cycle.ts). */
  readonly buffers: BufferPool;
  readonly observer: HttpObserver;
  /** Where requests with a complete body wait for their turn to be handled (turn-batch.ts). */
  readonly turns: TurnBatch;
  /** Body bytes being received now, capped server-wide and per client, and the uploads' minimum rate (reception.ts). */
  readonly reception: Reception;
  /** Answer bytes written but not yet taken by their readers, capped per connection and server-wide (answer-backlog.ts). */
  readonly backlog: AnswerBacklog;
  resolve(request: HttpRequest): Exchange;
  /** Every decision that needs no body: a final answer, or READ_BODY when the POST may go ahead. */
  head(exchange: Exchange): HeadDecision | Promise<HeadDecision>;
  /** Answers a POST that head() let through, with its complete body; `presence` says whether its client still waits. */
  handle(exchange: Exchange, body: RequestBody, presence: ClientPresence): Promise<HttpResponse>;
  /** 413 for a body that passed the cap while streaming. */
  bodyTooLarge(exchange: Exchange): HttpResponse;
  /** 429 with Retry-After for a body the server, or this client's share of it, has no room to receive now; counted. */
  receptionFull(exchange: Exchange, refusal: ReceptionRefusal): HttpResponse;
  /** 408 for a body that arrives slower than the minimum rate (reception.ts); counted. */
  uploadTooSlow(exchange: Exchange): HttpResponse;
  /** A plain refusal for requests the socket layer rejects before there is an exchange (431, 505, a bad request). */
  plainRefusal(refusal: PlainRefusal): HttpResponse;
  /** A last-resort catch under `exchange` caught `error`: reported (observer.onUnexpected), answered with the generic 500. */
  failed(exchange: Exchange, error: unknown): HttpResponse;
}

const DIGITS = /^\d+$/;

/** Family refusal bodies, built once: [refusal][family][modern ? 1 : 0]. */
const FAMILY_BODIES = new Map<string, string>();
function familyBody(refusal: FamilyRefusal, family: EndpointFamily, modern: boolean): string {
  const key = `${refusal} ${family} ${modern ? 1 : 0}`;
  let body = FAMILY_BODIES.get(key);
  if (body === undefined) FAMILY_BODIES.set(key, (body = familyRefusalBody(refusal, family, modern)));
  return body;
}

const PLAIN_BODIES = new Map<PlainRefusal, string>(Object.keys(PLAIN_REFUSALS).map((r) => [r as PlainRefusal, plainRefusalBody(r as PlainRefusal)]));

export function createHttpCore(deps: HttpCoreDeps): HttpCore {
  const { routes, rateLimiter, observer, origins, hostGuard, maxBodyBytes } = deps;
  const retryAfterHeaders = new Map<number, HeaderSet>();
  let lastId = 0;

  function report(exchange: Exchange, error: unknown): void {
    observer.onUnexpected(error, { route: exchange.route.label, requestId: exchange.id });
  }

  const grantOf = (exchange: Exchange): CorsGrant | undefined => (exchange.origin.kind === 'allowed' ? exchange.origin.grant : undefined);

  function answer(exchange: Exchange, routeAnswer: RouteAnswer): HttpResponse {
    const { body } = routeAnswer;
    // Pieces come from the endpoints of large requests, which an offload thread turns into bytes; here they are joined.
    return { status: routeAnswer.status, headers: routeAnswer.headers.for(grantOf(exchange)), body: body === null || body instanceof Uint8Array ? body : joinText(body), release: routeAnswer.release };
  }

  function plain(exchange: Exchange, refusal: PlainRefusal, close = false): HttpResponse {
    const row = PLAIN_REFUSALS[refusal];
    // 405 names what the path does allow.
    const headers = refusal === 'method-not-allowed' ? exchange.route.allowJsonHeaders : JSON_HEADERS;
    return { status: row.status, headers: headers.for(grantOf(exchange)), body: PLAIN_BODIES.get(refusal) ?? null, closeConnection: close };
  }

  function refuse(exchange: Exchange, refusal: FamilyRefusal, headers: HeaderSet = JSON_HEADERS, close = false): HttpResponse {
    const family = exchange.route.family;
    const version = family === 'mcp' ? exchange.request.headers['mcp-protocol-version']?.trim() : undefined;
    const modern = version !== undefined && headerNamesModernEra(version);
    return { status: familyStatus(refusal), headers: headers.for(grantOf(exchange)), body: familyBody(refusal, family, modern), closeConnection: close };
  }

  /** JSON headers with Retry-After, one set per value. */
  function retryAfter(seconds: number): HeaderSet {
    let headers = retryAfterHeaders.get(seconds);
    if (headers === undefined) retryAfterHeaders.set(seconds, (headers = new HeaderSet({ 'content-type': JSON_CONTENT_TYPE, 'retry-after': String(seconds) })));
    return headers;
  }

  function rateRefusal(exchange: Exchange, decision: Exclude<RateDecision, { kind: 'allowed' }>): HttpResponse {
    observer.recordRateLimitRefusal(exchange.route.label, decision.kind);
    if (decision.kind === 'unavailable') return refuse(exchange, 'store-unavailable');
    return refuse(exchange, 'rate-limited', retryAfter(decision.retryAfterS));
  }

  /** The synchronous checks, in order: the head, Host, Origin, route, method, media types, length (docs/http-api.md). */
  function check(exchange: Exchange): HttpResponse | undefined {
    const { request, route, origin } = exchange;
    const { headers, method } = request;
    const head = headRefusal(request);
    if (head !== undefined) return plain(exchange, head, true);
    // The one transfer coding a request may name is chunked, once: anything else frames the body in a way this server
    // (or a proxy in front of it) may read differently. node:http's parser refuses these itself; uWS 20.30 does not.
    const coding = headers['transfer-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked') return plain(exchange, 'bad-request', true);
    if (hostGuard && !isLoopbackHostHeader(headers['host'])) return refuse(exchange, 'host');
    if (origin.kind === 'forbidden') return refuse(exchange, 'origin');
    if (route === NOT_FOUND_ROUTE) return plain(exchange, 'not-found');
    if (method === 'OPTIONS') {
      const grant = grantOf(exchange);
      return { status: 204, headers: grant === undefined ? route.allowHeaders.base : preflightHeaders(route, grant), body: null };
    }
    if ((method === 'GET' || method === 'HEAD') && route.get !== undefined) return undefined;
    if (method !== 'POST' || route.post === undefined) return plain(exchange, 'method-not-allowed');
    if (!isJsonContentType(headers['content-type'])) return plain(exchange, 'unsupported-media-type');
    if (!acceptsJson(headers['accept'])) return plain(exchange, 'not-acceptable');
    const length = headers['content-length'];
    if (length !== undefined) {
      if (!DIGITS.test(length.trim())) return plain(exchange, 'bad-content-length', true);
      if (Number(length) > maxBodyBytes) return refuse(exchange, 'body-too-large');
    }
    return undefined;
  }

  return {
    maxBodyBytes,
    buffers: deps.buffers ?? new BufferPool(),
    observer,
    turns: new TurnBatch(),
    reception: deps.reception ?? new Reception(),
    backlog: deps.backlog ?? new AnswerBacklog(() => observer.recordSlowReaderClose()),
    resolve(request) {
      return { id: ++lastId, request, route: routes.find(request.path), origin: origins.verdict(request.method, request.headers['origin'], request.headers['host']), client: '' };
    },

    head(exchange) {
      const refusal = check(exchange);
      if (refusal !== undefined) return refusal;
      const { request, route } = exchange;
      if (request.method !== 'POST') {
        const got = route.get!(request.headers);
        return got instanceof Promise ? got.then((a) => answer(exchange, a)) : answer(exchange, got);
      }
      const key = rateLimitKey(request.socketAddress, request.headers['x-forwarded-for'], deps.trustProxy, deps.ipv6PrefixBits);
      exchange.client = key;
      const decision = rateLimiter.check(route.label, key);
      if (!(decision instanceof Promise)) return decision.kind === 'allowed' ? READ_BODY : rateRefusal(exchange, decision);
      return decision.then((d) => (d.kind === 'allowed' ? READ_BODY : rateRefusal(exchange, d)));
    },

    async handle(exchange, body, presence) {
      try {
        const routeAnswer = await exchange.route.post!(exchange.request.headers, body, presence);
        // The endpoints answer their own failures generically and hand the cause on, to be seen here.
        if (routeAnswer.unexpected !== undefined) report(exchange, routeAnswer.unexpected);
        return answer(exchange, routeAnswer);
      } catch (error) {
        if (!(error instanceof ServerBusyError)) throw error;
        const client = error.scope === 'client';
        observer.recordRateLimitRefusal(exchange.route.label, client ? 'busy_client' : 'busy');
        return refuse(exchange, client ? 'busy-client' : 'busy', retryAfter(error.retryAfterS));
      }
    },

    bodyTooLarge(exchange) {
      return refuse(exchange, 'body-too-large');
    },

    receptionFull(exchange, refusal) {
      const client = refusal === 'client';
      observer.recordRateLimitRefusal(exchange.route.label, client ? 'receiving_client' : 'receiving');
      // Server-wide, the connection closes instead of reading the refused body: under a flood of uploads, reading them
      // is the cost. One client past its share gets its answer read as usual: the rest of its body is read and dropped
      // (within the drain's bounds), so a client that sends several large bodies at once sees 429s, not resets.
      return refuse(exchange, client ? 'receiving-client' : 'busy', retryAfter(LIMITS.busyRetryAfter.value), !client);
    },

    uploadTooSlow(exchange) {
      observer.recordRateLimitRefusal(exchange.route.label, 'slow_upload');
      return plain(exchange, 'upload-too-slow', true);
    },

    failed(exchange, error) {
      report(exchange, error);
      return plain(exchange, 'internal');
    },

    plainRefusal(refusal) {
      // A method the parser does not know still gets the 405 of docs/http-api.md, naming what this server answers at all.
      const headers = refusal === 'method-not-allowed' ? ANY_METHOD_ALLOWED : JSON_HEADERS;
      return { status: PLAIN_REFUSALS[refusal].status, headers: headers.base, body: PLAIN_BODIES.get(refusal) ?? null, closeConnection: true };
    },
  };
}

const ANY_METHOD_ALLOWED = new HeaderSet({ 'content-type': JSON_CONTENT_TYPE, allow: 'GET, HEAD, POST, OPTIONS' });

const preflightSets = new WeakMap<Route, WeakMap<CorsGrant, HeaderSet>>();
/** The 204 of a preflight from an allowed origin: Allow plus the preflight CORS headers, built once per route and origin. */
function preflightHeaders(route: Route, grant: CorsGrant): HttpResponse['headers'] {
  let byGrant = preflightSets.get(route);
  if (byGrant === undefined) preflightSets.set(route, (byGrant = new WeakMap()));
  let set = byGrant.get(grant);
  if (set === undefined) byGrant.set(grant, (set = new HeaderSet({ allow: route.allow, ...grant.preflight })));
  return set.base;
}
