// The HTTP family of error answers in one table: status and message from the JSON-RPC table, a body per endpoint family.
import { formatLimit } from '../limits/format.js';
import { LIMITS } from '../limits/table.js';
import { RPC_SITUATIONS, rpcError } from '../mcp/errors.js';
import type { RpcSituation } from '../mcp/errors.js';

/** Which body family a route answers errors in: JSON-RPC (/mcp), REST `{error:{code,message}}`, or plain `{error}`. */
export type EndpointFamily = 'mcp' | 'rest' | 'plain';

/** Refusals whose body depends on the endpoint family; status and message come from the JSON-RPC row. */
export type FamilyRefusal = 'origin' | 'host' | 'body-too-large' | 'rate-limited' | 'store-unavailable' | 'busy' | 'busy-client' | 'receiving-client';

/** Refusals with one plain `{ "error": … }` body on every endpoint (the errors table of docs/http-api.md gives them no JSON-RPC form). */
export type PlainRefusal = 'not-found' | 'method-not-allowed' | 'unsupported-media-type' | 'not-acceptable' | 'bad-content-length' | 'headers-too-large' | 'bad-request' | 'host-missing' | 'http-version' | 'request-timeout' | 'upload-too-slow' | 'internal';

interface FamilyRow {
  /** Row of the JSON-RPC table in src/mcp/errors.ts: status, code and message. */
  readonly rpc: RpcSituation;
  /** Code in REST error bodies. */
  readonly restCode: string;
  /** Added to the JSON-RPC message to say what to do. */
  readonly rpcDetail?: string;
  /** The message of REST and plain bodies, when it must say more than the JSON-RPC row's (JSON-RPC adds rpcDetail). */
  readonly restMessage?: string;
}

const BUSY_SENTENCE = 'too many large requests are waiting on this server; retry in a few seconds';
const BUSY_CLIENT_SENTENCE = 'too many of your large requests are waiting on this server; retry once they are answered';
const RECEIVING_CLIENT_SENTENCE = 'too many of your request bodies are arriving at once; retry once they have arrived';

export const FAMILY_REFUSALS: Readonly<Record<FamilyRefusal, FamilyRow>> = {
  origin: { rpc: 'invalidOrigin', restCode: 'ORIGIN_NOT_ALLOWED' },
  host: { rpc: 'invalidHost', restCode: 'HOST_NOT_ALLOWED', rpcDetail: 'the Host header must name localhost, 127.0.0.1 or [::1] on this loopback server' },
  'body-too-large': { rpc: 'bodyTooLarge', restCode: 'BODY_TOO_LARGE' },
  'rate-limited': { rpc: 'rateLimited', restCode: 'RATE_LIMITED' },
  'store-unavailable': { rpc: 'rateLimitStoreUnavailable', restCode: 'RATE_LIMIT_UNAVAILABLE' },
  // The offload queue is full (offload/pool.ts): the rate-limit row of docs/http-api.md, server-wide instead of per client.
  busy: { rpc: 'rateLimited', restCode: 'SERVER_BUSY', rpcDetail: BUSY_SENTENCE, restMessage: `Rate limit exceeded: ${BUSY_SENTENCE}` },
  // …or this client alone has as many heavy requests waiting as one client may (offload/pool.ts).
  'busy-client': { rpc: 'rateLimited', restCode: 'RATE_LIMITED', rpcDetail: BUSY_CLIENT_SENTENCE, restMessage: `Rate limit exceeded: ${BUSY_CLIENT_SENTENCE}` },
  // …or this client's bodies being received hold as many bytes as one client may (http/reception.ts).
  'receiving-client': { rpc: 'rateLimited', restCode: 'RATE_LIMITED', rpcDetail: RECEIVING_CLIENT_SENTENCE, restMessage: `Rate limit exceeded: ${RECEIVING_CLIENT_SENTENCE}` },
};

export const PLAIN_REFUSALS: Readonly<Record<PlainRefusal, { readonly status: number; readonly message: string }>> = {
  'not-found': { status: 404, message: 'Not found' },
  'method-not-allowed': { status: 405, message: 'Method not allowed' },
  'unsupported-media-type': { status: 415, message: 'Content-Type must be application/json' },
  'not-acceptable': { status: 406, message: 'Accept must allow application/json' },
  'bad-content-length': { status: 400, message: 'Invalid Content-Length' },
  'headers-too-large': { status: 431, message: 'Request header fields too large' },
  'bad-request': { status: 400, message: 'Bad request' },
  'host-missing': { status: 400, message: 'An HTTP/1.1 request needs a Host header' },
  'http-version': { status: 505, message: 'HTTP version not supported; use HTTP/1.1' },
  'request-timeout': { status: 408, message: 'Request not received in time' },
  'upload-too-slow': { status: 408, message: `Request body arrived too slowly; send it at ${formatLimit(LIMITS.uploadRate)} or faster` },
  internal: { status: 500, message: 'Internal server error' },
};

/** Codes REST bodies carry besides the session ones (SESSION_VALIDATION_FAILED, SESSION_DECODE_FAILED). */
export const REST_ERROR_CODES = {
  invalidBody: 'INVALID_REQUEST_BODY',
  internal: 'INTERNAL_ERROR',
} as const;

export function familyStatus(refusal: FamilyRefusal): number {
  return RPC_SITUATIONS[FAMILY_REFUSALS[refusal].rpc].status;
}

/**
 * The body of a family refusal. On /mcp the request id is unknown at this point: modern requests (an
 * MCP-Protocol-Version header naming the modern era) omit `id`, legacy ones send `"id": null`.
 */
export function familyRefusalBody(refusal: FamilyRefusal, family: EndpointFamily, modern: boolean): string {
  const row = FAMILY_REFUSALS[refusal];
  if (family === 'mcp') return rpcError(row.rpc, modern ? undefined : null, row.rpcDetail).body;
  const message = row.restMessage ?? RPC_SITUATIONS[row.rpc].message;
  return JSON.stringify(family === 'rest' ? { error: { code: row.restCode, message } } : { error: message });
}

export function plainRefusalBody(refusal: PlainRefusal): string {
  return JSON.stringify({ error: PLAIN_REFUSALS[refusal].message });
}

/** 400 body for a REST request that is not the right shape; `message` names the field path, never echoes input. */
export function restBadRequestBody(message: string): string {
  return JSON.stringify({ error: { code: REST_ERROR_CODES.invalidBody, message } });
}

export const REST_INTERNAL_ERROR_BODY = JSON.stringify({ error: { code: REST_ERROR_CODES.internal, message: 'Unexpected processing failure' } });
