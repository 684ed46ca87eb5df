// HTTP-level refusals (403/404/405/406/413/415/429/503) and their body per endpoint family, mapped in this one place.
import { rpcError } from '../mcp/errors.js';
import type { RpcSituation } from '../mcp/errors.js';
import { headerNamesModernEra } from '../mcp/version.js';
import { JSON_CONTENT_TYPE, jsonResponse } from './http-rules.js';
import type { HttpResponse } from './http-types.js';

/** Which body family a route answers errors in: JSON-RPC (/mcp), REST `{error:{code,message}}`, or plain `{error}`. */
export type EndpointFamily = 'mcp' | 'rest' | 'plain';

/** Refusals that depend on the endpoint family. */
export type Refusal = 'origin' | 'host' | 'body-too-large' | 'rate-limited' | 'store-unavailable';

interface RefusalRow {
  readonly status: number;
  /** Row of the JSON-RPC table in src/mcp/errors.ts used on /mcp. */
  readonly rpc: RpcSituation;
  /** Code in REST error bodies. */
  readonly restCode: string;
  readonly message: string;
  /** Added to the JSON-RPC message when the table row's own message does not say it (the Host guard shares -32600). */
  readonly rpcDetail?: string;
}

export const REFUSALS: Readonly<Record<Refusal, RefusalRow>> = {
  origin: { status: 403, rpc: 'invalidOrigin', restCode: 'ORIGIN_NOT_ALLOWED', message: 'Origin not allowed' },
  host: {
    status: 403,
    rpc: 'invalidOrigin',
    restCode: 'HOST_NOT_ALLOWED',
    message: 'Host not allowed',
    rpcDetail: 'the Host header must name localhost, 127.0.0.1 or [::1] on this loopback server',
  },
  'body-too-large': { status: 413, rpc: 'bodyTooLarge', restCode: 'BODY_TOO_LARGE', message: 'Request body too large' },
  'rate-limited': { status: 429, rpc: 'rateLimited', restCode: 'RATE_LIMITED', message: 'Rate limit exceeded' },
  'store-unavailable': { status: 503, rpc: 'rateLimitStoreUnavailable', restCode: 'RATE_LIMIT_UNAVAILABLE', message: 'Rate limit storage unavailable' },
};

/** Codes REST bodies carry besides the session ones (SESSION_VALIDATION_FAILED, SESSION_DECODE_FAILED). */
export const REST_ERROR_CODES = {
  invalidBody: 'INVALID_REQUEST_BODY',
  internal: 'INTERNAL_ERROR',
} as const;

/**
 * The body for a refusal. On /mcp the request id is unknown at this point: modern requests (an
 * MCP-Protocol-Version header naming the modern era) omit `id`, legacy ones send `"id": null`.
 */
export function refuse(refusal: Refusal, family: EndpointFamily, headers: Readonly<Record<string, string>>, detail?: string): HttpResponse {
  const row = REFUSALS[refusal];
  if (family === 'mcp') {
    const version = headers['mcp-protocol-version']?.trim();
    const modern = version !== undefined && headerNamesModernEra(version);
    const reply = rpcError(row.rpc, modern ? undefined : null, detail ?? row.rpcDetail);
    return { status: row.status, headers: { 'Content-Type': JSON_CONTENT_TYPE }, body: reply.body };
  }
  const message = detail === undefined ? row.message : `${row.message}: ${detail}`;
  if (family === 'rest') return jsonResponse(row.status, { error: { code: row.restCode, message } });
  return jsonResponse(row.status, { error: message });
}

/** 400 for a REST body that is not the right shape; `message` names the field path, never echoes input. */
export function restBadRequest(message: string): HttpResponse {
  return jsonResponse(400, { error: { code: REST_ERROR_CODES.invalidBody, message } });
}

export function restInternalError(): HttpResponse {
  return jsonResponse(500, { error: { code: REST_ERROR_CODES.internal, message: 'Unexpected processing failure' } });
}

// Plain-family refusals: the owner's table gives these one body shape on every endpoint.
export const notFound = (): HttpResponse => jsonResponse(404, { error: 'Not found' });
export const methodNotAllowed = (allow: string): HttpResponse => jsonResponse(405, { error: 'Method not allowed' }, { Allow: allow });
export const unsupportedMediaType = (): HttpResponse => jsonResponse(415, { error: 'Content-Type must be application/json' });
export const notAcceptable = (): HttpResponse => jsonResponse(406, { error: 'Accept must allow application/json' });
