// Import of a plan from a JSON file: create's strict rules (errors as field paths); part of the page's editor host (host.ts).
import type { Codec } from '../codec/types.js';
import type { Problem } from '../session/errors.js';
import { LIMITS } from '../limits/table.js';
import { costlyJsonSentence, costlyJsonShape } from '../session/json-scan.js';
import { MAX_JSON_BYTES } from '../session/json-size.js';
import type { Session } from '../session/schema.js';
import { encodeDraft } from './encode.js';

/** A file may be pretty-printed: its text may be this many times the document's 2,000,000-byte limit before it is refused unread. */
const FILE_SLACK = 4;

export type Imported = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly problems: readonly Problem[] };

/**
 * Reads a JSON file as create reads a request's session: strictly (unknown fields, dangling references and limits are
 * errors). The document comes back normalized, exactly as the link will hold it.
 */
export function importJson(codec: Codec, baseUrl: string, text: string): Imported {
  if (text.length > MAX_JSON_BYTES * FILE_SLACK) {
    return { ok: false, problems: [{ path: 'session', message: `the file has ${text.length.toLocaleString('en-US')} characters, far more than a plan of at most ${MAX_JSON_BYTES.toLocaleString('en-US')} bytes of JSON`, rule: { kind: 'planTooLarge' } }] };
  }
  // The limits a request body has before JSON.parse: a crafted file cannot make parsing cost seconds.
  const depth = LIMITS.requestDepth.value;
  const members = LIMITS.requestObjectMembers.value;
  const costly = costlyJsonShape(text, depth, members);
  if (costly !== undefined) return { ok: false, problems: [{ path: 'session', message: costlyJsonSentence(costly, 'the file', depth, members) }] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return { ok: false, problems: [{ path: 'session', message: `the file is not valid JSON${detail}`, rule: { kind: 'notJson' } }] };
  }
  const outcome = encodeDraft(codec, baseUrl, value);
  return outcome.ok ? { ok: true, session: outcome.session } : { ok: false, problems: outcome.problems };
}
