// A request id is echoed exactly as its JSON text was sent: a number's text, when parsing would change it, is kept.
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../session/json-chars.js';

/**
 * A numeric id whose value does not write back to the text the client sent (`12345678901234567890`, `-0`, `1.0`,
 * `1e400`): the text itself, echoed verbatim in the answer.
 */
export class NumberText {
  constructor(readonly text: string) {}
}


const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index after the string whose opening quote is at `at`. */
function skipString(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** The index after the value that starts at `at` (valid JSON assumed: the text was parsed already). */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return skipString(text, at);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let i = at;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i);
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

/** The raw text of the first member named exactly `"id"` of the top-level object in `json`, or undefined. */
export function idMemberText(json: string): string | undefined {
  let i = json.indexOf('{');
  if (i < 0) return undefined;
  i++;
  for (;;) {
    while (i < json.length && (isSpace(json.charCodeAt(i)) || json.charCodeAt(i) === COMMA)) i++;
    if (json.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(json, i);
    const isId = keyEnd - i === 4 && json.startsWith('"id"', i);
    i = keyEnd;
    while (i < json.length && (isSpace(json.charCodeAt(i)) || json.charCodeAt(i) === COLON)) i++;
    const valueEnd = skipValue(json, i);
    if (isId) return json.slice(i, valueEnd);
    i = valueEnd;
  }
}

/**
 * The id to echo for a parsed numeric id `value`: the number itself when it writes back to the text sent, else that
 * text (a duplicate `id` member, whose first text is not the value JSON.parse kept, falls back to the number).
 */
export function numericId(value: number, json: string): number | NumberText | undefined {
  const text = idMemberText(json);
  if (text === undefined) return Number.isFinite(value) ? value : undefined;
  if (Number.isFinite(value) && text === JSON.stringify(value)) return value;
  return Object.is(Number(text), value) ? new NumberText(text) : Number.isFinite(value) ? value : undefined;
}

/** An id as JSON text. */
export function idJson(id: string | number | NumberText): string {
  return id instanceof NumberText ? id.text : JSON.stringify(id);
}
