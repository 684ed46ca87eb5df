// REST API of SPEC §7: POST /api/session-links and /api/session-links/decode over the session operations.
import { SessionError } from '../session/errors.js';
import { jsonResponse } from './http-rules.js';
import type { HttpResponse } from './http-types.js';
import type { AnalyticsOperation, AnalyticsOutcome, ServerMetrics } from './metrics.js';
import { restBadRequest, restInternalError } from './refusals.js';

/** The part of the session operations the REST layer calls (structurally the session helper's SessionOperations). */
export interface RestOperations {
  createSessionLink(session: unknown, options?: { baseUrl?: string }): Promise<unknown> | unknown;
  decodeSessionLink(link: unknown): Promise<unknown> | unknown;
}

export interface RestHandlers {
  create(bodyText: string): Promise<HttpResponse>;
  decode(bodyText: string): Promise<HttpResponse>;
}

type Envelope = { ok: true; value: Record<string, unknown> } | { ok: false; response: HttpResponse };

/** The body must be a JSON object with exactly the one field `key` (the shape check → 400). */
function readEnvelope(bodyText: string, key: 'session' | 'link'): Envelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { ok: false, response: restBadRequest('Request body is not valid JSON.') };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, response: restBadRequest(`Request body must be a JSON object with a "${key}" field.`) };
  }
  const record = parsed as Record<string, unknown>;
  if (!Object.hasOwn(record, key)) return { ok: false, response: restBadRequest(`${key}: required field is missing.`) };
  const unknown = Object.keys(record).filter((k) => k !== key);
  if (unknown.length > 0) {
    const name = unknown[0] ?? '';
    const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
    return { ok: false, response: restBadRequest(`${JSON.stringify(shown)}: unknown field; the body has only "${key}".`) };
  }
  if (key === 'link' && typeof record[key] !== 'string') {
    return { ok: false, response: restBadRequest('link: must be a string.') };
  }
  return { ok: true, value: record };
}

/** 422 body: the session error code and its message without the repeated "CODE: " prefix. */
function sessionFailure(error: SessionError): HttpResponse {
  const prefix = `${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return jsonResponse(422, { error: { code: error.code, message } });
}

/** `onInternalError` receives unexpected failures for the log (the client only sees a generic 500). */
export function createRestHandlers(
  operations: RestOperations,
  metrics: ServerMetrics,
  onInternalError: (error: unknown) => void = () => {},
): RestHandlers {
  async function run(operation: AnalyticsOperation, bodyText: string, key: 'session' | 'link', call: (arg: unknown) => Promise<unknown> | unknown) {
    const started = performance.now();
    let outcome: AnalyticsOutcome = 'success';
    let response: HttpResponse;
    const envelope = readEnvelope(bodyText, key);
    if (!envelope.ok) {
      outcome = 'protocol_error';
      response = envelope.response;
    } else {
      try {
        response = jsonResponse(200, await call(envelope.value[key]));
      } catch (error) {
        if (error instanceof SessionError) {
          outcome = 'tool_error';
          response = sessionFailure(error);
        } else {
          outcome = 'internal_error';
          onInternalError(error);
          response = restInternalError();
        }
      }
    }
    metrics.recordEvent({ endpoint: 'rest', operation, outcome, durationMs: performance.now() - started });
    return response;
  }

  return {
    create: (bodyText) => run('create', bodyText, 'session', (session) => operations.createSessionLink(session)),
    decode: (bodyText) => run('decode', bodyText, 'link', (link) => operations.decodeSessionLink(link)),
  };
}
