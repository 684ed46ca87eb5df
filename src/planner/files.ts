// Import and export of the plan as a JSON file: strict create rules on the way in (errors as field paths), the linked document out.
import type { Codec } from '../codec/types.js';
import type { Problem } from '../session/errors.js';
import { costlyJsonSentence, costlyJsonShape, MAX_JSON_BYTES } from '../session/limits.js';
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
    return { ok: false, problems: [{ path: 'session', message: `the file has ${text.length.toLocaleString('en-US')} characters, far more than a plan of at most ${MAX_JSON_BYTES.toLocaleString('en-US')} bytes of JSON` }] };
  }
  // The same guard the HTTP entry points run before JSON.parse: a crafted file cannot make parsing cost seconds.
  const costly = costlyJsonShape(text);
  if (costly !== undefined) return { ok: false, problems: [{ path: 'session', message: costlyJsonSentence(costly).replace('request body', 'file') }] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return { ok: false, problems: [{ path: 'session', message: `the file is not valid JSON${detail}` }] };
  }
  const outcome = encodeDraft(codec, baseUrl, value);
  return outcome.ok ? { ok: true, session: outcome.session } : { ok: false, problems: outcome.problems };
}

/** The document as a readable JSON file (two-space indent; keys in schema order). */
export function exportJson(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/** A file name from the workshop: `sessionplan-<title>-<date>.json`, letters and digits kept, the rest dashes. */
export function exportFileName(session: Session): string {
  const slug = session.workshop.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const parts = ['sessionplan', slug, session.workshop.date ?? ''].filter((part) => part !== '');
  return `${parts.join('-')}.json`;
}
