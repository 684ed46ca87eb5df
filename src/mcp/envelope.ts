// JSON-RPC 2.0 envelope of one POSTed message: jsonrpc "2.0", a string|number id (0 and "" included), a method name.
import { numericId } from './id-text.js';
import type { RequestId } from './types.js';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A readable message: a request (has an id) or a notification (no `id` member at all). */
export interface Envelope {
  id: RequestId | undefined;
  method: string;
  /** `undefined` when the message has no `params` member. */
  params: unknown;
}

/** A request (a message with an id) and the JSON text it was parsed from (tools may read their arguments' text). */
export interface RequestMessage extends Envelope {
  id: RequestId;
  readonly text: string;
}

export interface EnvelopeProblem {
  /** The id when it could be read, so the error can echo it. */
  id: RequestId | undefined;
  /** One sentence naming the field. */
  detail: string;
}

/**
 * Reads the envelope of a JSON object body, parsed from `text`; the id is read first so later problems can still echo
 * it. A numeric id is echoed as its text when its value would not write back to it (id-text.ts).
 */
export function readEnvelope(body: JsonObject, text: string): Envelope | EnvelopeProblem {
  const hasId = Object.hasOwn(body, 'id');
  const rawId = body.id;
  const id = !hasId ? undefined : typeof rawId === 'string' ? rawId : typeof rawId === 'number' ? numericId(rawId, text) : undefined;
  if (hasId && id === undefined) return { id: undefined, detail: 'id must be a string or a number' };
  if (body.jsonrpc !== '2.0') return { id, detail: 'jsonrpc must be "2.0"' };
  if (typeof body.method !== 'string') {
    const isResponse = Object.hasOwn(body, 'result') || Object.hasOwn(body, 'error');
    return { id, detail: isResponse ? 'JSON-RPC responses cannot be posted to this endpoint' : 'method must be a string' };
  }
  return { id, method: body.method, params: Object.hasOwn(body, 'params') ? body.params : undefined };
}

export function isEnvelopeProblem(value: Envelope | EnvelopeProblem): value is EnvelopeProblem {
  return 'detail' in value;
}
