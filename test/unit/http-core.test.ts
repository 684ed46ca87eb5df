// The HTTP core without sockets: order of checks, refusals decided before any body is read, header sets, static hook.
import { beforeEach, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { createMcpHandler, mcpHealth } from '../../src/mcp/handler.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { textBody } from '../../src/http/body.js';
import { createHttpCore, READ_BODY } from '../../src/http/core.js';
import type { HttpCore } from '../../src/http/core.js';
import { createOriginPolicy } from '../../src/http/origins.js';
import type { StaticAssets } from '../../src/http/ports.js';
import { createRestHandlers } from '../../src/endpoints/rest.js';
import { createRouteTable } from '../../src/http/routes.js';
import type { HttpRequest, HttpResponse } from '../../src/http/types.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { createHttpObserver } from '../../src/metrics/request-observer.js';
import { createRateLimiter } from '../../src/rate-limit/limiter.js';
import { MemoryRateLimitStore } from '../../src/rate-limit/memory.js';
import { pino } from 'pino';

const identity = { name: 'sessionplan-mcp', title: 'Sessionplan', version: '0.0.0-test', iconUrl: 'https://sessionplan.de/icon.png' };

/** Files a viewer module could serve; a real implementation of the lookup interface over a fixed table. */
const viewer: StaticAssets = {
  lookup: (path) =>
    path === '/'
      ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: new TextEncoder().encode('<!doctype html>') }
      : undefined,
};

function makeCore(overrides: { limit?: number; hostGuard?: boolean } = {}): HttpCore {
  const operations = createSessionOperations(loadCodec);
  const metrics = createMetrics({ defaultMetrics: false });
  const observer = createHttpObserver(metrics, pino({ level: 'silent' }));
  const handleMcp = createMcpHandler({ operations, identity });
  const routes = createRouteTable({
    mcp: (request) => handleMcp({ headers: request.headers, body: request.body.text() }),
    healthJson: () => JSON.stringify(mcpHealth(identity)),
    ready: () => true,
    rest: createRestHandlers(operations, observer),
    schemaJson: '{}',
    iconPng: new Uint8Array([1, 2, 3]),
    staticAssets: viewer,
  });
  return createHttpCore({
    routes,
    rateLimiter: createRateLimiter(new MemoryRateLimitStore(), { limit: overrides.limit ?? 60, windowS: 60 }),
    observer,
    origins: createOriginPolicy({ allowed: ['https://sessionplan.de'], development: false }),
    hostGuard: overrides.hostGuard ?? true,
    trustProxy: 0,
    ipv6PrefixBits: 64,
    maxBodyBytes: 2_000_000,
  });
}

function req(method: string, path: string, headers: Record<string, string> = {}): HttpRequest {
  return { method, path, headers: { host: '127.0.0.1:8080', ...headers }, socketAddress: '192.0.2.1', httpVersion: '1.1', headerLines: 1 + Object.keys(headers).length };
}

const JSON_POST = { 'content-type': 'application/json' };

async function head(core: HttpCore, request: HttpRequest) {
  return core.head(core.resolve(request));
}

async function refused(core: HttpCore, request: HttpRequest): Promise<HttpResponse> {
  const decision = await head(core, request);
  if (decision === READ_BODY) throw new Error(`${request.method} ${request.path} was let through to the body`);
  return decision;
}

