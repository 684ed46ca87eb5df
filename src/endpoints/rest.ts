// The REST API: POST /api/session-links and /api/session-links/decode over the session operations (docs/http-api.md).
import { DecodeDeclined, SessionError } from '../session/errors.js';
import { jsonText, type JsonText } from '../session/json-pieces.js';
import { textIfUtf8 } from '../http/body.js';
import { costlyBodyProblem } from '../http/body-guard.js';
import { JSON_HEADERS } from '../http/headers.js';
import type { AnalyticsOperation, AnalyticsOutcome, HttpObserver, RestOperations } from '../http/ports.js';
import { REST_INTERNAL_ERROR_BODY, restBadRequestBody } from '../http/refusals.js';
import type { RestHandlers, RouteAnswer } from '../http/routes.js';

const json = (status: number, body: JsonText): RouteAnswer => ({ status, headers: JSON_HEADERS, body });
const badRequest = (message: string): RouteAnswer => json(400, restBadRequestBody(message));

/** Where the session is in a create body's JSON text. */
const SESSION_PATH = ['session'];

/** Longest unknown field name repeated in a 400 message (it comes from the client). */
const MAX_ECHOED_NAME = 40;

const NOT_UTF8 = badRequest('Request body is not valid UTF-8.');

type Envelope = { ok: true; value: unknown } | { ok: false; answer: RouteAnswer };

/** The body must be a JSON object with exactly the one field `key` (the shape check → 400). */
function readEnvelope(bodyText: string, key: 'session' | 'link'): Envelope {
  const costly = costlyBodyProblem(bodyText);
  if (costly !== undefined) return { ok: false, answer: badRequest(`${costly.replace(/^t/, 'T')}.`) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { ok: false, answer: badRequest('Request body is not valid JSON.') };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, answer: badRequest(`Request body must be a JSON object with a "${key}" field.`) };
  }
  const record = parsed as Record<string, unknown>;
  if (!Object.hasOwn(record, key)) return { ok: false, answer: badRequest(`${key}: required field is missing.`) };
  for (const name in record) {
    if (name === key) continue;
    const shown = name.length > MAX_ECHOED_NAME ? `${name.slice(0, MAX_ECHOED_NAME)}…` : name;
    return { ok: false, answer: badRequest(`${JSON.stringify(shown)}: unknown field; the body has only "${key}".`) };
  }
  if (key === 'link' && typeof record[key] !== 'string') return { ok: false, answer: badRequest('link: must be a string.') };
  return { ok: true, value: record[key] };
}

/** 422 body: the session error code and its message without the repeated "CODE: " prefix. */
function sessionFailure(error: SessionError): RouteAnswer {
  const prefix = `${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return json(422, JSON.stringify({ error: { code: error.code, message } }));
}

/**
 * A failure no rule covers is answered with a generic 500 that carries the error in `unexpected` (the core logs it);
 * `largeResults`: long results are answered in pieces (json-pieces.ts), for the endpoints of large requests.
 */
export function createRestHandlers(operations: RestOperations, observer: Pick<HttpObserver, 'recordEvent'>, largeResults = false): RestHandlers {
  async function run(operation: AnalyticsOperation, bodyText: string | undefined, key: 'session' | 'link', call: (arg: unknown) => Promise<unknown> | unknown): Promise<RouteAnswer> {
    const started = performance.now();
    let outcome: AnalyticsOutcome = 'success';
    let answer: RouteAnswer;
    const envelope: Envelope = bodyText === undefined ? { ok: false, answer: NOT_UTF8 } : readEnvelope(bodyText, key);
    if (!envelope.ok) {
      outcome = 'protocol_error';
      answer = envelope.answer;
    } else {
      try {
        answer = json(200, jsonText(await call(envelope.value), largeResults));
      } catch (error) {
        // The caller answers a declined decode elsewhere and records its event there.
        if (error instanceof DecodeDeclined) throw error;
        if (error instanceof SessionError) {
          outcome = 'tool_error';
          answer = sessionFailure(error);
        } else {
          outcome = 'internal_error';
          answer = { status: 500, headers: JSON_HEADERS, body: REST_INTERNAL_ERROR_BODY, unexpected: error ?? new Error('a failure without an error value') };
        }
      }
    }
    observer.recordEvent({ endpoint: 'rest', operation, outcome, durationMs: performance.now() - started });
    return answer;
  }

  return {
    create: (body) => {
      const text = textIfUtf8(body);
      return run('create', text, 'session', (session) => operations.createSessionLink(session, { source: { text: text!, path: SESSION_PATH } }));
    },
    decode: (body) => run('decode', textIfUtf8(body), 'link', (link) => operations.decodeSessionLink(link)),
  };
}
