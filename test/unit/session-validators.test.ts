// Every fast test the schema walk uses is made from the zod schema through its public API, and agrees with zod: each
// leaf's test (leaf.ts, from the leaf's JSON Schema) on generated values, and the plan's bounds on the schema's own.
import fc from 'fast-check';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { planOf, type LeafPlan, type Plan } from '../../src/session/plan.js';
import { MAX_LIST_ENTRIES, sessionSchema, tolerantSessionSchema } from '../../src/session/schema.js';

/** Every leaf the walker meets in a schema, once. */
function leavesOf(root: Plan): LeafPlan[] {
  const seen = new Set<Plan>();
  const leaves: LeafPlan[] = [];
  const visit = (plan: Plan): void => {
    if (seen.has(plan)) return;
    seen.add(plan);
    switch (plan.kind) {
      case 'leaf':
        leaves.push(plan);
        return;
      case 'object':
        plan.fields.forEach(visit);
        return;
      case 'array':
        visit(plan.element);
        return;
      case 'union':
        plan.options.forEach(visit);
        return;
      case 'record':
        visit(plan.key);
        visit(plan.value);
        return;
      case 'default':
      case 'nullable':
        visit(plan.inner);
        return;
      case 'any':
        return;
    }
  };
  visit(root);
  return leaves;
}

const leaves = [...leavesOf(planOf(sessionSchema)), ...leavesOf(planOf(tolerantSessionSchema))];

/** Any code unit, lone surrogates and controls included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
/** Values near the session schema's rules: IDs, times, dates, colours, lane keys, lengths at their bounds, numbers at theirs. */
const nearRules = fc.oneof(
  fc.string({ unit: anyUnit, maxLength: 140 }),
  fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '5', '9', ':', '-', '#', 'a', 'F', 'x'), maxLength: 11 }),
  fc.stringMatching(/^[0-2][0-9]:[0-6][0-9]$/),
  fc.stringMatching(/^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$/),
  fc.stringMatching(/^#[0-9A-Fa-g]{5,7}$/),
  fc.integer({ min: 0, max: 300 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('1.0', '1.1', 'block', 'group', 'breakout', ''),
  fc.integer({ min: -2, max: 1500 }),
  fc.constantFrom(-0, 0.5, 1e300, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY, -1),
  fc.double(),
  fc.boolean(),
  fc.constantFrom(null, undefined, {}, [], new String('boxed'), new Date(0)),
);

/**
 * Values made from a leaf's own JSON Schema, in and just around what it allows: strings from its patterns (any string
 * when it has none), integers from two below its minimum to two above its maximum. Each leaf's test must accept some
 * and refuse others, and random values alone would almost never land inside a narrow range such as 0–9.
 */
function nearItsSchema(leaf: LeafPlan): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(leaf.schema, { metadata: z.registry() }) as { type?: string; pattern?: string; const?: unknown; minimum?: number; maximum?: number };
  if (json.const !== undefined) return fc.constant(json.const);
  if (json.type === 'integer' || json.type === 'number') {
    const min = json.minimum ?? Number.MIN_SAFE_INTEGER + 2;
    const max = json.maximum ?? Number.MAX_SAFE_INTEGER - 2;
    return fc.oneof(fc.integer({ min: min - 2, max: max + 2 }), fc.double({ min: min - 2, max: max + 2 }));
  }
  if (json.type === 'boolean') return fc.boolean();
  return json.pattern === undefined ? fc.string({ unit: anyUnit, maxLength: 210 }) : fc.stringMatching(new RegExp(json.pattern));
}

describe('the fast test of every leaf', () => {
  it('is made for every leaf of the session schemas (none is left to zod alone)', () => {
    expect(leaves.length).toBeGreaterThan(10);
    for (const leaf of leaves) expect(leaf.accepts, leaf.schema.type).not.toBeNull();
  });

  it('accepts only what zod accepts and returns unchanged, and refuses only what zod refuses', () => {
    const outcomes = new Map<LeafPlan, Set<boolean>>(leaves.map((leaf) => [leaf, new Set()]));
    const leafAndValue = fc.constantFrom(...leaves).chain((leaf) => fc.tuple(fc.constant(leaf), fc.oneof(nearRules, nearItsSchema(leaf))));
    fc.assert(
      fc.property(leafAndValue, ([leaf, value]) => {
        const accepted = leaf.accepts!(value);
        const parsed = leaf.schema.safeParse(value);
        expect(accepted, `${JSON.stringify(z.toJSONSchema(leaf.schema, { metadata: z.registry() }))} on ${String(value)}`).toBe(parsed.success);
        if (accepted) expect(Object.is(parsed.data, value)).toBe(true);
        outcomes.get(leaf)!.add(accepted);
      }),
      { numRuns: 5_000 },
    );
    // Both outcomes occur for every leaf that can refuse anything, so the property is not vacuous.
    for (const [leaf, seen] of outcomes) expect(seen.has(true), JSON.stringify(z.toJSONSchema(leaf.schema, { metadata: z.registry() }))).toBe(true);
    expect([...outcomes.values()].filter((seen) => seen.has(false)).length).toBeGreaterThan(10);
  });

  it('the ID test agrees with zod for every code unit', () => {
    const id = (sessionSchema.shape.persons.element.shape.id as z.ZodType);
    const accepts = leaves.find((leaf) => leaf.schema === id)!.accepts!;
    const verdicts = new Set<boolean>();
    for (let c = 0; c <= 0xffff; c++) {
      const text = `a${String.fromCharCode(c)}`;
      const verdict = id.safeParse(text).success;
      verdicts.add(verdict);
      expect(accepts(text)).toBe(verdict);
    }
    expect([...verdicts].sort()).toEqual([false, true]);
  });
});

describe('the plan', () => {
  it('takes the lists\' bounds and the objects\' strictness from the schema', () => {
    const session = planOf(sessionSchema);
    if (session.kind !== 'object') throw new Error('the session is an object');
    const persons = session.fields[session.keys.indexOf('persons')]!;
    expect(persons).toMatchObject({ kind: 'array', minItems: 0, maxItems: MAX_LIST_ENTRIES });
    expect(session.loose).toBe(false);
    expect(planOf(tolerantSessionSchema)).toMatchObject({ kind: 'object', loose: true });
  });

  it('refuses, at once, a construct it does not mirror, rather than validating it differently from zod', () => {
    expect(() => planOf(z.object({ a: z.string() }))).toThrow(/strips unknown keys/);
    expect(() => planOf(z.strictObject({ a: z.string().optional() }))).toThrow(/optional field/);
    expect(() => planOf(z.array(z.string()).refine(() => true))).not.toThrow();
    expect(() => planOf(z.union([z.string(), z.number()]))).toThrow(/not supported/);
  });
});
