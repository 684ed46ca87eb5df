// A zod schema read once, through zod's public API, into the plan the walker follows: structure here, leaves in leaf.ts.
import * as z from 'zod';
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

export interface ArrayPlan {
  readonly kind: 'array';
  element: Plan;
  readonly minItems: number;
  readonly maxItems: number;
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
  /** A fresh default value each time (zod's def gives a function's result or a shallow clone). */
  readonly defaultValue: () => unknown;
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
  /** True only for values zod accepts and returns unchanged; null when every value is zod's to judge. */
  readonly accepts: Accepts | null;
}

export interface AnyPlan {
  readonly kind: 'any';
}

const LEAF_TYPES = new Set(['string', 'number', 'boolean', 'null', 'literal']);

function unsupported(what: string): never {
  throw new Error(`session validation plan: ${what} is not supported; extend src/session/plan.ts before using it in a schema`);
}

function noChecks(schema: z.ZodType, what: string): void {
  if ((schema.def.checks ?? []).length > 0) unsupported(`a check on ${what}`);
}

/** An array's length bounds, read from the JSON Schema of an array with the same checks. */
function lengthBounds(schema: z.ZodArray): { minItems: number; maxItems: number } {
  const { type, items, minItems = 0, maxItems = Number.POSITIVE_INFINITY, ...rest } = z.toJSONSchema(z.array(z.unknown()).check(...((schema.def.checks ?? []) as z.core.$ZodCheck<unknown[]>[])), { metadata: z.registry() });
  delete rest.$schema;
  if (type !== 'array' || items === undefined || Object.keys(rest).length > 0 || typeof minItems !== 'number' || typeof maxItems !== 'number') unsupported('an array check other than its length');
  return { minItems, maxItems };
}

const plans = new WeakMap<z.ZodType, Plan>();

/** The plan of a schema (cached; recursive schemas resolve to the same plan object). */
export function planOf(schema: z.ZodType): Plan {
  const known = plans.get(schema);
  if (known) return known;
  if (schema instanceof z.ZodObject) {
    noChecks(schema, 'an object');
    // z.strictObject refuses unknown keys (a catchall of never), z.looseObject keeps them (unknown).
    const catchall = schema.def.catchall;
    const loose = catchall instanceof z.ZodUnknown;
    if (!loose && !(catchall instanceof z.ZodNever)) unsupported('an object that strips unknown keys, or has another catchall');
    const plan: ObjectPlan = { kind: 'object', keys: [], fields: [], keySet: new Set(), loose };
    plans.set(schema, plan);
    // Reading `shape` resolves its getters once (zod freezes the shape); recursion meets the cached plan above.
    const shape = schema.shape as Record<string, z.ZodType>;
    for (const key of Object.keys(shape)) {
      const field = shape[key]!;
      if (field.type === 'optional') unsupported(`an optional field (${key})`);
      plan.keys.push(key);
      plan.keySet.add(key);
      plan.fields.push(planOf(field));
    }
    return plan;
  }
  if (schema instanceof z.ZodArray) {
    const plan: ArrayPlan = { kind: 'array', element: { kind: 'any' }, ...lengthBounds(schema) };
    plans.set(schema, plan);
    plan.element = planOf(schema.element as z.ZodType);
    return plan;
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    noChecks(schema, 'a union');
    const discriminator = schema.def.discriminator;
    if (schema.def.unionFallback) unsupported('a union with a fallback');
    const plan: UnionPlan = { kind: 'union', discriminator, options: new Map() };
    plans.set(schema, plan);
    for (const option of schema.options as readonly z.ZodType[]) {
      const tag = option instanceof z.ZodObject ? (option.shape as Record<string, z.ZodType>)[discriminator] : undefined;
      if (!(tag instanceof z.ZodLiteral) || tag.values.size === 0) unsupported('a union option without a literal discriminator');
      for (const value of tag.values) plan.options.set(value, planOf(option));
    }
    return plan;
  }
  if (schema instanceof z.ZodRecord) {
    noChecks(schema, 'a record');
    if (schema.def.mode !== undefined && schema.def.mode !== 'strict') unsupported(`a record in mode ${String(schema.def.mode)}`);
    const keyType = schema.keyType as z.ZodType;
    if (keyType instanceof z.ZodEnum || keyType instanceof z.ZodLiteral) unsupported('a record with enumerated keys');
    const plan: RecordPlan = { kind: 'record', key: leafPlan(keyType), value: { kind: 'any' } };
    plans.set(schema, plan);
    plan.value = planOf(schema.valueType as z.ZodType);
    return plan;
  }
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) {
    noChecks(schema, schema.type);
    const def = schema.def;
    // zod's def computes `defaultValue` on each read: a function's result, or a shallow clone of the value.
    const plan: DefaultPlan = { kind: 'default', inner: { kind: 'any' }, defaultValue: () => def.defaultValue, prefault: schema instanceof z.ZodPrefault };
    plans.set(schema, plan);
    plan.inner = planOf(schema.unwrap() as z.ZodType);
    return plan;
  }
  if (schema instanceof z.ZodNullable) {
    noChecks(schema, 'a nullable');
    const plan: NullablePlan = { kind: 'nullable', inner: { kind: 'any' } };
    plans.set(schema, plan);
    plan.inner = planOf(schema.unwrap() as z.ZodType);
    return plan;
  }
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) {
    noChecks(schema, schema.type);
    const plan: AnyPlan = { kind: 'any' };
    plans.set(schema, plan);
    return plan;
  }
  const plan = leafPlan(schema);
  plans.set(schema, plan);
  return plan;
}

function leafPlan(schema: z.ZodType): LeafPlan {
  if (!LEAF_TYPES.has(schema.type)) unsupported(`the zod type "${schema.type}"`);
  return { kind: 'leaf', schema, accepts: leafAccepts(schema) };
}
