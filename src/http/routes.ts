// The route table: what each path answers to GET and POST, its Allow header, error family and metrics label.
import type { RequestBody } from './body.js';
import type { AnswerBody, ClientPresence, McpEndpoint, RouteLabel, StaticAssets, StaticResponse } from './ports.js';
import { asksForEventStream } from './rules.js';
import { plainRefusalBody } from './refusals.js';
import type { EndpointFamily } from './refusals.js';
import { EMPTY_HEADERS, HeaderSet, JSON_CONTENT_TYPE, JSON_HEADERS, mergeHeaders } from './headers.js';

/** What a route handler answers; the core adds the header set's CORS variant for the request's origin. */
export interface RouteAnswer {
  readonly status: number;
  readonly headers: HeaderSet;
  readonly body: AnswerBody;
  /** For bytes in a pooled buffer: called once they are written (the buffer goes back to its pool). */
  readonly release?: (() => void) | undefined;
  /** The failure behind a generic internal-error answer, reported by the core (http/ports.ts OnUnexpected). */
  readonly unexpected?: unknown;
}

/** What the REST routes call (endpoints/rest.ts implements them). */
export interface RestHandlers {
  /** `presence` lets a queue skip the work of a client that went away (offload/pool.ts); these handlers run at once. */
  create(body: RequestBody, presence?: ClientPresence): Promise<RouteAnswer>;
  decode(body: RequestBody, presence?: ClientPresence): Promise<RouteAnswer>;
}

export interface Route {
  readonly label: RouteLabel;
  readonly family: EndpointFamily;
  /** The Allow header: methods this path answers. */
  readonly allow: string;
  readonly get?: (headers: Readonly<Record<string, string>>) => RouteAnswer | Promise<RouteAnswer>;
  readonly post?: (headers: Readonly<Record<string, string>>, body: RequestBody, presence: ClientPresence) => Promise<RouteAnswer>;
  /** 405 and OPTIONS answers carry Allow: built once per route. */
  readonly allowHeaders: HeaderSet;
  readonly allowJsonHeaders: HeaderSet;
}

export interface RouteDeps {
  mcp: McpEndpoint;
  /** GET /mcp: the health JSON of this moment (it names the rate-limit store's state); one of a few kept texts. */
  healthJson: () => string;
  /** GET /readyz: false once the server drains before it stops (a load balancer then sends it nothing new). */
  ready: () => boolean;
  rest: RestHandlers;
  /** GET /schema/session.json, serialised once. */
  schemaJson: string;
  iconPng: Uint8Array;
  staticAssets?: StaticAssets | undefined;
}

const JSON_TYPE = { 'content-type': JSON_CONTENT_TYPE };
const PNG_SET = new HeaderSet({ 'content-type': 'image/png' });

function route(label: RouteLabel, family: EndpointFamily, allow: string, handlers: Pick<Route, 'get' | 'post'>): Route {
  return { label, family, allow, ...handlers, allowHeaders: new HeaderSet({ allow }), allowJsonHeaders: new HeaderSet(mergeHeaders(JSON_TYPE, { allow })) };
}

export const NOT_FOUND_ROUTE: Route = route('not_found', 'plain', '', {});

/** Looks a path up once per request: fixed routes first, then the viewer's files (exact names, no traversal). */
export interface RouteTable {
  find(path: string): Route;
}

export function createRouteTable(deps: RouteDeps): RouteTable {
  const json = (body: string): RouteAnswer => ({ status: 200, headers: JSON_HEADERS, body });
  // The answer object is kept per text: a health check allocates nothing while the state stays the same.
  let healthText = '';
  let healthAnswer = json(healthText);
  const health = (): RouteAnswer => {
    const text = deps.healthJson();
    if (text !== healthText) healthAnswer = json((healthText = text));
    return healthAnswer;
  };
  // 405 with `Allow: POST`: streams are never offered, so the only way to talk to /mcp is to POST.
  const sseRefused: RouteAnswer = { status: 405, headers: new HeaderSet(mergeHeaders(JSON_TYPE, { allow: 'POST' })), body: plainRefusalBody('method-not-allowed') };
  const mcp = route('mcp', 'mcp', 'GET, HEAD, POST, OPTIONS', {
    // This server never opens an SSE stream: a GET asking for one is refused, any other GET is the health check.
    get: (headers) => (asksForEventStream(headers['accept']) ? sseRefused : health()),
    post: async (headers, body, presence) => {
      const answer = await deps.mcp({ headers, body }, presence);
      return answer.body === null
        ? { status: answer.status, headers: EMPTY_HEADERS, body: null, release: answer.release, unexpected: answer.unexpected }
        : { status: answer.status, headers: JSON_HEADERS, body: answer.body, release: answer.release, unexpected: answer.unexpected };
    },
  });
  // Probes for load balancers and orchestrators: the process answers at all, and it wants new requests. The shared
  // rate-limit store does not change either: every instance shares it, so it would take them all out at once.
  const alive = json('{"status":"alive"}');
  const ready = json('{"status":"ready"}');
  const draining: RouteAnswer = { status: 503, headers: JSON_HEADERS, body: '{"status":"draining"}' };
  const schema = json(deps.schemaJson);
  const icon: RouteAnswer = { status: 200, headers: PNG_SET, body: deps.iconPng };
  const routes = new Map<string, Route>([
    ['/mcp', mcp],
    ['/mcp/', mcp],
    ['/api/session-links', route('rest_create', 'rest', 'POST, OPTIONS', { post: async (_h, body, presence) => deps.rest.create(body, presence) })],
    ['/api/session-links/decode', route('rest_decode', 'rest', 'POST, OPTIONS', { post: async (_h, body, presence) => deps.rest.decode(body, presence) })],
    ['/livez', route('livez', 'plain', 'GET, HEAD, OPTIONS', { get: () => alive })],
    ['/readyz', route('readyz', 'plain', 'GET, HEAD, OPTIONS', { get: () => (deps.ready() ? ready : draining) })],
    ['/schema/session.json', route('schema', 'plain', 'GET, HEAD, OPTIONS', { get: () => schema })],
    ['/icon.png', route('icon', 'plain', 'GET, HEAD, OPTIONS', { get: () => icon })],
    // Browsers ask for it on every page without a declared icon; the PNG serves as one.
    ['/favicon.ico', route('icon', 'plain', 'GET, HEAD, OPTIONS', { get: () => icon })],
  ]);

  // One route per viewer file, made the first time the file is asked for (the set of files is fixed at start-up).
  const files = new Map<string, Route>();
  const fileRoute = (file: StaticResponse): Route => {
    const answer: RouteAnswer = { status: file.status, headers: new HeaderSet(file.headers), body: file.body };
    return route('static', 'plain', 'GET, HEAD, OPTIONS', { get: () => answer });
  };

  return {
    find(path) {
      const fixed = routes.get(path);
      if (fixed !== undefined) return fixed;
      let file = files.get(path);
      if (file !== undefined) return file;
      const asset = deps.staticAssets?.lookup(path);
      if (asset === undefined) return NOT_FOUND_ROUTE;
      files.set(path, (file = fileRoute(asset)));
      return file;
    },
  };
}
