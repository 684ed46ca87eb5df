// The HTTP rules of docs/http-api.md on a real uWS server on port 0: headers, origins/CORS, Host guard, methods, media types, body cap, health, schema, icon.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionJsonSchema } from '../../src/session/json-schema.js';
import { minimalSession } from '../fixtures/sessions.js';
import { JSON_HEADERS, expectSecurityHeaders, post, raw, send, startOn, TRANSPORTS } from '../support/http.js';
import type { TestServer } from '../support/http.js';

// The same suite over both socket adapters: the HTTP rules live in the core, so they must hold on either.
describe.each(TRANSPORTS)('%s adapter', (transport) => {
  const start = startOn(transport);

  const JSON_TYPE = 'application/json; charset=utf-8';
  const MODERN = { 'mcp-protocol-version': '2026-07-28' };
  const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await start({ RATE_LIMIT: '100000' });
    port = server.port;
  });
  afterAll(() => server.close());

  describe('every response', () => {
    it('carries Cache-Control: no-store and nosniff, and JSON bodies carry the JSON content type', async () => {
      const replies = {
        'GET /mcp': await send(port),
        'POST /mcp': await post(port, '/mcp', PING),
        'GET /schema/session.json': await send(port, { path: '/schema/session.json' }),
        'GET /icon.png': await send(port, { path: '/icon.png' }),
        'GET /metrics (not on the public port)': await send(port, { path: '/metrics' }),
        'GET / (no viewer)': await send(port, { path: '/' }),
        '404': await send(port, { path: '/nope' }),
        '405': await send(port, { method: 'DELETE' }),
        '415': await send(port, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }),
        '403': await send(port, { headers: { origin: 'https://evil.example' } }),
        '413': await send(port, { method: 'POST', headers: { ...JSON_HEADERS, 'content-length': '2000001' } }),
        'OPTIONS 204': await send(port, { method: 'OPTIONS' }),
      };
      for (const [where, reply] of Object.entries(replies)) {
        expectSecurityHeaders(reply.headers, where);
        if (where !== 'GET /icon.png' && where !== 'OPTIONS 204') {
          expect(reply.headers['content-type'], where).toBe(JSON_TYPE);
        }
      }
      expect(replies['OPTIONS 204'].status).toBe(204);
      expect(replies['GET /metrics (not on the public port)'].status).toBe(404);
      expect(replies['GET / (no viewer)'].status).toBe(404);
    });

    it('never sends a header twice', async () => {
      const text = await raw(port, [`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`]);
      const names = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n').slice(1).map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
      expect(new Set(names).size).toBe(names.length);
    });
  });

  describe('GET /mcp', () => {
    it('is a health check', async () => {
      for (const path of ['/mcp', '/mcp/']) {
        const reply = await send(port, { path, headers: { accept: 'application/json' } });
        expect(reply.status).toBe(200);
        expect(reply.json()).toEqual({
          status: 'ok',
          name: 'sessionplan-mcp',
          version: expect.any(String),
          protocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
          transport: { adapter: server.transport.name, version: server.transport.version },
          rateLimitStore: { kind: 'memory', state: 'up' },
        });
      }
    });

    it('answers 405 to a client asking for an SSE stream', async () => {
      const reply = await send(port, { headers: { accept: 'text/event-stream' } });
      expect(reply.status).toBe(405);
      expect(reply.json()).toEqual({ error: 'Method not allowed' });
      expect(reply.headers['allow']).toBe('POST');
    });
  });

  describe('methods and media types', () => {
    it.each(['PUT', 'DELETE', 'PATCH', 'TRACE'])('%s /mcp → 405 with Allow', async (method) => {
      const reply = await send(port, { method });
      expect(reply.status).toBe(405);
      expect(reply.json()).toEqual({ error: 'Method not allowed' });
      expect(reply.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
    });

    it('answers HEAD like GET without a body', async () => {
      const get = await send(port);
      const head = await send(port, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
      expectSecurityHeaders(head.headers, 'HEAD');
    });

    it('REST and plain routes answer wrong methods with 405 too', async () => {
      const rest = await send(port, { path: '/api/session-links' });
      expect([rest.status, rest.headers['allow'], rest.json()]).toEqual([405, 'POST, OPTIONS', { error: 'Method not allowed' }]);
      const schema = await post(port, '/schema/session.json', {});
      expect([schema.status, schema.headers['allow']]).toEqual([405, 'GET, HEAD, OPTIONS']);
    });

    it.each(['text/plain', 'application/jsonx', 'text/plain; profile=application/json', 'application/x-www-form-urlencoded', ''])(
      'POST with Content-Type %j → 415',
      async (type) => {
        for (const path of ['/mcp', '/api/session-links']) {
          const reply = await send(port, { method: 'POST', path, headers: type === '' ? {} : { 'content-type': type }, body: JSON.stringify(PING) });
          expect(reply.status).toBe(415);
          expect(reply.json()).toEqual({ error: 'Content-Type must be application/json' });
        }
      },
    );

    it('accepts JSON content types with parameters and any letter case', async () => {
      for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
        const reply = await post(port, '/mcp', PING, { 'content-type': type });
        expect(reply.status).toBe(200);
        expect(reply.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      }
    });

    it('reads Accept leniently and refuses only an Accept that excludes JSON', async () => {
      for (const accept of ['*/*', 'application/json', 'application/json, text/event-stream']) {
        expect((await post(port, '/mcp', PING, { accept })).status).toBe(200);
      }
      const noAccept = await send(port, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(PING) });
      expect(noAccept.status).toBe(200);
      const html = await post(port, '/mcp', PING, { accept: 'text/html' });
      expect(html.status).toBe(406);
      expect(html.json()).toEqual({ error: 'Accept must allow application/json' });
    });

    it('answers notifications with 202 and an empty body', async () => {
      const reply = await post(port, '/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      expectSecurityHeaders(reply.headers, '202');
    });

    it('answers unknown paths with 404 JSON', async () => {
      for (const method of ['GET', 'POST']) {
        const reply = await send(port, { method, path: '/api/other', headers: JSON_HEADERS, body: method === 'POST' ? '{}' : undefined });
        expect(reply.status).toBe(404);
        expect(reply.json()).toEqual({ error: 'Not found' });
      }
    });
  });

  describe('origins and CORS', () => {
    it('accepts requests without Origin, without CORS headers', async () => {
      const reply = await post(port, '/mcp', PING);
      expect(reply.status).toBe(200);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('accepts the allowed origin with CORS headers', async () => {
      const reply = await post(port, '/mcp', PING, { origin: 'https://sessionplan.de' });
      expect(reply.status).toBe(200);
      expect(reply.headers['access-control-allow-origin']).toBe('https://sessionplan.de');
      expect(reply.headers['vary']).toBe('Origin');
    });

    it('refuses other origins with 403 -32600 (id null for legacy, no id for modern)', async () => {
      const legacy = await post(port, '/mcp', PING, { origin: 'https://evil.example' });
      expect(legacy.status).toBe(403);
      expect(legacy.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Origin not allowed' } });
      expect(legacy.headers['access-control-allow-origin']).toBeUndefined();
      const modern = await post(port, '/mcp', PING, { origin: 'http://localhost:3000', ...MODERN });
      expect(modern.status).toBe(403);
      expect(modern.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Origin not allowed' } });
      const rest = await post(port, '/api/session-links', { session: minimalSession() }, { origin: 'https://evil.example' });
      expect(rest.status).toBe(403);
      expect(rest.json()).toEqual({ error: { code: 'ORIGIN_NOT_ALLOWED', message: 'Origin not allowed' } });
    });

    it('answers preflights with 204 allowing the MCP headers', async () => {
      const reply = await send(port, {
        method: 'OPTIONS',
        headers: { origin: 'https://sessionplan.de', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-protocol-version, mcp-method, mcp-name, content-type' },
      });
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expect(reply.headers['access-control-allow-origin']).toBe('https://sessionplan.de');
      const allowed = String(reply.headers['access-control-allow-headers']).toLowerCase().split(', ');
      for (const name of ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'content-type', 'accept']) expect(allowed).toContain(name);
      expect(reply.headers['access-control-allow-methods']).toContain('POST');
      const rest = await send(port, { method: 'OPTIONS', path: '/api/session-links/decode', headers: { origin: 'https://sessionplan.de' } });
      expect(rest.status).toBe(204);
      expect(rest.headers['allow']).toBe('POST, OPTIONS');
      const forbidden = await send(port, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
      expect(forbidden.status).toBe(403);
    });

    it('allows localhost origins only with SP_ENV=development', async () => {
      const dev = await start({ SP_ENV: 'development' });
      try {
        for (const origin of ['http://localhost:5173', 'https://127.0.0.1:8443', 'http://localhost']) {
          const reply = await post(dev.port, '/mcp', PING, { origin });
          expect(reply.status, origin).toBe(200);
          expect(reply.headers['access-control-allow-origin']).toBe(origin);
        }
        expect((await post(dev.port, '/mcp', PING, { origin: 'https://evil.example' })).status).toBe(403);
      } finally {
        await dev.close();
      }
      expect((await post(port, '/mcp', PING, { origin: 'http://localhost:5173' })).status).toBe(403);
    });

    it('uses the configured ALLOWED_ORIGINS list', async () => {
      const custom = await start({ ALLOWED_ORIGINS: 'https://planner.example.org,https://sessionplan.de' });
      try {
        expect((await post(custom.port, '/mcp', PING, { origin: 'https://planner.example.org' })).status).toBe(200);
        expect((await post(custom.port, '/mcp', PING, { origin: 'https://other.example.org' })).status).toBe(403);
      } finally {
        await custom.close();
      }
    });
  });

  describe('DNS-rebinding guard (loopback listener)', () => {
    it.each(['localhost', 'localhost:8080', '127.0.0.1', '[::1]:8080'])('Host %s is served', async (host) => {
      const reply = await post(port, '/mcp', PING, { host });
      expect(reply.status).toBe(200);
    });

    it.each(['evil.example', 'evil.example:80', 'localhost.evil.example', '192.168.1.20:8080'])('Host %s → 403', async (host) => {
      const reply = await post(port, '/mcp', PING, { host });
      expect(reply.status).toBe(403);
      expect(reply.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Host not allowed: the Host header must name localhost, 127.0.0.1 or [::1] on this loopback server' },
      });
      const get = await send(port, { path: '/schema/session.json', headers: { host } });
      expect(get.status).toBe(403);
      expectSecurityHeaders(get.headers, 'host 403');
    });

    it('refuses the conformance suite\'s rebinding probe (evil Host and Origin)', async () => {
      const reply = await post(port, '/mcp', PING, { host: 'evil.example', origin: 'http://evil.example', ...MODERN });
      expect(reply.status).toBe(403);
    });
  });

  describe('schema and icon', () => {
    it('serves the session JSON Schema', async () => {
      const reply = await send(port, { path: '/schema/session.json' });
      expect(reply.status).toBe(200);
      expect(reply.json()).toEqual(sessionJsonSchema);
      expect(reply.json().$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    });

    it('serves a 512x512 PNG icon', async () => {
      const reply = await new Promise<Buffer>((resolve, reject) => {
        import('node:http').then(({ get }) =>
          get({ host: '127.0.0.1', port, path: '/icon.png', agent: false }, (res) => {
            expect(res.headers['content-type']).toBe('image/png');
            const parts: Buffer[] = [];
            res.on('data', (d: Buffer) => parts.push(d)).on('end', () => resolve(Buffer.concat(parts)));
          }).on('error', reject),
        );
      });
      expect(reply.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(reply.subarray(12, 16).toString('ascii')).toBe('IHDR');
      expect([reply.readUInt32BE(16), reply.readUInt32BE(20)]).toEqual([512, 512]);
    });
  });
});
