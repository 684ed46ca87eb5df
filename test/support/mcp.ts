// Helpers for the MCP protocol-layer tests: a small in-memory SessionOperations and request builders.
import { joinText } from '../../src/session/json-pieces.js';
import type { AppViewDocument } from '../../src/mcp/app-view.js';
import { createMcpHandler, type McpHttpResponse, type McpObserver } from '../../src/mcp/handler.js';
import { SessionError } from '../../src/session/errors.js';
import type { SessionOperations } from '../../src/session/operations.js';

export const IDENTITY = {
  name: 'sessionplan-mcp',
  title: 'Sessionplan',
  version: '0.1.0',
  iconUrl: 'https://sessionplan.de/icon-512.png',
} as const;

export const MODERN = '2026-07-28';
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPS = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

export function modernMeta(version = MODERN): Record<string, unknown> {
  return { [META_VERSION]: version, [META_CAPS]: {}, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } };
}

const LINK_PREFIX = 'https://sessionplan.de/#data=v2:';

/**
 * A plain in-test SessionOperations (a function parameter of the layer, not a stand-in for an external part): it keeps
 * the contract's shape — objects become base64url links, anything else is a SessionError — so round trips are real.
 */
export const inMemoryOperations: SessionOperations = {
  async createSessionLink(session) {
    if (typeof session !== 'object' || session === null || Array.isArray(session)) {
      throw new SessionError('SESSION_VALIDATION_FAILED', [{ path: 'session', message: 'must be a session object' }]);
    }
    const title = String((session as { workshop?: { title?: unknown } }).workshop?.title ?? '');
    return {
      link: LINK_PREFIX + Buffer.from(JSON.stringify(session)).toString('base64url'),
      summary: { title, blockCount: 0, totalDuration: 0 },
    };
  },
  async decodeSessionLink(link) {
    if (typeof link !== 'string' || !link.startsWith(LINK_PREFIX)) {
      throw new SessionError('SESSION_DECODE_FAILED', [{ path: 'link', message: 'must be a #data=v2: snapshot link' }]);
    }
    return { session: JSON.parse(Buffer.from(link.slice(LINK_PREFIX.length), 'base64url').toString()) };
  },
};

export interface Answer {
  status: number;
  raw: string | null;
  json: Record<string, any>;
}

/**
 * The handler over the in-test operations, as HTTP (default) or a stream transport (stdio) makes it; with `appView`,
 * the MCP App is on (MCP_APPS on), else the plain surface (tools only).
 */
export function makeHandler(transport: 'http' | 'stream' = 'http', operations: SessionOperations = inMemoryOperations, observer?: McpObserver, appView?: AppViewDocument) {
  return createMcpHandler({ operations, identity: IDENTITY, transport, ...(observer ? { observer } : {}), ...(appView ? { appView } : {}) });
}

export function makePost(operations: SessionOperations = inMemoryOperations, observer?: McpObserver, transport: 'http' | 'stream' = 'http', appView?: AppViewDocument) {
  const handle = makeHandler(transport, operations, observer, appView);
  return async function post(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res: McpHttpResponse = await handle({ headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const raw = res.body === null ? null : joinText(res.body);
    return { status: res.status, raw, json: raw === null ? {} : JSON.parse(raw) };
  };
}

/** Headers of a correct modern request for `method` (and `name` on tools/call). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

export function modernRequest(method: string, params: Record<string, unknown> = {}, id: string | number = 1) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta() } };
}

export function legacyRequest(method: string, params?: Record<string, unknown>, id: string | number = 1) {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export const SAMPLE_SESSION = { version: '1.0', workshop: { title: 'Workshop' }, blockTypes: [], persons: [], items: [] };
