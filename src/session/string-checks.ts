// A plain string leaf whose checks are lengths and character-class regexes, run as one loop instead of zod's checks.
import type { Accepts } from './leaf.js';

// Why: IDs (length 1..128, no control characters) and bounded texts are most of a document's values; as one loop
// they cost a fifth of a regex and less than zod's separate length checks. Only these exact regex shapes are read,
// from the regex source itself: ^[\s\S]{a,b}$, ^[^<\uXXXX ranges>]{a,b}$ and the same with * (test/unit/session-limits.test.ts
// compares the loop with the regex for every code unit; test/unit/session-walk.test.ts holds the walk to zod).

interface StringCheck {
  readonly check?: string;
  readonly format?: string;
  readonly pattern?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly length?: unknown;
}

const CLASS = /^\^\[(\^?)((?:\\u[0-9A-Fa-f]{4}(?:-\\u[0-9A-Fa-f]{4})?)+|\\s\\S)\](?:\{(\d+),(\d+)\}|\*)\$$/;
const RANGE = /\\u([0-9A-Fa-f]{4})(?:-\\u([0-9A-Fa-f]{4}))?/g;

interface Spec {
  min: number;
  max: number;
  /** Excluded code units as flat [from, to, from, to, …]. */
  readonly excluded: number[];
}

/** Adds one check to the spec; false when it is not one of the understood shapes. */
function add(spec: Spec, check: StringCheck): boolean {
  const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);
  switch (check.check) {
    case 'min_length':
      return number(check.minimum) !== null && ((spec.min = Math.max(spec.min, check.minimum as number)), true);
    case 'max_length':
      return number(check.maximum) !== null && ((spec.max = Math.min(spec.max, check.maximum as number)), true);
    case 'length_equals':
      if (number(check.length) === null) return false;
      spec.min = Math.max(spec.min, check.length as number);
      spec.max = Math.min(spec.max, check.length as number);
      return true;
    case 'string_format': {
      const pattern = check.pattern;
      if (check.format !== 'regex' || !(pattern instanceof RegExp) || pattern.flags !== '') return false;
      const shape = CLASS.exec(pattern.source);
      if (!shape) return false;
      const [, negated, body, low, high] = shape as unknown as [string, string, string, string | undefined, string | undefined];
      if (low !== undefined) {
        spec.min = Math.max(spec.min, Number(low));
        spec.max = Math.min(spec.max, Number(high));
      }
      if (body === '\\s\\S') return negated === '';
      if (negated !== '^') return false;
      for (const [, from, to] of body.matchAll(RANGE)) spec.excluded.push(parseInt(from!, 16), parseInt(to ?? from!, 16));
      return true;
    }
    default:
      return false;
  }
}

/** The loop for a plain string with these checks, or null when one of them is not understood. */
export function stringLoop(checks: readonly StringCheck[]): Accepts | null {
  const spec: Spec = { min: 0, max: Number.POSITIVE_INFINITY, excluded: [] };
  for (const check of checks) if (!add(spec, check)) return null;
  const { min, max, excluded } = spec;
  if (excluded.length === 0) return (v) => typeof v === 'string' && v.length >= min && v.length <= max;
  // Code units below 256 are looked up in a table, others against the ranges (no iterator in the loop).
  const low = new Uint8Array(256);
  for (let c = 0; c < 256; c++) for (let r = 0; r < excluded.length; r += 2) if (c >= excluded[r]! && c <= excluded[r + 1]!) low[c] = 1;
  const high = excluded.some((bound) => bound >= 256);
  return (v) => {
    if (typeof v !== 'string') return false;
    const length = v.length;
    if (length < min || length > max) return false;
    for (let i = 0; i < length; i++) {
      const c = v.charCodeAt(i);
      if (c < 256) {
        if (low[c] === 1) return false;
      } else if (high) {
        for (let r = 0; r < excluded.length; r += 2) if (c >= excluded[r]! && c <= excluded[r + 1]!) return false;
      }
    }
    return true;
  };
}
