// Limits of a session document's JSON text: its UTF-8 size (a lower bound first, then exact) and how deeply it nests.
import type { Problem } from './errors.js';
import { textLength, type JsonText } from './json-pieces.js';

/** The JSON text of a session is at most this many bytes in UTF-8 (docs/import-guide.md, "Limits"). */
export const MAX_JSON_BYTES = 2_000_000;

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
 * A lower bound of the UTF-8 length of `JSON.stringify(session)` without writing it: strings count their code units and
 * quotes (a code unit is at least one byte, escapes only add), numbers, literals, brackets, keys and separators
 * exactly, so for ASCII text without escapes it is the length. A document with a 2 MB description is refused this way
 * without serializing it. It visits every value once (not every character), and only
 * a document the walk has built may be given (JSON values, a few levels deep): an input never walked may be cyclic.
 */
export function jsonLowerBound(session: unknown): number {
  let bytes = 0;
  const visit = (node: unknown): void => {
    if (typeof node === 'string') bytes += node.length + 2;
    else if (typeof node === 'number') bytes += String(node).length;
    else if (typeof node !== 'object' || node === null) bytes += node === false ? 5 : 4; // true, null
    else if (Array.isArray(node)) {
      bytes += 1 + Math.max(node.length, 1); // brackets and the commas between entries
      for (let i = 0; i < node.length; i++) visit(node[i]);
    } else {
      bytes += 1; // braces, less the comma the first key does not have
      let keys = 0;
      for (const key in node) {
        bytes += key.length + 4; // quotes, colon, comma
        keys++;
        visit((node as Record<string, unknown>)[key]);
      }
      if (keys === 0) bytes += 1;
    }
  };
  visit(session);
  return bytes;
}

/** The size problem of a walked document whose JSON is over the limit by its lower bound alone, else null. */
export function estimatedSizeProblem(session: unknown): Problem | null {
  const bound = jsonLowerBound(session);
  return bound > MAX_JSON_BYTES ? sizeProblem(`at least ${BYTES(bound)}`) : null;
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
 * lone surrogates (V8's slow path). `value` must be JSON data a walk or JSON.parse has built (no cycles, no toJSON).
 */
export function writtenJsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return writtenStringBytes(value);
    case 'number':
      // String(n) is JSON.stringify(n) for every number JSON.parse makes (finite; -0 is "0" in both).
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return 4; // what else JSON data holds: null
  }
  if (value === null) return 4;
  if (Array.isArray(value)) {
    let bytes = 1 + Math.max(value.length, 1);
    for (let i = 0; i < value.length; i++) bytes += writtenJsonBytes(value[i]);
    return bytes;
  }
  let bytes = 1;
  let members = 0;
  for (const key in value) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    bytes += writtenStringBytes(key) + 2 + writtenJsonBytes(member); // colon, and a comma or the closing brace
    members++;
  }
  return members === 0 ? bytes + 1 : bytes;
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
  const bytes = writtenJsonBytes(session);
  return bytes <= MAX_JSON_BYTES ? null : decodedSizeMessage(BYTES(bytes));
}

/** Nesting kept from older documents is capped so that serializing a decode result can never exhaust the stack. */
export const MAX_DECODED_DEPTH = 64;

/**
 * A decoded document holds at most this many JSON values and this many objects and arrays, read from its text before
 * JSON.parse (the codec measures it in linear memory). What create makes stays far below: at most ~500,000 values (a
 * 2,000,000-byte text of one-character person IDs) and ~9,000 objects and arrays (500 breakouts with ten lanes of
 * people, 1,000 persons and block types); decode reads twice the item and list limits, ~30,000. Past those, JSON.parse
 * alone costs what no plan needs.
 */
export const MAX_DECODED_VALUES = 600_000;
export const MAX_DECODED_CONTAINERS = 40_000;

/**
 * A decoded document holds no list of more entries than this: a session's lists hold at most 1,000 (2,000 are still
 * read), and unknown data of older documents is kept as it is, but JSON.parse of one huge list makes a multi-MB array
 * on fresh pages, so a longer list is refused before the text is parsed (the codec reads it in linear memory, where
 * the look is cheap).
 */
export const MAX_DECODED_LIST_ENTRIES = 100_000;

