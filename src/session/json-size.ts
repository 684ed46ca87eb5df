// How many bytes a document's JSON text takes: the UTF-8 size of a text, and one walk that measures a value as JSON.
import { LIMITS } from '../limits/table.js';
import type { Problem } from './errors.js';
import { textLength, type JsonText } from './json-pieces.js';

/** The JSON text of a session is at most this many bytes in UTF-8 (docs/import-guide.md, "Limits"). */
export const MAX_JSON_BYTES = LIMITS.sessionJsonBytes.value;

let scratch: Uint8Array | undefined;
const encoder = new TextEncoder();

/**
 * UTF-8 byte length of a text (one string or pieces) when it is at most `MAX_JSON_BYTES`, else null. Uses the native
 * encoder into one reused buffer (no allocation, stops when full), since a JS loop over a 2 MB text costs far more.
 */
export function utf8LengthWithinLimit(text: JsonText): number | null {
  // Every UTF-16 code unit takes at least one byte, so a longer text is over the limit without encoding.
  if (textLength(text) > MAX_JSON_BYTES) return null;
  scratch ??= new Uint8Array(MAX_JSON_BYTES + 4);
  let total = 0;
  for (const piece of typeof text === 'string' ? [text] : text) {
    const { read, written } = encoder.encodeInto(piece, total === 0 ? scratch : scratch.subarray(total));
    total += written;
    if (read < piece.length || total > MAX_JSON_BYTES) return null;
  }
  return total;
}

const BYTES = (n: number): string => `${n.toLocaleString('en-US')} bytes`;

function sizeProblem(size: string): Problem {
  return {
    path: 'session',
    message: `the JSON text of the document is ${size} (UTF-8) but at most ${BYTES(MAX_JSON_BYTES)} are allowed, so the plan must be made smaller`,
    rule: { kind: 'planTooLarge' },
  };
}

/** The size problem of a JSON text (one string or pieces), or null when it fits. */
export function jsonSizeProblem(json: JsonText): Problem | null {
  const length = textLength(json);
  if (length * 3 <= MAX_JSON_BYTES) return null;
  if (utf8LengthWithinLimit(json) !== null) return null;
  return sizeProblem(length > MAX_JSON_BYTES ? `at least ${BYTES(length)}` : `more than ${BYTES(MAX_JSON_BYTES)}`);
}

/**
 * A decoded document is written back (REST, MCP, the page) as JSON.stringify writes it, and that text is what the
 * 2,000,000-byte limit counts: escapes included. A link can hold text that grows when written again (a lone surrogate
 * unit becomes the six characters `\udxxx`, `1e20` becomes 21 digits), so the decoded text's own size says little.
 * No text unit is written as more than six bytes, and filling in missing defaults adds at most MAX_DEFAULT_BYTES (1,000
 * items, 2,000 persons and block types: test/unit/session-decode-limits.test.ts), so a shorter text needs no count.
 */
export const MAX_WRITTEN_BYTES_PER_UNIT = 6;
export const MAX_DEFAULT_BYTES = 320_000;

const ESCAPED_ASCII = new Uint8Array(128);
for (let unit = 0; unit < 128; unit++) {
  ESCAPED_ASCII[unit] = unit >= 0x20 ? (unit === 0x22 || unit === 0x5c ? 2 : 1) : unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13 ? 2 : 6;
}

/** Printable ASCII but `"` and `\`: written as it is, one byte per unit. */
const VERBATIM_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** UTF-8 bytes of JSON.stringify(text): quotes, two-character and \u00xx escapes, lone surrogates as `\udxxx`. */
function writtenStringBytes(text: string): number {
  // A long text of plain ASCII is counted by the regular expression engine, ~5 times faster than the loop below.
  if (text.length > 256 && VERBATIM_ASCII.test(text)) return text.length + 2;
  let bytes = 2;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += ESCAPED_ASCII[unit]!;
    else if (unit < 0x800) bytes += 2;
    else if ((unit & 0xf800) !== 0xd800) bytes += 3;
    else if (unit < 0xdc00 && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 6;
  }
  return bytes;
}

