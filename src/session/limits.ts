// Size limits of a session document's JSON text, checked without allocating an encoded copy.
import type { Problem } from './errors.js';

/** The JSON text of a session is at most this many bytes in UTF-8 (SPEC §3). */
export const MAX_JSON_BYTES = 2_000_000;

/** UTF-8 byte length of a string; counting stops (returning a value over `stopAbove`) as soon as the result is known to exceed it. */
export function utf8ByteLength(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  // Every UTF-16 code unit takes at least one byte, so a string longer than the limit is over it without counting.
  if (text.length > stopAbove) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length && bytes <= stopAbove; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 code units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The size problem of a JSON text, or null when it fits. */
export function jsonSizeProblem(json: string, path = 'session'): Problem | null {
  if (json.length * 3 <= MAX_JSON_BYTES) return null;
  const bytes = utf8ByteLength(json);
  if (bytes <= MAX_JSON_BYTES) return null;
  const size = bytes.toLocaleString('en-US');
  return {
    path,
    message: `the JSON text of the document is ${size} bytes (UTF-8) but at most ${MAX_JSON_BYTES.toLocaleString('en-US')} bytes are allowed, so the plan must be made smaller`,
  };
}
