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
      if (value === undefined) return plan.prefault ? walk(plan.inner, plan.defaultValue(), w) : plan.defaultValue();
      const result = walk(plan.inner, value, w);
      return result === undefined ? plan.defaultValue() : result;
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
  if (length > plan.maxItems) {
    w.report({ code: 'too_big', maximum: plan.maxItems, origin: 'array', inclusive: true, input: value, path: [], message: '' } as Issue);
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
  if (length < plan.minItems) {
    w.report({ code: 'too_small', minimum: plan.minItems, origin: 'array', inclusive: true, input: value, path: [], message: '' } as Issue);
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

// ---- the same plan asked a yes/no question: would the parse return this very value? ----

/** An object a JSON text makes: its prototype is Object.prototype (no class, no toJSON of its own, no null prototype). */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function isJsonArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

/**
 * True only when the schema accepts `value` and its parse would return a value equal to it with every key in the same
 * place: nothing filled in, nothing reordered, every leaf accepted by its fast test. Then `value` can stand for the
 * parse's output (a canonical document as its own normalized form, a decoded document as it is shown). False says
 * nothing: ask checkShape. One visit per known value, no output, no problems.
 */
export function isUnchanged<T>(schema: z.ZodType<T>, value: unknown, mode: IssueMode): value is T {
  return unchangedTest(planOf(schema), mode === 'create')(value) >= 0;
}

/**
 * isUnchanged, answered with the value's object members (own keys, summed over every object) when it is unchanged, so
 * that its JSON text's member count comes from the same visit; -1 when it is not.
 */
export function unchangedMembers(schema: z.ZodType, value: unknown, mode: IssueMode): number {
  return unchangedTest(planOf(schema), mode === 'create')(value);
}

/** A value's object members when the parse returns it unchanged, else -1. */
type Test = (value: unknown) => number;

const unchangedTests = { create: new WeakMap<Plan, Test>(), decode: new WeakMap<Plan, Test>() };

/**
 * The question compiled once per plan into a function per node, so that each check runs in a function of its own
 * rather than one switch over every kind of node.
 */
function unchangedTest(plan: Plan, create: boolean): Test {
  const cache = create ? unchangedTests.create : unchangedTests.decode;
  const known = cache.get(plan);
  if (known !== undefined) return known;
  // A recursive plan meets itself while being compiled: the indirection resolves once the test is built.
  let built: Test | undefined;
  cache.set(plan, (value) => built!(value));
  built = compileUnchanged(plan, create);
  cache.set(plan, built);
  return built;
}

function compileUnchanged(plan: Plan, create: boolean): Test {
  switch (plan.kind) {
    case 'leaf': {
      const accepts = plan.accepts;
      return accepts === null ? () => -1 : (value) => (accepts(value) ? 0 : -1);
    }
    case 'object': {
      const keys = plan.keys;
      const fields = plan.fields.map((field) => unchangedTest(field, create));
      const loose = plan.loose;
      return (value) => {
        if (!isJsonObject(value)) return -1;
        // Shape keys first, in schema order (zod's output order); then, in a loose object, the unknown ones. Reading
        // value[key] inside for-in over that object is a load by position in V8, not a lookup by name.
        let at = 0;
        let members = 0;
        for (const key in value) {
          let inner: number;
          if (at < keys.length) {
            if (key !== keys[at]) return -1;
            inner = fields[at]!(value[key]);
            if (inner < 0) return -1;
          } else if (loose) inner = objectMembers(value[key]);
          else return -1;
          members += 1 + inner;
          at++;
        }
        if (at < keys.length) return -1;
        return members;
      };
    }
    case 'array': {
      const element = unchangedTest(plan.element, create);
      const { minItems, maxItems } = plan;
      return (value) => {
        if (!isJsonArray(value) || value.length < minItems || value.length > maxItems) return -1;
        let members = 0;
        // Every index is read, so a hole (undefined) is refused as zod refuses it.
        for (let i = 0; i < value.length; i++) {
          const inner = element(value[i]);
          if (inner < 0) return -1;
          members += inner;
        }
        return members;
      };
    }
    case 'union': {
      const options = new Map([...plan.options].map(([tag, option]) => [tag, unchangedTest(option, create)]));
      const discriminator = plan.discriminator;
      return (value) => {
        if (!isJsonObject(value)) return -1;
        const option = options.get(value[discriminator]);
        return option === undefined ? -1 : option(value);
      };
    }
    case 'record': {
      const accepts = plan.key.accepts;
      if (accepts === null) return () => -1;
      const entry = unchangedTest(plan.value, create);
      return (value) => {
        if (!isJsonObject(value)) return -1;
        let members = 0;
        for (const key in value) {
          if ((create && RESERVED_KEYS.has(key)) || !accepts(key)) return -1;
          const inner = entry(value[key]);
          if (inner < 0) return -1;
          members += 1 + inner;
        }
        return members;
      };
    }
    case 'nullable': {
      const inner = unchangedTest(plan.inner, create);
      return (value) => (value === null ? 0 : inner(value));
    }
    case 'default': {
      const inner = unchangedTest(plan.inner, create);
      return (value) => (value === undefined ? -1 : inner(value));
    }
    case 'any':
      return objectMembers;
  }
}

/** Object members of any JSON value (unknown data kept as it is). */
function objectMembers(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) count += objectMembers(value[i]);
  else for (const key in value) count += 1 + objectMembers((value as Record<string, unknown>)[key]);
  return count;
}
