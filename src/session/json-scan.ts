// A JSON text's shape read before JSON.parse: how deep it nests, how wide its objects are, and whether to look at all.

import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-chars.js';

/**
 * One pass over a JSON text, string contents skipped with indexOf: 'too-deep' when a container sits deeper than
 * `maxDepth` (the top-level value is depth 1), 'too-wide' when an object has more than `maxMembers` members. Text that
 * is not JSON gives some answer; JSON.parse refuses it afterwards either way.
 */
function scanShape(text: string, maxDepth: number, maxMembers: number): CostlyShape | undefined {
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

/** The number of occurrences of `char` in a text, counting stops once past `stop`. */
function countChar(text: string, char: string, stop: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count <= stop; i = text.indexOf(char, i + 1)) count++;
  return count;
}

/** Why JSON.parse of a text would cost far more than its size suggests. */
export type CostlyShape = 'too-deep' | 'too-wide';

/**
 * Why JSON.parse of this text would cost far more than its size suggests, or undefined: it nests deeper than `maxDepth`
 * or has an object of more than `maxMembers` members. V8 parses deeply nested arrays and objects of very many keys
 * (dictionary mode) many times slower than ordinary JSON of the same size, and blocks its thread meanwhile. Only a text
 * with more than SCAN_BEFORE_PARSE_OPENERS brackets or colons is scanned, so a usual text costs two native counts.
 */
export function costlyJsonShape(text: string, maxDepth: number, maxMembers: number): CostlyShape | undefined {
  // A text this short cannot hold more brackets or colons than that: no count needed (the usual small request).
  if (text.length <= SCAN_BEFORE_PARSE_OPENERS) return undefined;
  if (countOpeners(text, SCAN_BEFORE_PARSE_OPENERS) <= SCAN_BEFORE_PARSE_OPENERS && countChar(text, ':', SCAN_BEFORE_PARSE_OPENERS) <= SCAN_BEFORE_PARSE_OPENERS) {
    return undefined;
  }
  return scanShape(text, maxDepth, maxMembers);
}

/** The one sentence for a text refused for its shape; `what` names the text ("the request body", "the file"). */
export function costlyJsonSentence(shape: CostlyShape, what: string, maxDepth: number, maxMembers: number): string {
  return shape === 'too-deep' ? `${what} nests deeper than ${maxDepth} levels` : `${what} has an object with more than ${maxMembers.toLocaleString('en-US')} members`;
}
