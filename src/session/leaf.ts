// Fast acceptance tests of zod leaves, made from each leaf's JSON Schema; whatever they do not accept is zod's to judge.
import * as z from 'zod';

/** True only when zod would accept the value and return it unchanged; false means "ask zod". */
export type Accepts = (value: unknown) => boolean;

/** The JSON Schema keywords a test is made of; a leaf whose schema has any other is left to zod entirely. */
interface LeafJsonSchema {
  readonly type?: unknown;
  readonly const?: unknown;
  readonly enum?: unknown;
  readonly minLength?: unknown;
  readonly maxLength?: unknown;
  readonly pattern?: unknown;
  readonly allOf?: unknown;
  readonly format?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly exclusiveMinimum?: unknown;
  readonly exclusiveMaximum?: unknown;
}

const KNOWN_KEYWORDS = new Set(['$schema', 'type', 'const', 'enum', 'minLength', 'maxLength', 'pattern', 'allOf', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
/** Formats zod checks with the pattern its JSON Schema also carries (z.iso.date, z.iso.time): the pattern is the whole check. */
const PATTERN_FORMATS = new Set(['date', 'time']);

const isNumber = (value: unknown): value is number => typeof value === 'number';

/** The patterns of a string schema: its own and those of an `allOf` of patterns only; null when it has anything else. */
function patternsOf(schema: LeafJsonSchema): RegExp[] | null {
  const sources: unknown[] = schema.pattern === undefined ? [] : [schema.pattern];
  if (schema.allOf !== undefined) {
    if (!Array.isArray(schema.allOf)) return null;
    for (const part of schema.allOf as unknown[]) {
      if (typeof part !== 'object' || part === null || Object.keys(part).join() !== 'pattern') return null;
      sources.push((part as { pattern: unknown }).pattern);
    }
  }
  if (!sources.every((source) => typeof source === 'string')) return null;
  return (sources as string[]).map((source) => new RegExp(source));
}

function stringTest(schema: LeafJsonSchema): Accepts | null {
  if (schema.format !== undefined && !(PATTERN_FORMATS.has(schema.format as string) && schema.pattern !== undefined)) return null;
  const patterns = patternsOf(schema);
  if (patterns === null) return null;
  const min = isNumber(schema.minLength) ? schema.minLength : 0;
  const max = isNumber(schema.maxLength) ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (patterns.length === 0) return min === 0 && max === Number.POSITIVE_INFINITY ? (v) => typeof v === 'string' : (v) => typeof v === 'string' && v.length >= min && v.length <= max;
  if (patterns.length === 1) {
    const [pattern] = patterns as [RegExp];
    return (v) => typeof v === 'string' && v.length >= min && v.length <= max && pattern.test(v);
  }
  return (v) => typeof v === 'string' && v.length >= min && v.length <= max && patterns.every((pattern) => pattern.test(v));
}

function numberTest(schema: LeafJsonSchema, integer: boolean): Accepts | null {
  if (schema.format !== undefined) return null;
  const low = isNumber(schema.minimum) ? schema.minimum : Number.NEGATIVE_INFINITY;
  const high = isNumber(schema.maximum) ? schema.maximum : Number.POSITIVE_INFINITY;
  const above = isNumber(schema.exclusiveMinimum) ? schema.exclusiveMinimum : Number.NEGATIVE_INFINITY;
  const below = isNumber(schema.exclusiveMaximum) ? schema.exclusiveMaximum : Number.POSITIVE_INFINITY;
  // zod's numbers are finite, and its integers safe integers, whatever the bounds.
  const base = integer ? Number.isSafeInteger : Number.isFinite;
  return (v) => base(v) && (v as number) >= low && (v as number) <= high && (v as number) > above && (v as number) < below;
}

/** The test a leaf's JSON Schema describes, or null when it says more than these keywords can. */
function testOf(schema: LeafJsonSchema): Accepts | null {
  if (!Object.keys(schema).every((key) => KNOWN_KEYWORDS.has(key))) return null;
  if (schema.const !== undefined) {
    const value = schema.const;
    return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? (v) => v === value : null;
  }
  if (schema.enum !== undefined) {
    const values = schema.enum;
    return Array.isArray(values) && values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)) ? (v) => values.includes(v) : null;
  }
  switch (schema.type) {
    case 'string':
      return stringTest(schema);
    case 'number':
      return numberTest(schema, false);
    case 'integer':
      return numberTest(schema, true);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    default:
      return null;
  }
}

/**
 * The acceptance test of a leaf schema, made from its JSON Schema (zod's public z.toJSONSchema, without the registry's
 * ids so the leaf is written out in place); null when zod is to decide every value. A coercing leaf is never tested
 * here: zod would return another value. test/unit/session-validators.test.ts holds every leaf of the session schemas
 * to zod on generated values.
 */
export function leafAccepts(schema: z.ZodType): Accepts | null {
  if ((schema.def as { coerce?: boolean }).coerce === true) return null;
  let json: LeafJsonSchema;
  try {
    json = z.toJSONSchema(schema, { metadata: z.registry(), unrepresentable: 'throw' }) as LeafJsonSchema;
  } catch {
    return null;
  }
  return testOf(json);
}
