// Unit tests of the plain HTTP functions (no sockets): media types, Accept, origins, Host guard, client IP, refusals.
import { describe, expect, it } from 'vitest';
import { clientIp, normaliseIp } from '../src/transport/client-ip.js';
import {
  acceptsJson,
  asksForEventStream,
  checkOrigin,
  isJsonContentType,
  isLoopbackAddress,
  isLoopbackHostHeader,
  parseMediaType,
  preflightHeaders,
} from '../src/transport/http-rules.js';
import type { OriginPolicy } from '../src/transport/http-rules.js';
import { REFUSALS, refuse } from '../src/transport/refusals.js';

describe('media types', () => {
  it('parses type, subtype and parameters case-insensitively', () => {
    expect(parseMediaType('Application/JSON; Charset="UTF-8"')).toEqual({ essence: 'application/json', params: { charset: 'UTF-8' } });
    expect(parseMediaType('nonsense')).toBeUndefined();
    expect(parseMediaType('/json')).toBeUndefined();
  });

  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['APPLICATION/JSON;charset=UTF-8', true],
    ['application/json ; charset=utf8', true],
    [undefined, false],
    ['', false],
    ['text/plain', false],
    ['application/jsonx', false],
    ['application/json-patch+json', false],
    ['text/plain; profile=application/json', false],
    ['application/x-www-form-urlencoded', false],
    ['application/json; charset=latin1', false],
  ])('Content-Type %j is JSON: %s', (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected);
  });

  it.each([
    [undefined, true],
    ['', true],
    ['*/*', true],
    ['application/json', true],
    ['application/json, text/event-stream', true],
    ['text/event-stream, application/*;q=0.5', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['garbage', true],
    ['text/html', false],
    ['text/event-stream', false],
    ['application/json;q=0', false],
  ])('Accept %j allows JSON: %s', (value, expected) => {
    expect(acceptsJson(value)).toBe(expected);
  });

  it('recognises a request for an SSE stream', () => {
    expect(asksForEventStream('text/event-stream')).toBe(true);
    expect(asksForEventStream('application/json, text/event-stream')).toBe(true);
    expect(asksForEventStream('text/event-stream;q=0')).toBe(false);
    expect(asksForEventStream('*/*')).toBe(false);
    expect(asksForEventStream(undefined)).toBe(false);
  });
});

describe('origins', () => {
  const production: OriginPolicy = { allowed: new Set(['https://sessionplan.de']), development: false };
  const development: OriginPolicy = { allowed: new Set(['https://sessionplan.de']), development: true };
  const headers = (origin?: string, host = '127.0.0.1:8080'): Record<string, string> => (origin === undefined ? { host } : { host, origin });

  it('accepts requests without Origin and listed origins', () => {
    expect(checkOrigin('POST', headers(), production)).toBe('none');
    expect(checkOrigin('POST', headers('https://sessionplan.de'), production)).toBe('allowed');
    expect(checkOrigin('POST', headers('HTTPS://SESSIONPLAN.DE'), production)).toBe('allowed');
  });

  it.each(['https://evil.example', 'null', 'https://sessionplan.de.evil.example', 'http://sessionplan.de', 'http://localhost:5173', 'http://127.0.0.1'])(
    'refuses %s in production',
    (origin) => {
      expect(checkOrigin('POST', headers(origin), production)).toBe('forbidden');
    },
  );

  it.each(['http://localhost', 'http://localhost:5173', 'https://localhost:8443', 'http://127.0.0.1', 'https://127.0.0.1:3000'])(
    'allows %s with SP_ENV=development',
    (origin) => {
      expect(checkOrigin('POST', headers(origin), development)).toBe('allowed');
    },
  );

  it.each(['http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'ftp://localhost', 'http://[::1]:80'])('still refuses %s in development', (origin) => {
    expect(checkOrigin('POST', headers(origin), development)).toBe('forbidden');
  });

  it('lets a page served by this server GET its own files, but never POST cross-listed', () => {
    expect(checkOrigin('GET', headers('http://127.0.0.1:8080'), production)).toBe('same-origin');
    expect(checkOrigin('POST', headers('http://127.0.0.1:8080'), production)).toBe('forbidden');
    expect(checkOrigin('GET', headers('http://127.0.0.1:9999'), production)).toBe('forbidden');
  });

  it('answers preflights allowing the MCP request headers', () => {
    const h = preflightHeaders('https://sessionplan.de');
    expect(h['Access-Control-Allow-Origin']).toBe('https://sessionplan.de');
    for (const name of ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Content-Type', 'Accept']) {
      expect(h['Access-Control-Allow-Headers']?.split(', ')).toContain(name);
    }
    expect(h['Access-Control-Allow-Methods']).toContain('POST');
  });
});

