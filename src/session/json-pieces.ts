// JSON text in pieces: what JSON.stringify gives, as a list of short strings, for large documents.
//
// Why: V8 returns a long JSON.stringify result as a tree of parts, and whatever reads it as a whole (an encoder, the
// codec's copy into linear memory, JSON-escaping it again) first copies it into one new multi-MB string. Such fresh
// memory costs a page fault per 4 KB page on first touch, expensive on virtual machines, and a large create or
// decode would make two or three such copies. Short pieces are read where they are.

/** JSON text: one string, or consecutive pieces whose concatenation is the text. */
export type JsonText = string | readonly string[];

/** Pieces aim at this many characters: far below V8's large-object size (128 KB), so a piece never needs fresh pages. */
export const PIECE_CHARS = 16 * 1024;
/** Containers nested deeper than this are written whole (decoded documents are refused past 64 levels anyway). */
const MAX_SPLIT_DEPTH = 100;
/** roughSize looks this deep and assumes anything deeper is large. */
const MAX_SIZE_DEPTH = 6;

/**
 * JSON.stringify(value) — as pieces when `large` and the text is (roughly) longer than a piece, else as one string.
 * `value` must be JSON data (what JSON.parse and plain literals make: no toJSON, no getters), as every document here is.
 */
export function jsonText(value: unknown, large: boolean, pieceChars = PIECE_CHARS): JsonText {
  if (!large || roughSize(value, pieceChars, 0) <= pieceChars) return JSON.stringify(value);
  const writer = new PieceWriter(pieceChars);
  writer.value(value, 0);
  return writer.finish();
}

/** The JSON string literal of a text, i.e. JSON.stringify(text as one string), in pieces when the text is in pieces. */
export function jsonStringLiteral(text: JsonText): JsonText {
  if (typeof text === 'string') return JSON.stringify(text);
  // Escaping is per character, and no piece boundary splits a surrogate pair, so each piece is escaped on its own.
  const out = ['"'];
  for (const piece of text) {
    const quoted = JSON.stringify(piece);
    out.push(quoted.slice(1, quoted.length - 1));
  }
  out.push('"');
  return out;
}

/** Texts one after the other: a string when every part is one, else pieces. */
export function concatText(parts: readonly JsonText[]): JsonText {
  // Strings are added with +, as a template literal would: V8 links them instead of copying them into a new string.
  let joined = '';
  for (const part of parts) {
    if (typeof part !== 'string') return concatPieces(parts);
    joined += part;
  }
  return joined;
}

function concatPieces(parts: readonly JsonText[]): readonly string[] {
  const out: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') out.push(part);
    else for (const piece of part) out.push(piece);
  }
  return out;
}

/** The text's length in UTF-16 units. */
export function textLength(text: JsonText): number {
  if (typeof text === 'string') return text.length;
  let length = 0;
  for (const piece of text) length += piece.length;
  return length;
}

/** The text as one string (for short texts, or where one string is needed anyway). */
export function joinText(text: JsonText): string {
  return typeof text === 'string' ? text : text.join('');
}

/**
 * A rough length of value's JSON text, good enough to tell a short text from a long one: exact for strings, a guess
 * for numbers, three samples for long arrays; it stops adding once past `budget`. Bounded work whatever the value:
 * every step adds at least one character, and the sampled arrays are looked into at most MAX_SIZE_DEPTH levels deep.
 */
function roughSize(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'object':
      break;
    default:
      return 8; // numbers, booleans (null is an object here)
  }
  if (value === null) return 4;
  if (depth >= MAX_SIZE_DEPTH) return budget + 1;
  if (Array.isArray(value)) {
    const n = value.length;
    if (n > budget) return n;
    if (n <= 8) {
      let size = 2 + n;
      for (let i = 0; i < n && size <= budget; i++) size += roughSize(value[i], budget - size, depth + 1);
      return size;
    }
    const samples = roughSize(value[0], budget, depth + 1) + roughSize(value[n >> 1], budget, depth + 1) + roughSize(value[n - 1], budget, depth + 1);
    return 2 + n + (samples * n) / 3;
  }
  let size = 2;
  for (const key in value) {
    size += key.length + 4 + roughSize((value as Record<string, unknown>)[key], budget - size, depth + 1);
    if (size > budget) break;
  }
  return size;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** Writes JSON text in pieces of about `pieceChars`: short writes are gathered, long ones stand alone. */
class PieceWriter {
  readonly #pieces: string[] = [];
  readonly #pieceChars: number;
  #pending = '';

  constructor(pieceChars: number) {
    this.#pieceChars = pieceChars;
  }

  finish(): readonly string[] {
    if (this.#pending.length > 0) this.#pieces.push(this.#pending);
    return this.#pieces;
  }

  #write(text: string): void {
    if (this.#pending.length + text.length <= this.#pieceChars) {
      this.#pending += text;
      return;
    }
    if (this.#pending.length > 0) this.#pieces.push(this.#pending);
    this.#pending = '';
    if (text.length > this.#pieceChars) this.#pieces.push(text);
    else this.#pending = text;
  }

  /** JSON.stringify(value), split where it is large. */
  value(value: unknown, depth: number): void {
    const pieceChars = this.#pieceChars;
    if (typeof value === 'string') return value.length > pieceChars ? this.#longString(value) : this.#write(JSON.stringify(value));
    if (typeof value !== 'object' || value === null || depth > MAX_SPLIT_DEPTH || roughSize(value, pieceChars, 0) <= pieceChars) {
      // JSON.stringify gives undefined for what has no JSON (undefined, functions, symbols): in a list that is null.
      return this.#write(JSON.stringify(value) ?? 'null');
    }
    if (Array.isArray(value)) this.#array(value as unknown[], depth);
    else this.#object(value as Record<string, unknown>, depth);
  }

  /**
   * Elements in blocks: as many as a piece holds by the rough size of three samples go through one JSON.stringify (a
   * list of 900,000 numbers takes ~700 calls, not 900,000); an element too large to share a piece is written alone.
   * Samples can misjudge a block of mixed sizes, which makes a longer piece, never a different text.
   */
  #array(values: unknown[], depth: number): void {
    this.#write('[');
    const pieceChars = this.#pieceChars;
    const n = values.length;
    for (let i = 0; i < n; ) {
      const last = n - 1;
      const sampled = roughSize(values[i], pieceChars, 0) + roughSize(values[Math.min(last, i + 16)], pieceChars, 0) + roughSize(values[Math.min(last, i + 256)], pieceChars, 0);
      const count = Math.min(n - i, Math.floor((3 * pieceChars) / (sampled + 3)));
      if (count >= 2) {
        const json = JSON.stringify(values.slice(i, i + count));
        this.#write(`${i > 0 ? ',' : ''}${json.slice(1, json.length - 1)}`);
        i += count;
        continue;
      }
      if (i > 0) this.#write(',');
      this.value(values[i], depth + 1);
      i++;
    }
    this.#write(']');
  }

  #object(object: Record<string, unknown>, depth: number): void {
    this.#write('{');
    let first = true;
    for (const key of Object.keys(object)) {
      const value = object[key];
      // JSON.stringify leaves such members out.
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      this.#write(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      this.value(value, depth + 1);
    }
    this.#write('}');
  }

  /** A string longer than a piece, in slices that never separate the two halves of a surrogate pair. */
  #longString(text: string): void {
    this.#write('"');
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + this.#pieceChars, text.length);
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end++;
      const quoted = JSON.stringify(text.slice(start, end));
      this.#write(quoted.slice(1, quoted.length - 1));
      start = end;
    }
    this.#write('"');
  }
}
