// Unit tests of the plain HTTP functions (no sockets): media types, Accept, origins, Host guard, client IP, refusals.
import { describe, expect, it } from 'vitest';
import { RPC_SITUATIONS } from '../../src/mcp/errors.js';
import { clientIp, normaliseIp, rateLimitKey } from '../../src/http/client-ip.js';
import { createOriginPolicy } from '../../src/http/origins.js';
import type { OriginPolicy } from '../../src/http/origins.js';
import { FAMILY_REFUSALS, familyRefusalBody, familyStatus } from '../../src/http/refusals.js';
import type { FamilyRefusal } from '../../src/http/refusals.js';
import { acceptsJson, asksForEventStream, isJsonContentType, isLoopbackAddress, isLoopbackHostHeader, parseMediaType } from '../../src/http/rules.js';

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
  const production = createOriginPolicy({ allowed: ['https://sessionplan.de'], development: false });
  const development = createOriginPolicy({ allowed: ['https://sessionplan.de'], development: true });
  const kind = (policy: OriginPolicy, method: string, origin?: string, host = '127.0.0.1:8080'): string => policy.verdict(method, origin, host).kind;

  it('accepts requests without Origin and listed origins, answering with the configured spelling', () => {
    expect(kind(production, 'POST')).toBe('none');
    expect(kind(production, 'POST', 'https://sessionplan.de')).toBe('allowed');
    const shouted = production.verdict('POST', 'HTTPS://SESSIONPLAN.DE', undefined);
    expect(shouted.kind === 'allowed' && shouted.grant.actual['access-control-allow-origin']).toBe('https://sessionplan.de');
  });

  it.each(['https://evil.example', 'null', 'https://sessionplan.de.evil.example', 'http://sessionplan.de', 'http://localhost:5173', 'http://127.0.0.1'])(
    'refuses %s in production',
    (origin) => {
      expect(kind(production, 'POST', origin)).toBe('forbidden');
    },
  );

  it.each(['http://localhost', 'http://localhost:5173', 'https://localhost:8443', 'http://127.0.0.1', 'https://127.0.0.1:3000'])(
    'allows %s with SP_ENV=development',
    (origin) => {
      expect(kind(development, 'POST', origin)).toBe('allowed');
    },
  );

  it.each(['http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'ftp://localhost', 'http://[::1]:80'])('still refuses %s in development', (origin) => {
    expect(kind(development, 'POST', origin)).toBe('forbidden');
  });

  it('lets a page served by this server GET its own files, but never POST cross-listed', () => {
    expect(kind(production, 'GET', 'http://127.0.0.1:8080')).toBe('same-origin');
    expect(kind(production, 'POST', 'http://127.0.0.1:8080')).toBe('forbidden');
    expect(kind(production, 'GET', 'http://127.0.0.1:9999')).toBe('forbidden');
  });

  it('answers preflights allowing the MCP request headers', () => {
    const verdict = production.verdict('OPTIONS', 'https://sessionplan.de', undefined);
    if (verdict.kind !== 'allowed') throw new Error(`listed origin not allowed: ${verdict.kind}`);
    const h = verdict.grant.preflight;
    expect(h['access-control-allow-origin']).toBe('https://sessionplan.de');
    for (const name of ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Content-Type', 'Accept']) {
      expect(h['access-control-allow-headers']?.split(', ')).toContain(name);
    }
    expect(h['access-control-allow-methods']).toContain('POST');
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

  it('keys IPv6 clients by their network prefix, IPv4 clients by their address', () => {
    expect(rateLimitKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd', undefined, 0, 64)).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0db8:0001:0002:0000:0000:0000:0001', undefined, 0, 64)).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8:1:2ff::1', undefined, 0, 56)).toBe('2001:db8:1:200::/56');
    expect(rateLimitKey('2001:db8::1', undefined, 0, 128)).toBe('2001:db8::1');
    expect(rateLimitKey('0000:0000:0000:0000:0000:ffff:7f00:0001', undefined, 0, 64)).toBe('127.0.0.1');
    expect(rateLimitKey('10.0.0.1', '2001:db8:9:9::7', 1, 48)).toBe('2001:db8:9::/48');
    // 65 addresses of one /64 share one key; two /64s do not.
    const keys = new Set(Array.from({ length: 65 }, (_, i) => rateLimitKey(`2001:db8:5:6::${(i + 1).toString(16)}`, undefined, 0, 64)));
    expect([...keys]).toEqual(['2001:db8:5:6::/64']);
    expect(rateLimitKey('2001:db8:5:7::1', undefined, 0, 64)).not.toBe('2001:db8:5:6::/64');
  });
});

describe('refusals', () => {
  it('answers /mcp refusals as JSON-RPC errors with the table codes; id null for legacy, omitted for modern', () => {
    expect(familyStatus('rate-limited')).toBe(429);
    expect(JSON.parse(familyRefusalBody('rate-limited', 'mcp', false))).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Rate limit exceeded' } });
    expect(JSON.parse(familyRefusalBody('origin', 'mcp', true))).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Origin not allowed' } });
    expect(JSON.parse(familyRefusalBody('host', 'mcp', false)).error.message).toMatch(/^Host not allowed: /);
    expect(JSON.parse(familyRefusalBody('body-too-large', 'mcp', false)).error.code).toBe(-32600);
    expect(JSON.parse(familyRefusalBody('store-unavailable', 'mcp', false)).error.code).toBe(-32603);
  });

  it('takes status and message from the JSON-RPC table: REST bodies {error:{code,message}}, plain routes {error}', () => {
    for (const [name, row] of Object.entries(FAMILY_REFUSALS)) {
      const refusal = name as FamilyRefusal;
      const situation = RPC_SITUATIONS[row.rpc];
      expect(familyStatus(refusal)).toBe(situation.status);
      // A REST message may say more than the row's (the server-wide 429), but it starts with the row's message.
      expect(JSON.parse(familyRefusalBody(refusal, 'rest', false))).toEqual({ error: { code: row.restCode, message: row.restMessage ?? situation.message } });
      expect(row.restMessage ?? situation.message).toMatch(new RegExp(`^${situation.message}`));
      expect(JSON.parse(familyRefusalBody(refusal, 'plain', false))).toEqual({ error: row.restMessage ?? situation.message });
    }
  });
});
