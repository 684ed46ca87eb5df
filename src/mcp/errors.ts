// The one table of JSON-RPC error codes, and the HTTP status each situation of the errors table (docs/http-api.md) answers with.
import { idJson } from './id-text.js';
import type { Reply, ResponseId } from './types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from './version.js';

/** JSON-RPC 2.0 codes plus the MCP-reserved ones this server emits; nothing else is ever sent. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined range; the errors table uses it for the rate limit. */
  RateLimited: -32000,
  HeaderMismatch: -32020,
  UnsupportedProtocolVersion: -32022,
  /** resources/read of an unknown URI in the legacy revisions (2026-07-28 answers -32602 instead). */
  ResourceNotFound: -32002,
} as const;
export type RpcErrorCode = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

interface Situation {
  readonly status: number;
  readonly code: RpcErrorCode;
  readonly message: string;
}

/**
 * Every row of the "Errors" table of docs/http-api.md that has a JSON-RPC body (405 and 415 have plain JSON bodies and live in the
 * HTTP layer, src/http/refusals.ts). Where the MCP specification differs (200 for -32700/-32600/-32602, -32601 for an unknown tool), this
 * table wins (docs/http-api.md, "Errors").
 */
export const RPC_SITUATIONS = {
  invalidOrigin: { status: 403, code: RpcErrorCode.InvalidRequest, message: 'Origin not allowed' },
  /** The DNS-rebinding guard of a loopback listener (the errors table files it with the origin row: 403, -32600). */
  invalidHost: { status: 403, code: RpcErrorCode.InvalidRequest, message: 'Host not allowed' },
  unsupportedProtocolVersion: { status: 400, code: RpcErrorCode.UnsupportedProtocolVersion, message: 'Unsupported protocol version' },
  headerMismatch: { status: 400, code: RpcErrorCode.HeaderMismatch, message: 'Header mismatch' },
  unknownModernMethod: { status: 404, code: RpcErrorCode.MethodNotFound, message: 'Method not found' },
  unknownLegacyMethod: { status: 200, code: RpcErrorCode.MethodNotFound, message: 'Method not found' },
  unknownTool: { status: 200, code: RpcErrorCode.MethodNotFound, message: 'Unknown tool' },
  malformedJson: { status: 200, code: RpcErrorCode.ParseError, message: 'Parse error' },
  invalidRequest: { status: 200, code: RpcErrorCode.InvalidRequest, message: 'Invalid Request' },
  invalidParams: { status: 200, code: RpcErrorCode.InvalidParams, message: 'Invalid params' },
  resourceNotFound: { status: 200, code: RpcErrorCode.ResourceNotFound, message: 'Resource not found' },
  internalError: { status: 200, code: RpcErrorCode.InternalError, message: 'Internal error' },
  bodyTooLarge: { status: 413, code: RpcErrorCode.InvalidRequest, message: 'Request body too large' },
  rateLimited: { status: 429, code: RpcErrorCode.RateLimited, message: 'Rate limit exceeded' },
  rateLimitStoreUnavailable: { status: 503, code: RpcErrorCode.InternalError, message: 'Rate limit storage unavailable' },
} as const satisfies Record<string, Situation>;
export type RpcSituation = keyof typeof RPC_SITUATIONS;

/** Longest slice of client-supplied text (a version string) that is ever repeated back in an error. */
const MAX_ECHO = 128;

/** Clips client-supplied text before it is repeated in `error.data`. */
export function clipEcho(value: string): string {
  return value.length > MAX_ECHO ? value.slice(0, MAX_ECHO) : value;
}

/** `error.data` of -32022: every version this server speaks, and the (clipped) one the client asked for. */
export function unsupportedVersionData(requested: string): { supported: string[]; requested: string } {
  return { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested: clipEcho(requested) };
}

/**
 * Builds the error response for one situation. `detail` is one sentence naming the field path (never the input);
 * `id` follows the era rule of {@link ResponseId}.
 */
export function rpcError(situation: RpcSituation, id: ResponseId, detail?: string, data?: unknown): Reply & { body: string } {
  const row = RPC_SITUATIONS[situation];
  const error: { code: number; message: string; data?: unknown } = {
    code: row.code,
    message: detail === undefined ? row.message : `${row.message}: ${detail}`,
  };
  if (data !== undefined) error.data = data;
  // `undefined`: no id member at all (the modern era's answer when the id could not be read).
  const idMember = id === undefined ? '' : `"id":${id === null ? 'null' : idJson(id)},`;
  return { status: row.status, body: `{"jsonrpc":"2.0",${idMember}"error":${JSON.stringify(error)}}` };
}
