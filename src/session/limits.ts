// Size limits of a session document's JSON text: a cheap lower bound before validation, the exact check after.
import type { Problem } from './errors.js';

/** The JSON text of a session is at most this many bytes in UTF-8 (SPEC §3). */
export const MAX_JSON_BYTES = 2_000_000;

let scratch: Uint8Array | undefined;
const encoder = new TextEncoder();

/**
 * UTF-8 byte length of a string when it is at most `MAX_JSON_BYTES`, else null. Uses the native encoder into one
 * reused buffer (no allocation, stops when full), since a JS loop over 2 MB costs about 20 ms.
 */
export function utf8LengthWithinLimit(text: string): number | null {
  // Every UTF-16 code unit takes at least one byte, so a longer string is over the limit without encoding.
  if (text.length > MAX_JSON_BYTES) return null;
  scratch ??= new Uint8Array(MAX_JSON_BYTES + 4);
  const { read, written } = encoder.encodeInto(text, scratch);
  return read < text.length || written > MAX_JSON_BYTES ? null : written;
}

const BYTES = (n: number): string => `${n.toLocaleString('en-US')} bytes`;

function sizeProblem(size: string): Problem {
  return {
    path: 'session',
    message: `the JSON text of the document is ${size} (UTF-8) but at most ${BYTES(MAX_JSON_BYTES)} are allowed, so the plan must be made smaller`,
  };
}

/** The size problem of a JSON text, or null when it fits. */
export function jsonSizeProblem(json: string): Problem | null {
  if (json.length * 3 <= MAX_JSON_BYTES) return null;
  if (utf8LengthWithinLimit(json) !== null) return null;
  return sizeProblem(json.length > MAX_JSON_BYTES ? `at least ${BYTES(json.length)}` : `more than ${BYTES(MAX_JSON_BYTES)}`);
}

/**
 * A lower bound of the UTF-8 length of `JSON.stringify(value)` without building it: strings count their code units,
 * every value and key at least its quotes or one character. Stops as soon as the bound passes the limit, so a huge
 * (or cyclic) input is refused before the schema walks it.
 */
export function jsonLowerBound(value: unknown): number {
  let bytes = 0;
  // Recursion keeps the common small document cheap. Below MAX_SCHEMA_DEPTH nothing is counted: the schema refuses
  // such nesting at its first level without walking it, so depth (and a cycle) cannot exhaust the stack here.
  const visit = (node: unknown, depth: number): void => {
    if (typeof node === 'string') bytes += node.length + 2;
    else if (typeof node !== 'object' || node === null || depth > MAX_SCHEMA_DEPTH) bytes += 1;
    else if (Array.isArray(node)) {
      bytes += 2 + node.length;
      for (let i = 0; i < node.length && bytes <= MAX_JSON_BYTES; i++) visit(node[i], depth + 1);
    } else {
      const keys = Object.keys(node);
      bytes += 2;
      for (let i = 0; i < keys.length && bytes <= MAX_JSON_BYTES; i++) {
        const key = keys[i]!;
        bytes += key.length + 4; // "key": and a comma
        visit((node as Record<string, unknown>)[key], depth + 1);
      }
    }
  };
  visit(value, 0);
  return bytes;
}

/** Deeper than any canonical document (session → items → children → children → block → personIds → ID is 7). */
export const MAX_SCHEMA_DEPTH = 16;

/** Nesting kept from older documents is capped so that serializing a decode result can never exhaust the stack. */
export const MAX_DECODED_DEPTH = 64;

/** True when a parsed JSON value nests deeper than `limit` (iterative, so it is safe on any depth). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}

/** The size problem of a not yet serialized value when even its lower bound is over the limit, else null. */
export function estimatedSizeProblem(value: unknown): Problem | null {
  return jsonLowerBound(value) > MAX_JSON_BYTES ? sizeProblem(`more than ${BYTES(MAX_JSON_BYTES)}`) : null;
}
