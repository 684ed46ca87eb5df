// The schema walk behind both directions: zod's rules and zod's output, stopping after the few problems a message shows.
import type * as z from 'zod';
import type { Problem } from './errors.js';
import { problemFromIssue, type IssueMode } from './issues.js';
import { RESERVED_KEYS } from './paths.js';
import { planOf, type ArrayPlan, type LeafPlan, type ObjectPlan, type Plan, type RecordPlan, type UnionPlan } from './plan.js';

// Why not zod's parse: it collects an issue (with path and message) for every bad element before it returns, so a
// 2 MB document of wrong types costs seconds. This walk follows the same definitions (plan.ts), lets zod judge every
// leaf it does not accept outright (leaf.ts), builds the same output (shape keys in schema order, then the unknown
// keys of loose objects in input order; test/unit/session-walk.test.ts compares it with zod), and stops at the first
// problem past `limit`. Its cost is one visit per value of the known structure; unknown values are never entered.

type Issue = z.core.$ZodIssue;

const INVALID: unique symbol = Symbol('invalid');

export interface WalkOptions {
  /** Sentences for create (unknown keys are errors) or decode (they are kept). */
  readonly mode: IssueMode;
  /** Problems listed in full; the next one stops the walk and sets `more`. */
  readonly limit: number;
  /** Build the output (false: only the verdict and the problems, as for the warnings of decode). */
  readonly build: boolean;
}

export type Shape<T> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly problems: Problem[]; readonly more: boolean };

class Walk {
  readonly path: PropertyKey[] = [];
  readonly problems: Problem[] = [];
  /** A problem beyond the limit was found: the walk unwinds without looking further. */
  more = false;

  constructor(readonly options: WalkOptions) {}

  /** Builds the problem's path and sentence only while it will be listed. */
  report(issue: Issue): void {
    if (this.problems.length >= this.options.limit) this.more = true;
    else this.problems.push(problemFromIssue(issue, this.path, this.options.mode));
  }
}

/** Validates `value` against `schema` with a problem budget; with `build`, `data` is what zod's parse would return. */
export function checkShape<T>(schema: z.ZodType<T>, value: unknown, options: WalkOptions): Shape<T> {
  const w = new Walk(options);
  const result = walk(planOf(schema), value, w);
  if (result !== INVALID && w.problems.length === 0 && !w.more) return { ok: true, data: result as T };
  return { ok: false, problems: w.problems, more: w.more };
}

function walk(plan: Plan, value: unknown, w: Walk): unknown {
  switch (plan.kind) {
    case 'leaf':
      return plan.accepts !== null && plan.accepts(value) ? value : leafByZod(plan, value, w);
    case 'object':
      return walkObject(plan, value, w);
    case 'array':
      return walkArray(plan, value, w);
    case 'union':
      return walkUnion(plan, value, w);
    case 'record':
      return walkRecord(plan, value, w);
    case 'nullable':
      return value === null ? null : walk(plan.inner, value, w);
    case 'default': {
      if (value === undefined) return plan.prefault ? walk(plan.inner, plan.def.defaultValue, w) : plan.def.defaultValue;
      const result = walk(plan.inner, value, w);
      return result === undefined ? plan.def.defaultValue : result;
    }
    case 'any':
      return value;
  }
}

/** zod's own verdict and sentences for a leaf value the fast test did not accept. */
function leafByZod(plan: LeafPlan, value: unknown, w: Walk): unknown {
  const result = plan.schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    w.report(issue);
    if (w.more) break;
  }
  return INVALID;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's isPlainObject (what its records accept). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor: unknown = value.constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}

