// Routes and the order of HTTP checks: head() decides every refusal before the body is read, handle() answers with it.
import type { McpHttpRequest, McpHttpResponse } from '../mcp/types.js';
import { rpcError } from '../mcp/errors.js';
import {
  JSON_CONTENT_TYPE,
  SECURITY_HEADERS,
  acceptsJson,
  asksForEventStream,
  checkOrigin,
  corsHeaders,
  isJsonContentType,
  isLoopbackHostHeader,
  jsonResponse,
  preflightHeaders,
} from './http-rules.js';
import type { OriginPolicy } from './http-rules.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import type { RouteLabel, ServerMetrics } from './metrics.js';
import type { RateLimiter } from './rate-limit.js';
import { methodNotAllowed, notAcceptable, notFound, refuse, unsupportedMediaType } from './refusals.js';
import type { EndpointFamily } from './refusals.js';
import type { RestHandlers } from './rest.js';
import type { StaticAssets } from './static.js';

export interface RouterDeps {
  mcp: (request: McpHttpRequest) => Promise<McpHttpResponse>;
  mcpHealth: () => unknown;
  rest: RestHandlers;
  /** GET /schema/session.json, serialised once. */
  schemaJson: string;
  iconPng: Uint8Array;
  metrics: ServerMetrics;
  rateLimiter: RateLimiter;
  originPolicy: OriginPolicy;
  /** DNS-rebinding guard: on when the server listens on a loopback address. */
  hostGuard: boolean;
  maxBodyBytes: number;
  /** The viewer's files (src/transport/static.ts): GET / and /assets/*; absent → 404. */
  staticAssets?: StaticAssets | undefined;
}

interface Route {
  readonly label: RouteLabel;
  readonly family: EndpointFamily;
  /** The Allow header: methods this path answers. */
  readonly allow: string;
  readonly post?: (request: HttpRequest, body: string) => Promise<HttpResponse>;
  readonly get?: (request: HttpRequest) => Promise<HttpResponse> | HttpResponse;
}

export interface Router {
  /** Every decision that needs no body: a final response, or 'read-body' when the POST may go ahead. */
  head(request: HttpRequest): Promise<HttpResponse | 'read-body'>;
  /** Answers a POST that head() let through, with its complete body. */
  handle(request: HttpRequest, body: string): Promise<HttpResponse>;
  /** 413 for a body that passed the cap while streaming. */
  bodyTooLarge(request: HttpRequest): HttpResponse;
  /** Metrics label of the route a path belongs to. */
  routeLabel(path: string): RouteLabel;
}

const NOT_FOUND_ROUTE: Route = { label: 'not_found', family: 'plain', allow: '' };