/**
 * A document's strings hold at most this many unpaired UTF-16 surrogates, on create and on decode. Text people write
 * has none (one may be left where an editor cut an emoji in half), but each costs V8's slow path when the answer is
 * written, and a short link within every other limit could otherwise hold hundreds of thousands.
 */
export const MAX_UNPAIRED_SURROGATES = 10_000;

/** `\ud800`–`\udfff` escapes after a run of backslashes; an odd run is an escape, an even one escaped backslashes. */
const SURROGATE_ESCAPE = /\\+u[dD][89a-fA-F]/g;

/**
 * The problem of a create whose canonical JSON holds more than MAX_UNPAIRED_SURROGATES unpaired surrogates, or null.
 * JSON.stringify writes an unpaired surrogate as a `\u` escape and a pair as it is, so the escapes are the count; only
 * a text of six units per allowed surrogate can hold more, so small creates are not scanned.
 */
export function unpairedSurrogatesProblem(json: JsonText): Problem | null {
  if (textLength(json) <= 6 * MAX_UNPAIRED_SURROGATES) return null;
  let count = 0;
  for (const piece of typeof json === 'string' ? [json] : json) {
    for (const match of piece.matchAll(SURROGATE_ESCAPE)) if ((match[0].length - 3) % 2 === 1) count++;
  }
  return count <= MAX_UNPAIRED_SURROGATES ? null : { path: 'session', message: unpairedSurrogatesSentence(count), rule: { kind: 'brokenCharacters' } };
}

/**
 * A decoded document holds at most this many numbers that are not plain integers (fractions, exponents, more than 15
 * digits). A session's own numbers are all integers, and unknown data of older documents has no use for many more; but
 * each one costs V8 a floating-point parse and a shortest round-trip write (twice for an MCP answer), so a short link
 * that expands to hundreds of thousands of them costs what no plan needs.
 */
export const MAX_DECODED_LOOSE_NUMBERS = 10_000;

/** The problem of a decoded text the codec found holding more than MAX_DECODED_LOOSE_NUMBERS such numbers, or null. */
export function looseNumbersInDecodeProblem(count: number): Problem | null {
  return count <= MAX_DECODED_LOOSE_NUMBERS
    ? null
    : {
        path: 'link',
        message: `the decoded document holds ${count.toLocaleString('en-US')} numbers that are not whole numbers of up to 15 digits but at most ${MAX_DECODED_LOOSE_NUMBERS.toLocaleString('en-US')} are allowed (a session's own numbers are all whole)`,
      };
}

/** The problem of a decoded text whose strings the codec found holding more than MAX_UNPAIRED_SURROGATES, or null. */
export function unpairedSurrogatesInDecodeProblem(count: number): Problem | null {
  return count <= MAX_UNPAIRED_SURROGATES
    ? null
    : { path: 'link', message: `the decoded document ${unpairedSurrogatesSentence(count)}` };
}

function unpairedSurrogatesSentence(count: number): string {
  return `holds ${count.toLocaleString('en-US')} unpaired UTF-16 surrogates in its texts but at most ${MAX_UNPAIRED_SURROGATES.toLocaleString('en-US')} are allowed (text people write has none: each is half of a character such as an emoji)`;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;
const COLON = 58;

/**
 * One pass over a JSON text, string contents skipped with indexOf: 'too-deep' when a container sits deeper than
 * `maxDepth` (the top-level value is depth 1), 'too-wide' when an object has more than `maxMembers` members. Text that
 * is not JSON gives some answer; JSON.parse refuses it afterwards either way.
 */
function scanShape(text: string, maxDepth: number, maxMembers: number): 'too-deep' | 'too-wide' | undefined {
  // Per open container: -1 for an array, else the members of the object so far (a colon at its level starts one).
  const members: number[] = [];
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && text.charCodeAt(end - 1) === BACKSLASH) {
        let slashes = 1;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return undefined; // not JSON: JSON.parse refuses it at once
      i = end;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      members.push(c === OPEN_ARRAY ? -1 : 0);
      if (members.length > maxDepth) return 'too-deep';
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) members.pop();
    else if (c === COLON) {
      const top = members.length - 1;
      if (top >= 0 && members[top]! >= 0 && ++members[top]! > maxMembers) return 'too-wide';
    }
  }
  return undefined;
}

