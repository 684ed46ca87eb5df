// A table's text as the planner takes it: a file must be UTF-8 (with or without a byte-order mark) and small enough
// to be a plan; pasted text is taken as it is. Nothing larger than a plan is read or parsed at all.
import { MAX_JSON_BYTES } from '../../session/json-size.js';
import type { TableProblem } from './problems.js';

/** A table longer than a plan's whole JSON text cannot become a plan, so it is refused before it is read. */
export const MAX_TABLE_SIZE = MAX_JSON_BYTES;

export type TableText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: TableProblem };

/** Pasted text: refused when too long. */
export function pastedTable(text: string): TableText {
  return text.length > MAX_TABLE_SIZE ? { ok: false, problem: { kind: 'tooLarge', size: text.length, limit: MAX_TABLE_SIZE } } : { ok: true, text };
}

/** A file's bytes, read only when the file is small enough, and decoded as UTF-8 or refused. */
export async function fileTable(file: Blob): Promise<TableText> {
  if (file.size > MAX_TABLE_SIZE) return { ok: false, problem: { kind: 'tooLarge', size: file.size, limit: MAX_TABLE_SIZE } };
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    // fatal: a byte sequence that is not UTF-8 (a Latin-1 or Windows-1252 file) is refused instead of turned into "�".
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: { kind: 'notUtf8' } };
  }
}
