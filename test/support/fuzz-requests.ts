// Seeded generator of hostile requests for the protocol fuzz: random and mutated JSON-RPC envelopes, headers, paths.
import { MODERN_VERSION, modernCreateRequest, smallPlan } from '../fixtures/requests.js';
import { createRandom } from '../fixtures/plans.js';
import type { LoadRequest } from './load.js';

const VERSIONS = [MODERN_VERSION, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2099-01-01', 'latest', ''];
const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'server/discover', 'notifications/initialized', 'resources/list', 'prompts/get', '', 'TOOLS/LIST'];
const TOOLS = ['create_session_link', 'decode_session_link', 'delete_everything', '', 'create_session_link '];
const PATHS = ['/mcp', '/mcp', '/mcp', '/mcp', '/mcp/', '/api/session-links', '/api/session-links/decode', '/metrics', '/schema/session.json', '/', '/nope', '/mcp?x=1', '/%2e%2e/etc'];
const CONTENT_TYPES = ['application/json', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/jsonx', 'multipart/form-data; boundary=x', ''];
/** Mostly absent or allowed, so most requests get past the origin and Host checks to the JSON-RPC layer. */
const ORIGINS = [...Array(12).fill(undefined), 'https://sessionplan.de', 'https://sessionplan.de', 'https://evil.example', 'null', 'http://localhost:3000'];
const HOSTS = [...Array(14).fill(undefined), 'localhost', '[::1]:80', 'evil.example', 'sessionplan.de:443'];
const PLAN = smallPlan();
const PLAN_TEXT = JSON.stringify(PLAN);

export interface Fuzzer {
  next(): LoadRequest;
}

export function createFuzzer(seed: number): Fuzzer {
  // mulberry32, seeded: the printed seed reproduces a failing run.
  const random = createRandom(seed);
  const chance = (p: number): boolean => random() < p;
  const int = (n: number): number => Math.floor(random() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const printable = (max: number): string => Array.from({ length: int(max) }, () => String.fromCharCode(32 + int(95))).join('');
  const unicode = (max: number): string => Array.from({ length: int(max) }, () => String.fromCodePoint(pick([0x41 + int(26), 0xe9, 0x4e2d, 0x1f600, 0x0, 0x7f, 0xfeff]))).join('');

  const randomJson = (depth: number): unknown => {
    const kind = int(depth > 3 ? 6 : 9);
    switch (kind) {
      case 0: return null;
      case 1: return chance(0.5);
      case 2: return pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER]);
      case 3: return unicode(12);
      case 4: return printable(20);
      case 5: return '';
      case 6: return Array.from({ length: int(4) }, () => randomJson(depth + 1));
      default: return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(['id', 'method', 'params', 'jsonrpc', '_meta', 'name', 'arguments', printable(6)]), randomJson(depth + 1)]));
    }
  };

  const randomId = (): unknown => pick([1, 0, '', 'a-1', -7, 1.5, null, true, {}, [], 2 ** 60, printable(10)]);

  const meta = (): unknown =>
    chance(0.15)
      ? randomJson(1)
      : {
          ...(chance(0.9) ? { 'io.modelcontextprotocol/protocolVersion': chance(0.8) ? MODERN_VERSION : pick([...VERSIONS, 5, null]) } : {}),
          ...(chance(0.9) ? { 'io.modelcontextprotocol/clientCapabilities': chance(0.9) ? {} : randomJson(2) } : {}),
        };

  const session = (): unknown => {
    if (chance(0.3)) return PLAN;
    if (chance(0.3)) return randomJson(0);
    // A mutated plan: one field replaced by something random.
    const copy = JSON.parse(PLAN_TEXT) as Record<string, unknown>;
    const key = pick(Object.keys(copy));
    copy[key] = randomJson(1);
    return copy;
  };

  const args = (tool: string): unknown => {
    if (chance(0.1)) return randomJson(1);
    if (tool.startsWith('decode')) return { link: chance(0.5) ? `https://sessionplan.de/#data=v2:${printable(40)}` : randomJson(1) };
    return { session: session(), ...(chance(0.05) ? { extra: 1 } : {}) };
  };

  const envelope = (modern: boolean): Record<string, unknown> => {
    const method = chance(0.6) ? 'tools/call' : pick(METHODS);
    const tool = pick(TOOLS);
    const params: Record<string, unknown> = method === 'tools/call' ? { name: chance(0.9) ? tool : randomJson(1), arguments: args(tool) } : {};
    if (method === 'initialize') Object.assign(params, { protocolVersion: pick(VERSIONS), capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } });
    if (modern) params['_meta'] = meta();
    const message: Record<string, unknown> = { jsonrpc: chance(0.95) ? '2.0' : pick(['1.0', 2, null]), method };
    if (chance(0.9)) message['id'] = randomId();
    if (chance(0.92)) message['params'] = chance(0.95) ? params : randomJson(1);
    return message;
  };

  /** Byte-level damage to a JSON text: truncation, a flipped character, an insertion, a batch, deep nesting. */
  const mutateText = (text: string): string => {
    switch (int(7)) {
      case 0: return text.slice(0, int(text.length));
      case 1: { const i = int(text.length); return text.slice(0, i) + String.fromCharCode(int(128)) + text.slice(i + 1); }
      case 2: { const i = int(text.length); return text.slice(0, i) + pick(['"', '{', '}', ',', ':', '\\', '\\u12', ']']) + text.slice(i); }
      case 3: return `[${text},${text}]`;
      case 4: return `${'['.repeat(200 + int(5000))}${']'.repeat(int(3) === 0 ? 0 : 5200)}`;
      case 5: return pick(['', ' ', 'null', '[]', '{}', '"x"', '1', 'true', '\uFEFF{}']);
      default: return `${text}${printable(5)}`;
    }
  };

  return {
    next(): LoadRequest {
      const path = pick(PATHS);
      const method = chance(0.88) ? 'POST' : pick(['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'FOO']);
      const modern = chance(0.5);
      const rpc = envelope(modern);
      let body = path.startsWith('/api/')
        ? JSON.stringify(chance(0.6) ? (path.endsWith('decode') ? args('decode') : { session: session() }) : randomJson(0))
        : chance(0.1)
          ? JSON.stringify(modernCreateRequest(PLAN, int(100)))
          : JSON.stringify(rpc);
      if (chance(0.25)) body = mutateText(body);
      const headers: Record<string, string> = {};
      const contentType = chance(0.85) ? 'application/json' : pick(CONTENT_TYPES);
      if (contentType !== '') headers['content-type'] = contentType;
      if (chance(0.7)) headers['accept'] = pick(['application/json, text/event-stream', '*/*', 'text/event-stream', 'text/html', 'application/json']);
      if (modern || chance(0.2)) headers['mcp-protocol-version'] = chance(0.85) ? (modern ? MODERN_VERSION : pick(VERSIONS)) : printable(12);
      const rpcMethod = typeof rpc['method'] === 'string' ? rpc['method'] : '';
      if (modern && chance(0.9)) headers['mcp-method'] = chance(0.9) ? rpcMethod : printable(10);
      const name = (rpc['params'] as { name?: unknown } | undefined)?.name;
      if (modern && typeof name === 'string' && chance(0.9)) {
        // A raw header value must be printable ASCII (Node refuses anything else); other names go Base64-encoded.
        const plain = /^[\x20-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
        headers['mcp-name'] = chance(0.8) ? plain : pick([`=?base64?${Buffer.from(name).toString('base64')}?=`, '=?base64?!!!?=', `=?BASE64?${Buffer.from(name).toString('base64')}?=`, printable(10)]);
      }
      const origin = pick(ORIGINS);
      if (origin !== undefined) headers['origin'] = origin;
      const host = pick(HOSTS);
      if (host !== undefined) headers['host'] = host;
      if (chance(0.05)) headers['x-forwarded-for'] = `${int(256)}.${int(256)}.0.1`;
      if (chance(0.05)) headers[`x-${printable(8).replace(/[^a-z]/gi, '') || 'junk'}`] = printable(30);
      return { method, path, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body };
    },
  };
}