/**
 * nestsDeeperThan(JSON.parse(text), limit), read from the text: true when an array or object sits at depth `limit` or
 * more (the top-level value is depth 0). Read from the text, before JSON.parse: parsing deeply nested arrays costs V8 far
 * more than this scan. String contents are skipped with indexOf. Text that is not JSON gives some
 * answer; JSON.parse refuses it afterwards either way.
 */
export function textNestsDeeperThan(text: string, limit: number): boolean {
  return scanShape(text, limit, Number.POSITIVE_INFINITY) === 'too-deep';
}

/** True when a parsed JSON value nests deeper than `limit` (objects and arrays at depth `limit` or more; the value is 0). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  // Recursion stops at `limit`, so it is bounded; for...in rather than Object.values, which is slower on big objects.
  const visit = (node: object, depth: number): boolean => {
    if (depth >= limit) return true;
    if (Array.isArray(node)) {
      for (const child of node as unknown[]) if (typeof child === 'object' && child !== null && visit(child, depth + 1)) return true;
    } else {
      for (const key in node) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null && visit(child, depth + 1)) return true;
      }
    }
    return false;
  };
  return typeof value === 'object' && value !== null && visit(value, 0);
}

/**
 * A text with at most this many `[` and `{` nests at most this deep, which JSON.parse reads in a few ms: it is parsed
 * first and its value checked (when not canonical). One with more is scanned before parsing (textNestsDeeperThan,
 * ~5 ms per MB). Real plans have a few thousand; counting them is a native indexOf per bracket.
 */
export const SCAN_BEFORE_PARSE_OPENERS = 20_000;

/** The number of `[` and `{` in a text (inside strings too), counting stops once past `stop`. */
export function countOpeners(text: string, stop: number): number {
  let count = 0;
  for (const opener of ['[', '{']) {
    for (let i = text.indexOf(opener); i !== -1 && count <= stop; i = text.indexOf(opener, i + 1)) count++;
  }
  return count;
}

/** A request body (JSON-RPC envelope or REST body around a session) nests at most this deep; sessions need far less. */
export const MAX_REQUEST_DEPTH = MAX_DECODED_DEPTH + 36;
/** …and no object in it has more members than this (a session object has at most a dozen; unknown ones are refused). */
export const MAX_REQUEST_OBJECT_MEMBERS = 10_000;


/** The number of occurrences of `char` in a text, counting stops once past `stop`. */
function countChar(text: string, char: string, stop: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count <= stop; i = text.indexOf(char, i + 1)) count++;
  return count;
}

/**
 * Why JSON.parse of this text would cost far more than its size suggests, or undefined. V8 parses deeply nested arrays and
 * objects of very many keys (dictionary mode) many times slower than ordinary JSON of the same size, and the event
 * loop is blocked meanwhile. Only a text with more than SCAN_BEFORE_PARSE_OPENERS brackets or colons is scanned, so
 * the usual request costs two native counts. For the HTTP entry points, before JSON.parse of a body.
 */
export function costlyJsonShape(text: string): 'too-deep' | 'too-wide' | undefined {
  // A text this short cannot hold more brackets or colons than that: no count needed (the usual small request).
  if (text.length <= SCAN_BEFORE_PARSE_OPENERS) return undefined;
  if (countOpeners(text, SCAN_BEFORE_PARSE_OPENERS) <= SCAN_BEFORE_PARSE_OPENERS && countChar(text, ':', SCAN_BEFORE_PARSE_OPENERS) <= SCAN_BEFORE_PARSE_OPENERS) {
    return undefined;
  }
  return scanShape(text, MAX_REQUEST_DEPTH, MAX_REQUEST_OBJECT_MEMBERS);
}

/** The one sentence a refused body gets (MCP -32600, REST 400). */
export function costlyJsonSentence(shape: 'too-deep' | 'too-wide'): string {
  return shape === 'too-deep'
    ? `the request body nests deeper than ${MAX_REQUEST_DEPTH} levels`
    : `the request body has an object with more than ${MAX_REQUEST_OBJECT_MEMBERS.toLocaleString('en-US')} members`;
}
