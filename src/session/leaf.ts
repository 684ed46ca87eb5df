// Fast acceptance tests derived from a zod leaf's own definition; whatever they do not accept is zod's to judge.
import type * as z from 'zod';
import { stringLoop } from './string-checks.js';

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
  // A plain string's lengths and class regexes are one loop (string-checks.ts); it also avoids a wrapper closure per
  // leaf, which would make every call site polymorphic (the closures share their feedback).
  if (def.type === 'string' && def.format === undefined) {
    const loop = stringLoop((def.checks ?? []).map((check) => check._zod.def));
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
