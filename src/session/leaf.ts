// Fast acceptance tests derived from a zod leaf's own definition; whatever they do not accept is zod's to judge.
import type * as z from 'zod';

/** True only when zod would accept the value and return it unchanged; false means "ask zod". */
export type Accepts = (value: unknown) => boolean;

interface CheckDef {
  readonly check?: string;
  readonly format?: string;
  readonly pattern?: unknown;
  readonly value?: unknown;
  readonly inclusive?: boolean;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly length?: unknown;
}

interface LeafDef extends CheckDef {
  readonly type: string;
  readonly coerce?: boolean;
  readonly values?: readonly unknown[];
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
}

/** String formats whose whole check is `pattern.test` (zod's $ZodCheckStringFormat without a custom check). */
const PATTERN_FORMATS = new Set(['date', 'time']);

/** A regex that `test` can run statelessly (zod resets lastIndex; without g/y there is nothing to reset). */
function plainRegex(pattern: unknown): RegExp | null {
  return pattern instanceof RegExp && !pattern.global && !pattern.sticky ? pattern : null;
}

// `^[\s\S]{1,200}$` (a length) and `^[^\u0000-\u001F…]{1,128}$` (a length and excluded code units) are most of a
// document's checks; as loops they cost a fifth of the regex. Only these exact shapes are translated, from the
// regex source itself (test/session-walk.test.ts holds the walk to zod's verdicts).
const CLASS_WITH_LENGTH = /^\^\[(\^?)((?:\\u[0-9A-Fa-f]{4}(?:-\\u[0-9A-Fa-f]{4})?)+|\\s\\S)\]\{(\d+),(\d+)\}\$$/;
const RANGE = /\\u([0-9A-Fa-f]{4})(?:-\\u([0-9A-Fa-f]{4}))?/g;

/** `typeof v === 'string' && pattern.test(v)` as a loop for the two shapes above, else null. */
function regexAsLoop(pattern: RegExp): Accepts | null {
  const shape = pattern.flags === '' ? CLASS_WITH_LENGTH.exec(pattern.source) : null;
  if (!shape) return null;
  const [, negated, body, low, high] = shape as unknown as [string, string, string, string, string];
  const min = Number(low);
  const max = Number(high);
  if (body === '\\s\\S') return negated ? null : (v) => typeof v === 'string' && v.length >= min && v.length <= max;
  if (!negated) return null;
  // Code units below 256 are looked up in a table; others against the ranges (flat [from, to, …], no iterator).
  const bounds: number[] = [];
  for (const [, from, to] of body.matchAll(RANGE)) bounds.push(parseInt(from!, 16), parseInt(to ?? from!, 16));
  const low256 = new Uint8Array(256);
  for (let c = 0; c < 256; c++) for (let r = 0; r < bounds.length; r += 2) if (c >= bounds[r]! && c <= bounds[r + 1]!) low256[c] = 1;
  const highBounds = bounds.some((b) => b >= 256);
  return (v) => {
    if (typeof v !== 'string') return false;
    const length = v.length;
    if (length < min || length > max) return false;
    for (let i = 0; i < length; i++) {
      const c = v.charCodeAt(i);
      if (c < 256) {
        if (low256[c] === 1) return false;
      } else if (highBounds) {
        for (let r = 0; r < bounds.length; r += 2) if (c >= bounds[r]! && c <= bounds[r + 1]!) return false;
      }
    }
    return true;
  };
}

/** One check as a predicate over a value already known to be of the leaf's base type, or null if not understood. */
function checkPredicate(def: CheckDef): Accepts | null {
  switch (def.check) {
    case 'string_format': {
      const pattern = def.format === 'regex' || PATTERN_FORMATS.has(def.format ?? '') ? plainRegex(def.pattern) : null;
      return pattern && ((v) => pattern.test(v as string));
    }
    case 'min_length':
      return typeof def.minimum === 'number' ? ((min) => (v: unknown) => (v as string).length >= min)(def.minimum) : null;
    case 'max_length':
      return typeof def.maximum === 'number' ? ((max) => (v: unknown) => (v as string).length <= max)(def.maximum) : null;
    case 'length_equals':
      return typeof def.length === 'number' ? ((n) => (v: unknown) => (v as string).length === n)(def.length) : null;
    case 'greater_than': {
      const min = def.value;
      if (typeof min !== 'number') return null;
      return def.inclusive ? (v) => (v as number) >= min : (v) => (v as number) > min;
    }
    case 'less_than': {
      const max = def.value;
      if (typeof max !== 'number') return null;
      return def.inclusive ? (v) => (v as number) <= max : (v) => (v as number) < max;
    }
    default:
      return null;
  }
}

/** The base type test of a leaf (before its checks), or null for leaf kinds left to zod entirely. */
function basePredicate(def: LeafDef): Accepts | null {
  if (def.coerce) return null;
  switch (def.type) {
    case 'string': {
      if (def.format === undefined) return (v) => typeof v === 'string';
      const pattern = PATTERN_FORMATS.has(def.format) ? plainRegex(def.pattern) : null;
      return pattern && ((v) => typeof v === 'string' && pattern.test(v));
    }
    case 'number':
      if (def.format === undefined) return (v) => typeof v === 'number' && Number.isFinite(v);
      return def.format === 'safeint' ? (v) => Number.isSafeInteger(v) : null;
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'literal': {
      const values = def.values ?? [];
      return values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)) ? (v) => values.includes(v) : null;
    }
    default:
      return null;
  }
}

/**
 * The acceptance test of a leaf schema: its base type and every check, all understood, else null (zod decides every
 * value). A ZodStringFormat is its own format check (its def carries `format` and `pattern`), so it is not repeated.
 */
export function leafAccepts(schema: z.ZodType): Accepts | null {
  const def = schema._zod.def as unknown as LeafDef;
  const base = basePredicate(def);
  if (base === null) return null;
  // A plain string with one such regex is that loop alone: a wrapper closure per leaf would make every call site
  // polymorphic (the closures share their feedback) and cost more than the check.
  const only = def.checks?.length === 1 ? def.checks[0]!._zod.def : undefined;
  if (def.type === 'string' && def.format === undefined && only?.check === 'string_format' && only.format === 'regex') {
    const pattern = plainRegex(only.pattern);
    const loop = pattern && regexAsLoop(pattern);
    if (loop) return loop;
  }
  const checks: Accepts[] = [];
  for (const check of def.checks ?? []) {
    const predicate = checkPredicate(check._zod.def);
    if (predicate === null) return null;
    checks.push(predicate);
  }
  if (checks.length === 0) return base;
  if (checks.length === 1) {
    const [only] = checks as [Accepts];
    return (v) => base(v) && only(v);
  }
  return (v) => base(v) && checks.every((check) => check(v));
}