describe('DNS-rebinding guard', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])('%s is a loopback listen address', (host) => {
    expect(isLoopbackAddress(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.org'])('%s is not loopback', (host) => {
    expect(isLoopbackAddress(host)).toBe(false);
  });
  it.each(['localhost', 'localhost:8080', '127.0.0.1', '127.0.0.1:1', '[::1]', '[::1]:8080', 'LOCALHOST:80'])('Host %s passes', (host) => {
    expect(isLoopbackHostHeader(host)).toBe(true);
  });
  it.each([undefined, '', 'evil.example', 'evil.example:8080', 'localhost.evil.example', '127.0.0.1.nip.io', '127.0.0.2:8080', '::1', 'localhost:abc'])(
    'Host %s is refused',
    (host) => {
      expect(isLoopbackHostHeader(host)).toBe(false);
    },
  );
});

describe('client IP', () => {
  it('normalises IPv4-mapped and uncompressed IPv6 so one client is one key', () => {
    expect(normaliseIp('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normaliseIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseIp('0000:0000:0000:0000:0000:0000:0000:0001')).toBe('::1');
    expect(normaliseIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normaliseIp('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(normaliseIp('192.0.2.7')).toBe('192.0.2.7');
  });

  it('uses the socket address unless TRUST_PROXY says how many proxies to trust', () => {
    const xff = '203.0.113.9, 198.51.100.1, 10.0.0.2';
    expect(clientIp('127.0.0.1', xff, 0)).toBe('127.0.0.1');
    expect(clientIp('127.0.0.1', xff, 1)).toBe('10.0.0.2');
    expect(clientIp('127.0.0.1', xff, 2)).toBe('198.51.100.1');
    expect(clientIp('127.0.0.1', xff, 3)).toBe('203.0.113.9');
    expect(clientIp('127.0.0.1', xff, 4)).toBe('127.0.0.1'); // fewer hops than proxies: the header cannot be trusted
    expect(clientIp('127.0.0.1', 'not-an-ip', 1)).toBe('127.0.0.1');
    expect(clientIp('127.0.0.1', undefined, 1)).toBe('127.0.0.1');
    expect(clientIp('127.0.0.1', '::ffff:198.51.100.1', 1)).toBe('198.51.100.1');
  });
});

describe('refusals', () => {
  it('answers /mcp refusals as JSON-RPC errors with the table codes; id null for legacy, omitted for modern', () => {
    const legacy = refuse('rate-limited', 'mcp', {});
    expect(legacy.status).toBe(429);
    expect(JSON.parse(legacy.body as string)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Rate limit exceeded' } });
    const modern = JSON.parse(refuse('origin', 'mcp', { 'mcp-protocol-version': '2026-07-28' }).body as string);
    expect(modern).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Origin not allowed' } });
    expect(JSON.parse(refuse('body-too-large', 'mcp', {}).body as string).error.code).toBe(-32600);
    expect(JSON.parse(refuse('store-unavailable', 'mcp', {}).body as string).error.code).toBe(-32603);
  });

  it('answers REST refusals as {error:{code,message}} and plain routes as {error}', () => {
    for (const [name, row] of Object.entries(REFUSALS)) {
      const rest = refuse(name as keyof typeof REFUSALS, 'rest', {});
      expect(rest.status).toBe(row.status);
      expect(JSON.parse(rest.body as string)).toEqual({ error: { code: row.restCode, message: row.message } });
      expect(JSON.parse(refuse(name as keyof typeof REFUSALS, 'plain', {}).body as string)).toEqual({ error: row.message });
    }
  });
});
