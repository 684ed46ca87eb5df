// A zod schema's definitions read once into the plan the walker follows: structure here, leaves judged by zod.
import type * as z from 'zod';
import { leafAccepts, type Accepts } from './leaf.js';

// Why a plan: the walker (walk.ts) must stop after a few problems, which zod's own parse cannot do (it collects an
// issue per element). The plan mirrors exactly the zod constructs the session schemas use; anything else throws
// here, at startup, rather than being validated differently from zod.

export type Plan = ObjectPlan | ArrayPlan | UnionPlan | RecordPlan | DefaultPlan | NullablePlan | LeafPlan | AnyPlan;

export interface ObjectPlan {
  readonly kind: 'object';
  /** Shape keys in schema order (zod's output order), with their plans. */
  readonly keys: string[];
  readonly fields: Plan[];
  readonly keySet: Set<string>;
  /** Loose objects keep unknown keys (after the shape keys, in input order); strict ones report them. */
  loose: boolean;
}

export interface LengthCheck {
  readonly kind: 'min_length' | 'max_length';
  readonly bound: number;
}

export interface ArrayPlan {
  readonly kind: 'array';
  element: Plan;
  readonly checks: LengthCheck[];
}

export interface UnionPlan {
  readonly kind: 'union';
  readonly discriminator: string;
  /** Discriminator value → option, in option order (zod lists the allowed values in that order). */
  readonly options: Map<unknown, Plan>;
}

export interface RecordPlan {
  readonly kind: 'record';
  key: LeafPlan;
  value: Plan;
}

export interface DefaultPlan {
  readonly kind: 'default';
  inner: Plan;
  /** zod's def: reading `defaultValue` gives a fresh value each time (a function result or a shallow clone). */
  readonly def: { readonly defaultValue: unknown };
  /** prefault: the default goes through the inner schema; default: it is the output as it is. */
  readonly prefault: boolean;
}

export interface NullablePlan {
  readonly kind: 'nullable';
  inner: Plan;
}

export interface LeafPlan {
  readonly kind: 'leaf';
  readonly schema: z.ZodType;
  readonly accepts: Accepts | null;
}

export interface AnyPlan {
  readonly kind: 'any';
}

type AnyDef = {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: { readonly check?: string; readonly minimum?: unknown; readonly maximum?: unknown } } }[];
  readonly [key: string]: unknown;
};

const LEAF_TYPES = new Set(['string', 'number', 'boolean', 'null', 'literal']);

function defOf(schema: z.ZodType): AnyDef {
  return schema._zod.def as unknown as AnyDef;
}

function unsupported(what: string): never {
  throw new Error(`session validation plan: ${what} is not supported; extend src/session/plan.ts before using it in a schema`);
}

function noChecks(def: AnyDef, what: string): void {
  if ((def.checks ?? []).length > 0) unsupported(`a check on ${what}`);
}

function lengthChecks(def: AnyDef): LengthCheck[] {
  return (def.checks ?? []).map((check) => {
    const { check: kind, minimum, maximum } = check._zod.def;
    if (kind === 'min_length' && typeof minimum === 'number') return { kind, bound: minimum };
    if (kind === 'max_length' && typeof maximum === 'number') return { kind, bound: maximum };
    return unsupported(`the array check ${String(kind)}`);
  });
}

const plans = new WeakMap<z.ZodType, Plan>();

/** The plan of a schema (cached; recursive schemas resolve to the same plan object). */
export function planOf(schema: z.ZodType): Plan {
  const known = plans.get(schema);
  if (known) return known;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      noChecks(def, 'an object');
      const catchall = (def.catchall as z.ZodType | undefined) ? defOf(def.catchall as z.ZodType).type : 'strip';
      if (catchall !== 'never' && catchall !== 'unknown') unsupported(`an object with catchall "${catchall}"`);
      const plan: ObjectPlan = { kind: 'object', keys: [], fields: [], keySet: new Set(), loose: catchall === 'unknown' };
      plans.set(schema, plan);
      // Reading `shape` resolves its getters once (zod freezes the shape); recursion meets the cached plan above.
      const shape = def.shape as Record<string, z.ZodType>;
      for (const key of Object.keys(shape)) {
        const field = shape[key]!;
        const optin = field._zod.optin;
        if (optin !== undefined && optin !== 'defaulted') unsupported(`an optional field (${key})`);
        plan.keys.push(key);
        plan.keySet.add(key);
        plan.fields.push(planOf(field));
      }
      return plan;
    }
    case 'array': {
      const plan: ArrayPlan = { kind: 'array', element: { kind: 'any' }, checks: lengthChecks(def) };
      plans.set(schema, plan);
      plan.element = planOf(def.element as z.ZodType);
      return plan;
    }
    case 'union': {
      noChecks(def, 'a union');
      const discriminator = def.discriminator;
      if (typeof discriminator !== 'string' || def.unionFallback) unsupported('a union without a discriminator');
      const plan: UnionPlan = { kind: 'union', discriminator, options: new Map() };
      plans.set(schema, plan);
      for (const option of def.options as z.ZodType[]) {
        const shape = defOf(option).shape as Record<string, z.ZodType> | undefined;
        const values = shape?.[discriminator]?._zod.values;
        if (!values || values.size === 0) unsupported('a union option without a literal discriminator');
        for (const value of values) plan.options.set(value, planOf(option));
      }
      return plan;
    }
    case 'record': {
      noChecks(def, 'a record');
      if (def.mode !== undefined && def.mode !== 'strict') unsupported(`a record in mode ${String(def.mode)}`);
      const keyType = def.keyType as z.ZodType;
      if (keyType._zod.values) unsupported('a record with enumerated keys');
      const plan: RecordPlan = { kind: 'record', key: leafPlan(keyType), value: { kind: 'any' } };
      plans.set(schema, plan);
      plan.value = planOf(def.valueType as z.ZodType);
      return plan;
    }
    case 'default':
    case 'prefault': {
      noChecks(def, def.type);
      const plan: DefaultPlan = { kind: 'default', inner: { kind: 'any' }, def: def as unknown as { defaultValue: unknown }, prefault: def.type === 'prefault' };
      plans.set(schema, plan);
      plan.inner = planOf(def.innerType as z.ZodType);
      return plan;
    }
    case 'nullable': {
      noChecks(def, 'a nullable');
      const plan: NullablePlan = { kind: 'nullable', inner: { kind: 'any' } };
      plans.set(schema, plan);
      plan.inner = planOf(def.innerType as z.ZodType);
      return plan;
    }
    case 'unknown':
    case 'any': {
      noChecks(def, def.type);
      const plan: AnyPlan = { kind: 'any' };
      plans.set(schema, plan);
      return plan;
    }
    default: {
      const plan = leafPlan(schema);
      plans.set(schema, plan);
      return plan;
    }
  }
}

function leafPlan(schema: z.ZodType): LeafPlan {
  const type = defOf(schema).type;
  if (!LEAF_TYPES.has(type)) unsupported(`the zod type "${type}"`);
  return { kind: 'leaf', schema, accepts: leafAccepts(schema) };
}
