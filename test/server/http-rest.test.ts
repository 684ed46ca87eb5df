// REST API (docs/http-api.md), rate limiting (429 / 503), client IP behind proxies and the analytics metrics, on a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitStore, RateLimitStoreHealth } from '../../src/rate-limit/store.js';
import { RateLimitStoreError } from '../../src/rate-limit/store-error.js';
import { minimalSession, richSession } from '../fixtures/sessions.js';
import { expectSecurityHeaders, post, send, startOn, TRANSPORTS } from '../support/http.js';
import type { TestServer } from '../support/http.js';

// The same suite over both socket adapters: the HTTP rules live in the core, so they must hold on either.
describe.each(TRANSPORTS)('%s adapter', (transport) => {
  const start = startOn(transport);

  const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

  /** A store whose backend is down: every hit fails the way the Redis store fails (fail closed). */
  class UnreachableStore implements RateLimitStore {
    hits = 0;
    health(): RateLimitStoreHealth {
      return { kind: 'redis', state: 'unreachable' };
    }
    hit(): Promise<{ count: number; resetMs: number }> {
      this.hits++;
      return Promise.reject(new RateLimitStoreError('unavailable', 'Rate-limit store is unreachable.'));
    }
  }

  describe('REST API', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await start({ RATE_LIMIT: '100000', PUBLIC_BASE_URL: 'https://plans.example.org/' });
    });
    afterAll(() => server.close());

    it('creates a link (200 {link, summary}) and decodes it back (200 {session})', async () => {
      const session = richSession();
      const created = await post(server.port, '/api/session-links', { session });
      expect(created.status).toBe(200);
      expectSecurityHeaders(created.headers, 'create');
      const { link, summary } = created.json();
      expect(link).toMatch(/^https:\/\/plans\.example\.org\/#data=v2:/);
      expect(summary.title).toBe('Team offsite');
      const decoded = await post(server.port, '/api/session-links/decode', { link });
      expect(decoded.status).toBe(200);
      expect(decoded.json().session.workshop.title).toBe('Team offsite');
      expect(decoded.json().session.items).toHaveLength((session.items as unknown[]).length);
    });

    it('answers 422 SESSION_VALIDATION_FAILED naming the field path', async () => {
      const session = { ...minimalSession(), items: [{ type: 'block', id: 'a' }] };
      const reply = await post(server.port, '/api/session-links', { session });
      expect(reply.status).toBe(422);
      const { error } = reply.json();
      expect(error.code).toBe('SESSION_VALIDATION_FAILED');
      expect(error.message).toMatch(/items\[0\]/);
      expect(error.message).not.toMatch(/^SESSION_VALIDATION_FAILED/);
    });

    it('answers 422 SESSION_DECODE_FAILED for a broken link', async () => {
      const reply = await post(server.port, '/api/session-links/decode', { link: 'https://sessionplan.de/#data=v2:%%%' });
      expect(reply.status).toBe(422);
      expect(reply.json().error.code).toBe('SESSION_DECODE_FAILED');
    });

    it.each([
      ['/api/session-links', '{"session":', /not valid JSON/],
      ['/api/session-links', '[]', /JSON object/],
      ['/api/session-links', '"text"', /JSON object/],
      ['/api/session-links', '{}', /^session: required/],
      ['/api/session-links', JSON.stringify({ session: minimalSession(), baseUrl: 'https://x' }), /"baseUrl": unknown field/],
      ['/api/session-links/decode', '{}', /^link: required/],
      ['/api/session-links/decode', '{"link":42}', /^link: must be a string/],
    ])('%s with body %s → 400', async (path, body, message) => {
      const reply = await post(server.port, path, body);
      expect(reply.status).toBe(400);
      expect(reply.json().error.code).toBe('INVALID_REQUEST_BODY');
      expect(reply.json().error.message).toMatch(message);
    });

    it('counts analytics events per endpoint, operation and outcome, never with input or link', async () => {
      const own = await start({ RATE_LIMIT: '1000', METRICS_PORT: '0' });
      try {
        const session = { ...minimalSession(), workshop: { title: 'Secret retreat plan', description: '' } };
        const created = await post(own.port, '/api/session-links', { session });
        const link = created.json().link as string;
        await post(own.port, '/api/session-links/decode', { link: 'v2:' });
        await post(own.port, '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link } } });
        const metrics = await send(own.metricsPort!, { path: '/metrics' });
        expect(metrics.status).toBe(200);
        expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
        const text = metrics.text;
        expect(text).toMatch(/^sessionplan_session_link_events_total\{endpoint="rest",operation="create",outcome="success"\} 1$/m);
        expect(text).toMatch(/^sessionplan_session_link_events_total\{endpoint="rest",operation="decode",outcome="tool_error"\} 1$/m);
        expect(text).toMatch(/^sessionplan_session_link_events_total\{endpoint="mcp",operation="decode",outcome="success"\} 1$/m);
        expect(text).toMatch(/^sessionplan_session_link_duration_seconds_count\{endpoint="rest",operation="create",outcome="success"\} 1$/m);
        expect(text).toMatch(/^sessionplan_http_requests_total\{route="rest_create",method="POST",status="200"\} 1$/m);
        expect(text).toMatch(/^sessionplan_http_request_duration_seconds_count\{route="mcp",method="POST",status="200"\} 1$/m);
        expect(text).not.toContain('Secret retreat');
        expect(text).not.toContain(link.slice(link.indexOf('v2:')));
      } finally {
        await own.close();
      }
    });
  });

  describe('rate limiting: 60 POSTs per 60 s per client IP and endpoint', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await start();
    });
    afterAll(() => server.close());

    it('refuses the 61st POST to /mcp with 429 -32000 and Retry-After: 60, per endpoint', async () => {
      for (let i = 1; i <= 60; i++) {
        const reply = await post(server.port, '/mcp', { ...PING, id: i });
        expect(reply.status, `POST ${i}`).toBe(200);
      }
      const limited = await post(server.port, '/mcp', PING);
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Rate limit exceeded' } });
      expectSecurityHeaders(limited.headers, '429');
      const modern = await post(server.port, '/mcp', PING, { 'mcp-protocol-version': '2026-07-28' });
      expect(modern.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Rate limit exceeded' } });
      // GETs are not counted, and each endpoint has its own window.
      expect((await send(server.port)).status).toBe(200);
      const rest = await post(server.port, '/api/session-links/decode', { link: 'v2:' });
      expect(rest.status).toBe(422);
    });

    it('limits each REST endpoint the same way, with a JSON error body', async () => {
      for (let i = 1; i <= 60; i++) {
        const reply = await post(server.port, '/api/session-links', { session: minimalSession() });
        expect(reply.status, `POST ${i}`).toBe(200);
      }
      const limited = await post(server.port, '/api/session-links', { session: minimalSession() });
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded' } });
    });

    it('refuses before reading the body: method and media type refusals are not counted', async () => {
      const fresh = await start({ RATE_LIMIT: '2' });
      try {
        for (let i = 0; i < 5; i++) {
          expect((await send(fresh.port, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
        }
        expect((await post(fresh.port, '/mcp', PING)).status).toBe(200);
        expect((await post(fresh.port, '/mcp', PING)).status).toBe(200);
        expect((await post(fresh.port, '/mcp', PING)).status).toBe(429);
      } finally {
        await fresh.close();
      }
    });

    it('keys on X-Forwarded-For only with TRUST_PROXY', async () => {
      const direct = await start({ RATE_LIMIT: '2' });
      const proxied = await start({ RATE_LIMIT: '2', TRUST_PROXY: '1' });
      try {
        const statuses = async (port: number, xff: string[]) => {
          const out: number[] = [];
          for (const ip of xff) out.push((await post(port, '/mcp', PING, { 'x-forwarded-for': ip })).status);
          return out;
        };
        // Without TRUST_PROXY the header is client-controlled and ignored: one socket address, one window.
        expect(await statuses(direct.port, ['198.51.100.1', '198.51.100.2', '198.51.100.3'])).toEqual([200, 200, 429]);
        // With TRUST_PROXY=1 the right-most hop is the client; spoofed left-hand entries do not matter.
        expect(await statuses(proxied.port, ['198.51.100.1', '203.0.113.5, 198.51.100.1', '198.51.100.1', '198.51.100.2'])).toEqual([200, 200, 429, 200]);
      } finally {
        await Promise.all([direct.close(), proxied.close()]);
      }
    });

    it('answers 503 -32603 when the rate-limit store is unavailable (fail closed)', async () => {
      const store = new UnreachableStore();
      const failing = await start({ METRICS_PORT: '0' }, { rateLimitStore: store });
      try {
        const mcp = await post(failing.port, '/mcp', PING);
        expect(mcp.status).toBe(503);
        expect(mcp.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Rate limit storage unavailable' } });
        expectSecurityHeaders(mcp.headers, '503');
        const rest = await post(failing.port, '/api/session-links', { session: minimalSession() });
        expect(rest.status).toBe(503);
        expect(rest.json()).toEqual({ error: { code: 'RATE_LIMIT_UNAVAILABLE', message: 'Rate limit storage unavailable' } });
        expect(store.hits).toBe(2);
        // GET health does not need the store, and says it is degraded (200: the load balancer keeps the instance).
        const health = await send(failing.port);
        expect(health.status).toBe(200);
        expect(health.json()).toMatchObject({ status: 'degraded', rateLimitStore: { kind: 'redis', state: 'unreachable' } });
        const metrics = await send(failing.metricsPort!, { path: '/metrics' });
        expect(metrics.text).toMatch(/^sessionplan_rate_limit_refusals_total\{route="mcp",reason="unavailable"\} 1$/m);
        expect(metrics.text).toMatch(/^sessionplan_rate_limit_store_up\{store="redis"\} 0$/m);
      } finally {
        await failing.close();
      }
    });

    it('answers 503 when the store hangs instead of holding the request forever', async () => {
      const hanging: RateLimitStore = { hit: () => new Promise(() => {}), health: () => ({ kind: 'redis', state: 'up' }) };
      const stuck = await start({}, { rateLimitStore: hanging });
      try {
        const reply = await post(stuck.port, '/mcp', PING);
        expect(reply.status).toBe(503);
        expect(reply.json().error.code).toBe(-32603);
      } finally {
        await stuck.close();
      }
    });
  });
});
