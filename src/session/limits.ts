// What a document may hold besides its size: nesting, values, lists, unpaired surrogates, numbers that are not whole.
import type { Problem } from './errors.js';
import { textLength, type JsonText } from './json-pieces.js';

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