describe('core.head: every refusal before the body', () => {
  let router: HttpCore;
  beforeEach(() => {
    router = makeCore();
  });

  it('checks Host, then Origin, then method, then media type, then length', async () => {
    const evil = { host: 'evil.example', origin: 'https://evil.example' };
    expect((await refused(router, req('PUT', '/mcp', evil))).status).toBe(403);
    expect(JSON.parse((await refused(router, req('PUT', '/mcp', { ...evil, host: 'localhost' }))).body as string).error.message).toBe('Origin not allowed');
    expect((await refused(router, req('PUT', '/mcp', { 'content-type': 'text/plain' }))).status).toBe(405);
    expect((await refused(router, req('POST', '/mcp', { 'content-type': 'text/plain', 'content-length': '9999999' }))).status).toBe(415);
    // 413 from the declared length alone; how the connection ends (drain, then close) is the request cycle's business.
    const tooLarge = await refused(router, req('POST', '/mcp', { ...JSON_POST, 'content-length': '2000001' }));
    expect(tooLarge.status).toBe(413);
    expect(await head(router, req('POST', '/mcp', { ...JSON_POST, 'content-length': '2000000' }))).toBe(READ_BODY);
  });

  it('decides the rate limit before the body and only for POSTs that pass the other checks', async () => {
    const limited = makeCore({ limit: 1 });
    expect((await refused(limited, req('POST', '/mcp', { 'content-type': 'text/plain' }))).status).toBe(415);
    expect(await head(limited, req('POST', '/mcp', JSON_POST))).toBe(READ_BODY);
    const second = await refused(limited, req('POST', '/mcp', JSON_POST));
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('60');
    expect(await head(limited, req('POST', '/api/session-links', JSON_POST))).toBe(READ_BODY);
  });

  it('answers GETs, OPTIONS and 404s itself', async () => {
    expect(JSON.parse((await refused(router, req('GET', '/mcp'))).body as string).status).toBe('ok');
    const preflight = await refused(router, req('OPTIONS', '/api/session-links', { origin: 'https://sessionplan.de' }));
    expect(preflight.status).toBe(204);
    expect(preflight.body).toBeNull();
    expect(preflight.headers['access-control-allow-origin']).toBe('https://sessionplan.de');
    expect((await refused(router, req('GET', '/elsewhere'))).status).toBe(404);
    expect((await refused(router, req('OPTIONS', '/elsewhere'))).status).toBe(404);
  });

  it('skips the Host guard when not listening on loopback', async () => {
    const open = makeCore({ hostGuard: false });
    expect((await refused(open, req('GET', '/mcp', { host: 'sessionplan.de' }))).status).toBe(200);
  });
});

describe('core.handle and headers', () => {
  it('answers a POST with the MCP layer and the security headers, lower-case and never twice', async () => {
    const core = makeCore();
    const exchange = core.resolve(req('POST', '/mcp', { ...JSON_POST, origin: 'HTTPS://SessionPlan.de' }));
    expect(await core.head(exchange)).toBe(READ_BODY);
    const reply = await core.handle(exchange, textBody(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' })), { departed: false, client: '127.0.0.1' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body as string)).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
    expect(reply.headers).toEqual({
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': 'https://sessionplan.de',
      'access-control-expose-headers': 'Retry-After',
      vary: 'Origin',
    });
  });

  it('lets static files set their own caching, keeping nosniff', async () => {
    const page = await refused(makeCore(), req('GET', '/'));
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(Object.keys(page.headers).filter((k) => k === 'cache-control')).toHaveLength(1);
  });

  it('answers 413 in the endpoint family of the route', async () => {
    const core = makeCore();
    expect(JSON.parse(core.bodyTooLarge(core.resolve(req('POST', '/mcp'))).body as string).error.code).toBe(-32600);
    expect(JSON.parse(core.bodyTooLarge(core.resolve(req('POST', '/api/session-links'))).body as string).error.code).toBe('BODY_TOO_LARGE');
  });

  it('labels routes with a fixed set (metrics cardinality never depends on input)', () => {
    const core = makeCore();
    expect(['/mcp', '/mcp/', '/api/session-links', '/api/session-links/decode', '/', '/x/../y', '/metrics', '/favicon.ico'].map((p) => core.resolve(req('GET', p)).route.label)).toEqual([
      'mcp', 'mcp', 'rest_create', 'rest_decode', 'static', 'not_found', 'not_found', 'icon',
    ]);
  });
});