/**
 * The UTF-8 length of JSON.stringify(value) without writing it, far cheaper than writing it, above all for a text of
 * lone surrogates (V8's slow path); with `strings: 'at least'`, strings count only their units and quotes (a unit is at
 * least one byte, escapes only add), so a document with a 2 MB description is found too large without reading its text.
 * `value` must be JSON data a walk or JSON.parse has built (no cycles, no toJSON). Members whose value is undefined are
 * left out and array entries that are undefined count as null, as JSON.stringify writes them.
 */
export function jsonBytes(value: unknown, strings: 'exact' | 'at least' = 'exact'): number {
  switch (typeof value) {
    case 'string':
      return strings === 'exact' ? writtenStringBytes(value) : value.length + 2;
    case 'number':
      // String(n) is JSON.stringify(n) for every number JSON.parse makes (finite; -0 is "0" in both).
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return 4; // what else JSON data holds: null (and undefined entries of an array, written as null)
  }
  if (value === null) return 4;
  if (Array.isArray(value)) {
    let bytes = 1 + Math.max(value.length, 1);
    for (let i = 0; i < value.length; i++) bytes += jsonBytes(value[i], strings);
    return bytes;
  }
  let bytes = 1;
  let members = 0;
  for (const key in value) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    bytes += (strings === 'exact' ? writtenStringBytes(key) : key.length + 2) + 2 + jsonBytes(member, strings); // colon, and a comma or the closing brace
    members++;
  }
  return members === 0 ? bytes + 1 : bytes;
}

/** The size problem of a walked document whose JSON is over the limit by its lower bound alone, else null. */
export function estimatedSizeProblem(session: unknown): Problem | null {
  const bound = jsonBytes(session, 'at least');
  return bound > MAX_JSON_BYTES ? sizeProblem(`at least ${BYTES(bound)}`) : null;
}

function decodedSizeMessage(size: string): Problem {
  return {
    path: 'link',
    message: `the decoded document is ${size} of JSON text as it is written back (escapes included) but at most ${BYTES(MAX_JSON_BYTES)} are allowed; a size-limit failure requires a smaller source plan`,
  };
}

/** How the codec measured a decoded text (Codec.jsonShape): what it is written as, at most, and its loose numbers. */
export interface WrittenMeasure {
  readonly writtenBytes: number;
  readonly looseNumbers: number;
  readonly loneSurrogates: number;
}

/**
 * Before the text is parsed: the size problem of a text the codec measured as written in more than MAX_JSON_BYTES
 * even with every number at its shortest, or null. (Duplicate keys, which JSON.parse merges, are counted: create never
 * writes them, so this refuses no document create made.)
 */
export function measuredSizeProblem(measure: WrittenMeasure): Problem | null {
  const atLeast = measure.writtenBytes - (MAX_NUMBER_BYTES - 1) * measure.looseNumbers;
  return atLeast > MAX_JSON_BYTES ? decodedSizeMessage(`at least ${BYTES(atLeast)}`) : null;
}

/** No number is written in more bytes than this (`-0.0000012345678901234567`). */
const MAX_NUMBER_BYTES = 25;

/**
 * The size problem of a decoded document read from a text of `textUnits` units, or null: its JSON as it will be
 * written is over MAX_JSON_BYTES. Counted only when the text could get there: by its length, or by the codec's measure
 * of what the text is written as at most (before defaults are filled in), when it measured it.
 */
export function decodedSizeProblem(session: unknown, textUnits: number, measure?: WrittenMeasure): Problem | null {
  const bound = Math.min(textUnits * MAX_WRITTEN_BYTES_PER_UNIT, measure?.writtenBytes ?? Number.POSITIVE_INFINITY);
  if (bound + MAX_DEFAULT_BYTES <= MAX_JSON_BYTES) return null;
  const bytes = jsonBytes(session);
  return bytes <= MAX_JSON_BYTES ? null : decodedSizeMessage(BYTES(bytes));
}