/** An own, enumerable property even for `__proto__` (plain assignment would replace the prototype instead). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

const invalidType = (expected: string, input: unknown): Issue => ({ code: 'invalid_type', expected, input, path: [], message: '' }) as Issue;
const unknownKey = (key: string, input: unknown): Issue => ({ code: 'unrecognized_keys', keys: [key], input, path: [], message: '' }) as Issue;

function walkObject(plan: ObjectPlan, value: unknown, w: Walk): unknown {
  if (!isObject(value)) {
    w.report(invalidType('object', value));
    return INVALID;
  }
  const out: Record<string, unknown> | null = w.options.build ? {} : null;
  let ok = true;
  const { keys, fields } = plan;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const field = fields[i]!;
    w.path.push(key);
    const result = walk(field, value[key], w);
    if (result !== INVALID && result === undefined && field.kind !== 'default' && !(key in value)) {
      w.report({ code: 'invalid_type', expected: 'nonoptional', input: undefined, path: [], message: '' } as Issue);
      ok = false;
    }
    w.path.pop();
    if (result === INVALID) {
      if (w.more) return INVALID;
      ok = false;
    } else if (out !== null && (result !== undefined || key in value || field.kind === 'default')) out[key] = result;
  }
  if (plan.loose) {
    if (out !== null) for (const key in value) if (!plan.keySet.has(key)) setOwn(out, key, value[key]);
  } else {
    for (const key in value) {
      if (plan.keySet.has(key)) continue;
      w.report(unknownKey(key, value));
      if (w.more) return INVALID;
      ok = false;
    }
  }
  return ok ? (out ?? value) : INVALID;
}

function walkArray(plan: ArrayPlan, value: unknown, w: Walk): unknown {
  if (!Array.isArray(value)) {
    w.report(invalidType('array', value));
    return INVALID;
  }
  const length = value.length;
  // Like zod (capSize): a list over its maximum is reported as such, its entries are not looked at.
  for (const check of plan.checks) {
    if (check.kind !== 'max_length' || length <= check.bound) continue;
    w.report({ code: 'too_big', maximum: check.bound, origin: 'array', inclusive: true, input: value, path: [], message: '' } as Issue);
    return INVALID;
  }
  const out: unknown[] | null = w.options.build ? new Array<unknown>(length) : null;
  const element = plan.element;
  // Arrays of leaves (ID lists) are most of a document's values: accepted entries skip the path bookkeeping.
  const accepts = element.kind === 'leaf' ? element.accepts : null;
  let ok = true;
  for (let i = 0; i < length; i++) {
    const entry: unknown = value[i];
    if (accepts !== null && accepts(entry)) {
      if (out !== null) out[i] = entry;
      continue;
    }
    w.path.push(i);
    const result = walk(element, entry, w);
    w.path.pop();
    if (result === INVALID) {
      if (w.more) return INVALID;
      ok = false;
    } else if (out !== null) out[i] = result;
  }
  for (const check of plan.checks) {
    if (check.kind !== 'min_length' || length >= check.bound) continue;
    w.report({ code: 'too_small', minimum: check.bound, origin: 'array', inclusive: true, input: value, path: [], message: '' } as Issue);
    if (w.more) return INVALID;
    ok = false;
  }
  return ok ? (out ?? value) : INVALID;
}

function walkUnion(plan: UnionPlan, value: unknown, w: Walk): unknown {
  if (!isObject(value)) {
    w.report(invalidType('object', value));
    return INVALID;
  }
  const option = plan.options.get(value[plan.discriminator]);
  if (option !== undefined) return walk(option, value, w);
  // zod's issue for a missing or unknown discriminator, with the allowed values (issues.ts turns it into a sentence).
  const options = [...plan.options.keys()];
  w.report({ code: 'invalid_union', errors: [], options, input: value, path: [plan.discriminator], message: '' } as Issue);
  return INVALID;
}

/** A record key as zod's key schema judges it (the fast test first). */
function keyAccepted(plan: LeafPlan, key: string): boolean {
  return (plan.accepts !== null && plan.accepts(key)) || plan.schema.safeParse(key).success;
}

function walkRecord(plan: RecordPlan, value: unknown, w: Walk): unknown {
  if (!isPlainObject(value)) {
    w.report(invalidType('record', value));
    return INVALID;
  }
  const out: Record<string, unknown> | null = w.options.build ? {} : null;
  const { key: keyPlan, value: valuePlan } = plan;
  let ok = true;
  for (const key of Object.keys(value)) {
    // zod skips `__proto__` here without a word; create refuses the reserved names, decode keeps them (setOwn).
    if (w.options.mode === 'create' && RESERVED_KEYS.has(key)) w.report(unknownKey(key, value));
    else if (!keyAccepted(keyPlan, key)) w.report({ code: 'invalid_key', origin: 'record', issues: [], input: key, path: [key], message: '' } as Issue);
    else {
      w.path.push(key);
      const result = walk(valuePlan, value[key], w);
      w.path.pop();
      if (result !== INVALID) {
        if (out !== null) setOwn(out, key, result);
        continue;
      }
    }
    if (w.more) return INVALID;
    ok = false;
  }
  return ok ? (out ?? value) : INVALID;
}