export function createRouter(deps: RouterDeps): Router {
  const mcpRoute: Route = {
    label: 'mcp',
    family: 'mcp',
    allow: 'GET, HEAD, POST, OPTIONS',
    get: (request) =>
      asksForEventStream(request.headers['accept'])
        ? methodNotAllowed('POST') // this server never opens an SSE stream
        : jsonResponse(200, deps.mcpHealth()),
    post: async (request, body): Promise<HttpResponse> => {
      let answer: McpHttpResponse;
      try {
        answer = await deps.mcp({ headers: request.headers, body });
      } catch {
        answer = rpcError('internalError', null); // the MCP layer answers its own failures; this is the last guard
      }
      if (answer.body === null) return { status: answer.status, headers: {}, body: null };
      return { status: answer.status, headers: { 'Content-Type': JSON_CONTENT_TYPE }, body: answer.body };
    },
  };
  const routes = new Map<string, Route>([
    ['/mcp', mcpRoute],
    ['/mcp/', mcpRoute],
    ['/api/session-links', { label: 'rest_create', family: 'rest', allow: 'POST, OPTIONS', post: (_r, body) => deps.rest.create(body) }],
    ['/api/session-links/decode', { label: 'rest_decode', family: 'rest', allow: 'POST, OPTIONS', post: (_r, body) => deps.rest.decode(body) }],
    ['/schema/session.json', { label: 'schema', family: 'plain', allow: 'GET, HEAD, OPTIONS', get: () => ({ status: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE }, body: deps.schemaJson }) }],
    ['/icon.png', { label: 'icon', family: 'plain', allow: 'GET, HEAD, OPTIONS', get: () => ({ status: 200, headers: { 'Content-Type': 'image/png' }, body: deps.iconPng }) }],
    ['/metrics', { label: 'metrics', family: 'plain', allow: 'GET, HEAD, OPTIONS', get: async () => {
      try {
        const { contentType, body } = await deps.metrics.render();
        return { status: 200, headers: { 'Content-Type': contentType }, body };
      } catch {
        // With workers the registries are collected over message ports; a busy worker is a temporary state, not a server fault.
        return jsonResponse(503, { error: 'Metrics are temporarily unavailable' });
      }
    } }],
  ]);

  function findRoute(path: string): Route {
    const route = routes.get(path);
    if (route !== undefined) return route;
    const file = deps.staticAssets?.lookup(path);
    if (file === undefined) return NOT_FOUND_ROUTE;
    return { label: 'static', family: 'plain', allow: 'GET, HEAD, OPTIONS', get: () => ({ status: file.status, headers: file.headers, body: file.body }) };
  }

  /**
   * Security headers first, CORS for an allowed origin, then the route's own (static files may set their caching),
   * merged case-insensitively so no header is ever sent twice; names go out lower-case.
   */
  function finish(request: HttpRequest, response: HttpResponse): HttpResponse {
    const origin = request.headers['origin'];
    const cors = origin !== undefined && checkOrigin(request.method, request.headers, deps.originPolicy) === 'allowed' ? corsHeaders(origin.trim()) : undefined;
    const merged: Record<string, string> = {};
    for (const layer of [SECURITY_HEADERS, cors, response.headers]) {
      if (layer !== undefined) for (const name in layer) merged[name.toLowerCase()] = layer[name] as string;
    }
    response.headers = merged;
    return response;
  }

  /** The synchronous checks, in the order of research/mcp-spec.md §1.8: Host, Origin, method, media types, length. */
  function check(request: HttpRequest, route: Route): HttpResponse | undefined {
    const { headers, method } = request;
    if (deps.hostGuard && !isLoopbackHostHeader(headers['host'])) return refuse('host', route.family, headers);
    const origin = checkOrigin(method, headers, deps.originPolicy);
    if (origin === 'forbidden') return refuse('origin', route.family, headers);
    if (route === NOT_FOUND_ROUTE) return notFound();
    if (method === 'OPTIONS') {
      const cors = origin === 'allowed' ? preflightHeaders((headers['origin'] ?? '').trim()) : {};
      return { status: 204, headers: { Allow: route.allow, ...cors }, body: null };
    }
    if ((method === 'GET' || method === 'HEAD') && route.get !== undefined) return undefined; // HEAD = GET without body (uws.ts)
    if (method !== 'POST' || route.post === undefined) return methodNotAllowed(route.allow);
    if (!isJsonContentType(headers['content-type'])) return unsupportedMediaType();
    if (!acceptsJson(headers['accept'])) return notAcceptable();
    const length = headers['content-length'];
    if (length !== undefined) {
      if (!/^\d+$/.test(length.trim())) return { ...jsonResponse(400, { error: 'Invalid Content-Length' }), closeConnection: true };
      if (Number(length) > deps.maxBodyBytes) return { ...refuse('body-too-large', route.family, headers), closeConnection: true };
    }
    return undefined;
  }

  return {
    async head(request) {
      const route = findRoute(request.path);
      const refusal = check(request, route);
      if (refusal !== undefined) return finish(request, refusal);
      if ((request.method === 'GET' || request.method === 'HEAD') && route.get !== undefined) return finish(request, await route.get(request));
      const decision = await deps.rateLimiter.check(route.label, request.remoteIp);
      if (decision.kind === 'allowed') return 'read-body';
      deps.metrics.recordRateLimitRefusal(route.label, decision.kind);
      if (decision.kind === 'limited') {
        const limited = refuse('rate-limited', route.family, request.headers);
        limited.headers['Retry-After'] = String(decision.retryAfterS);
        return finish(request, limited);
      }
      return finish(request, refuse('store-unavailable', route.family, request.headers));
    },

    async handle(request, body) {
      const route = findRoute(request.path);
      if (route.post === undefined) return finish(request, methodNotAllowed(route.allow)); // head() never lets this through
      return finish(request, await route.post(request, body));
    },

    bodyTooLarge(request) {
      const route = findRoute(request.path);
      return finish(request, { ...refuse('body-too-large', route.family, request.headers), closeConnection: true });
    },

    routeLabel(path) {
      return routes.get(path)?.label ?? (deps.staticAssets?.lookup(path) !== undefined ? 'static' : 'not_found');
    },
  };
}
