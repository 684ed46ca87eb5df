// The router without sockets: order of checks, refusals decided before any body is read, header merging, static hook.
import { beforeEach, describe, expect, it } from 'vitest';
import { loadCodec } from '../src/codec/node.js';
import { createMcpHandler, mcpHealth } from '../src/mcp/handler.js';
import { createSessionOperations } from '../src/session/operations.js';
import type { HttpRequest, HttpResponse } from '../src/transport/http-types.js';
import { createMetrics } from '../src/transport/metrics.js';
import { MemoryRateLimitStore, createRateLimiter } from '../src/transport/rate-limit.js';
import { createRestHandlers } from '../src/transport/rest.js';
import { createRouter } from '../src/transport/router.js';
import type { Router } from '../src/transport/router.js';
import type { StaticAssets } from '../src/transport/static.js';

const identity = { name: 'sessionplan-mcp', title: 'Sessionplan', version: '0.0.0-test', iconUrl: 'https://sessionplan.de/icon.png' };

/** Files a viewer module could serve; a real implementation of the lookup interface over a fixed table. */
const viewer: StaticAssets = {
  lookup: (path) =>
    path === '/'
      ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: new TextEncoder().encode('<!doctype html>') }
      : undefined,
};

function makeRouter(overrides: { limit?: number; hostGuard?: boolean; metricsUnavailable?: boolean } = {}): Router {
  const operations = createSessionOperations(loadCodec);
  const realMetrics = createMetrics({ defaultMetrics: false });
  // Worker registries collected over message ports can time out; render then rejects like this.
  const metrics = overrides.metricsUnavailable ? { ...realMetrics, render: () => Promise.reject(new Error('workers did not answer')) } : realMetrics;
  return createRouter({
    mcp: createMcpHandler({ operations, identity }),
    mcpHealth: () => mcpHealth(identity),
    rest: createRestHandlers(operations, metrics),
    schemaJson: '{}',
    iconPng: new Uint8Array([1, 2, 3]),
    metrics,
    rateLimiter: createRateLimiter(new MemoryRateLimitStore(), { limit: overrides.limit ?? 60, windowS: 60 }),
    originPolicy: { allowed: new Set(['https://sessionplan.de']), development: false },
    hostGuard: overrides.hostGuard ?? true,
    maxBodyBytes: 2_000_000,
    staticAssets: viewer,
  });
}

function req(method: string, path: string, headers: Record<string, string> = {}): HttpRequest {
  return { method, path, query: '', headers: { host: '127.0.0.1:8080', ...headers }, remoteIp: '192.0.2.1' };
}

const JSON_POST = { 'content-type': 'application/json' };

async function refused(router: Router, request: HttpRequest): Promise<HttpResponse> {
  const decision = await router.head(request);
  if (decision === 'read-body') throw new Error(`${request.method} ${request.path} was let through to the body`);
  return decision;
}

describe('router.head: every refusal before the body', () => {
  let router: Router;
  beforeEach(() => {
    router = makeRouter();
  });

  it('checks Host, then Origin, then method, then media type, then length', async () => {
    const evil = { host: 'evil.example', origin: 'https://evil.example' };
    expect((await refused(router, req('PUT', '/mcp', evil))).status).toBe(403);
    expect(JSON.parse((await refused(router, req('PUT', '/mcp', { ...evil, host: 'localhost' }))).body as string).error.message).toBe('Origin not allowed');
    expect((await refused(router, req('PUT', '/mcp', { 'content-type': 'text/plain' }))).status).toBe(405);
    expect((await refused(router, req('POST', '/mcp', { 'content-type': 'text/plain', 'content-length': '9999999' }))).status).toBe(415);
    const tooLarge = await refused(router, req('POST', '/mcp', { ...JSON_POST, 'content-length': '2000001' }));
    expect([tooLarge.status, tooLarge.closeConnection]).toEqual([413, true]);
    expect(await router.head(req('POST', '/mcp', { ...JSON_POST, 'content-length': '2000000' }))).toBe('read-body');
  });

  it('decides the rate limit before the body and only for POSTs that pass the other checks', async () => {
    const limited = makeRouter({ limit: 1 });
    expect((await refused(limited, req('POST', '/mcp', { 'content-type': 'text/plain' }))).status).toBe(415);
    expect(await limited.head(req('POST', '/mcp', JSON_POST))).toBe('read-body');
    const second = await refused(limited, req('POST', '/mcp', JSON_POST));
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('60');
    expect(await limited.head(req('POST', '/api/session-links', JSON_POST))).toBe('read-body');
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
    const open = makeRouter({ hostGuard: false });
    expect((await refused(open, req('GET', '/mcp', { host: 'sessionplan.de' }))).status).toBe(200);
  });
});

describe('router.handle and headers', () => {
  it('answers a POST with the MCP layer and the security headers, lower-case and never twice', async () => {
    const router = makeRouter();
    const request = req('POST', '/mcp', { ...JSON_POST, origin: 'https://sessionplan.de' });
    expect(await router.head(request)).toBe('read-body');
    const reply = await router.handle(request, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }));
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
    const page = await refused(makeRouter(), req('GET', '/'));
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(Object.keys(page.headers).filter((k) => k === 'cache-control')).toHaveLength(1);
  });

  it('answers 503, not 500, when the metrics cannot be collected', async () => {
    const reply = await refused(makeRouter({ metricsUnavailable: true }), req('GET', '/metrics'));
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.body as string)).toEqual({ error: 'Metrics are temporarily unavailable' });
    expect((await refused(makeRouter(), req('GET', '/metrics'))).status).toBe(200);
  });

  it('answers 413 in the endpoint family of the route', async () => {
    const router = makeRouter();
    expect(JSON.parse(router.bodyTooLarge(req('POST', '/mcp')).body as string).error.code).toBe(-32600);
    expect(JSON.parse(router.bodyTooLarge(req('POST', '/api/session-links')).body as string).error.code).toBe('BODY_TOO_LARGE');
  });

  it('labels routes with a fixed set (metrics cardinality never depends on input)', () => {
    const router = makeRouter();
    expect(['/mcp', '/mcp/', '/api/session-links', '/api/session-links/decode', '/', '/x/../y', '/metrics'].map((p) => router.routeLabel(p))).toEqual([
      'mcp', 'mcp', 'rest_create', 'rest_decode', 'static', 'not_found', 'metrics',
    ]);
  });
});
