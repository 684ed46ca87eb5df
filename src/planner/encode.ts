// A draft to its link with the server's create code (strict rules, normalization, codec), or to the problems that keep it from one.
import type { Codec } from '../codec/types.js';
import { SessionError, type Problem } from '../session/errors.js';
import { utf8LengthWithinLimit } from '../session/json-size.js';
import { buildLink } from '../session/link.js';
import { encodeSession } from '../session/operations.js';
import { sessionSchema, type Session } from '../session/schema.js';
import { checkShape } from '../session/walk.js';
import type { EncodedMeasures } from './limits.js';

/** Problems marked in the page at once; the server's message lists five, the page can show every field's own. */
export const MAX_MARKED_PROBLEMS = 100;

export interface EncodedOutcome {
  readonly ok: true;
  /** `<baseUrl>#data=v2:<payload>`: what the server's create returns for this document with that base URL. */
  readonly link: string;
  /** The normalized document the link holds. */
  readonly session: Session;
  /** What the limits are measured on (limits.ts): numbers, so an answer from the worker stays small. */
  readonly measures: EncodedMeasures;
}

export type Encoded = EncodedOutcome | { readonly ok: false; readonly problems: readonly Problem[] };

/**
 * Validates and encodes exactly as create does (session/operations.ts encodeSession). When create's own walk stopped
 * after the problems its message lists, the shape is walked again with room for more, so every field can be marked.
 */
export function encodeDraft(codec: Codec, baseUrl: string, draft: unknown): Encoded {
  try {
    const { session, json, payload } = encodeSession(codec, draft, { large: false });
    // large: false gives one string (json-pieces.ts); the type allows pieces for the offload threads.
    const text = typeof json === 'string' ? json : json.join('');
    // create checked the UTF-8 length against its limit, so this is a number; the fallback only satisfies the type.
    const measures = { jsonBytes: utf8LengthWithinLimit(text) ?? Infinity, jsonChars: text.length, payloadChars: payload.length, counts: codec.lastCompressCounts() };
    return { ok: true, link: buildLink(baseUrl, payload), session, measures };
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    if (!error.more) return { ok: false, problems: error.problems };
    const shape = checkShape(sessionSchema, draft, { mode: 'create', limit: MAX_MARKED_PROBLEMS, build: false });
    return { ok: false, problems: shape.ok ? error.problems : shape.problems };
  }
}
