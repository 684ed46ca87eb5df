// The published JSON Schemas against the code: the create schema judges like zod, results conform to the output schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { loadCodec } from '../../src/codec/node.js';
import { SessionError } from '../../src/session/errors.js';
import { createToolInputSchema, createToolOutputSchema, decodeToolInputSchema, decodeToolOutputSchema, sessionJsonSchema } from '../../src/session/json-schema.js';
import { mapSchemas } from '../../src/session/json-schema-passes.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { sessionSchema } from '../../src/session/schema.js';
import { arbitraryMutatedSession } from '../fixtures/mutations.js';
import { linkOf } from '../fixtures/hostile-cases.js';
import { arbitrarySession, block, breakout, group, minimalSession } from '../fixtures/sessions.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Paths where `value` lacks a property that `schema` shows (following $ref, items, additionalProperties and the
 * `oneOf` variant whose `type` const matches): the decode output schema says every field shown is present.
 */
function missingFields(value: unknown, schema: Json, defs: Json, path: string, into: string[] = []): string[] {
  const ref = schema.$ref;
  if (typeof ref === 'string') return missingFields(value, defs[ref.slice('#/$defs/'.length)] as Json, defs, path, into);
  if (Array.isArray(value) && isObject(schema.items)) value.forEach((v, i) => missingFields(v, schema.items as Json, defs, `${path}[${i}]`, into));
  if (!isObject(value)) return into;
  for (const [key, field] of Object.entries((schema.properties ?? {}) as Json)) {
    if (!Object.hasOwn(value, key)) into.push(`${path}.${key}`);
    else missingFields(value[key], field as Json, defs, `${path}.${key}`, into);
  }
  if (isObject(schema.additionalProperties)) for (const [key, v] of Object.entries(value)) missingFields(v, schema.additionalProperties, defs, `${path}.${key}`, into);
  const variant = ((schema.oneOf ?? []) as Json[]).find((v) => ((v.properties as Json | undefined)?.type as Json | undefined)?.const === value.type);
  if (variant) missingFields(value, variant, defs, path, into);
  return into;
}

const ajv = new Ajv2020({ allErrors: true, strict: true }).addFormat('date', z.regexes.date);
const createInput = ajv.compile(createToolInputSchema);
const createOutput = ajv.compile(createToolOutputSchema);
const decodeOutput = ajv.compile(decodeToolOutputSchema);
const operations = createSessionOperations(loadCodec);
const mutated = arbitraryMutatedSession(arbitrarySession());
const sessionOutput = (decodeToolOutputSchema.properties as Json).session as Json;

describe('generated JSON Schemas', () => {
  it('the create input schema gives zod’s verdict on mutated documents', () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutated, (doc) => {
        const verdict = sessionSchema.safeParse(doc).success;
        expect(createInput({ session: doc })).toBe(verdict);
        if (verdict) accepted++;
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('every create and decode result conforms to the advertised output schema, older documents included', async () => {
    let decoded = 0;
    await fc.assert(
      fc.asyncProperty(mutated, async (doc) => {
        const created = await operations.createSessionLink(doc).catch((error: unknown) => error);
        if (!(created instanceof SessionError)) expect(createOutput(created)).toBe(true);
        const result = await operations.decodeSessionLink(linkOf(JSON.stringify(doc))).catch((error: unknown) => error);
        if (result instanceof SessionError) return;
        expect(decodeOutput(JSON.parse(JSON.stringify(result)))).toBe(true);
        const { session } = result as Awaited<ReturnType<typeof operations.decodeSessionLink>>;
        expect(missingFields(session, sessionOutput, decodeToolOutputSchema.$defs as Json, 'session')).toEqual([]);
        decoded++;
      }),
      { numRuns: 500 },
    );
    // About 60 % of mutated documents decode (a clean-clone run had exactly 300 of 500): enough that this checked many.
    expect(decoded).toBeGreaterThan(200);
  });

  it('the shared item fields keep each kind closed: a field of another kind or an unknown one is refused, like zod does', () => {
    const kinds = { block: block('a'), group: group('g', []), breakout: breakout('b', []) };
    const foreign = { block: ['lanes', 'children', 'extra'], group: ['laneIndex', 'material', 'lanePersons'], breakout: ['personIds', 'blockTypeId', 'laneIndex'] };
    for (const [kind, item] of Object.entries(kinds)) {
      const doc = { ...minimalSession(), items: [item] };
      expect([kind, createInput({ session: doc })]).toEqual([kind, true]);
      for (const key of foreign[kind as keyof typeof foreign]) {
        const wrong = { ...minimalSession(), items: [{ ...item, [key]: key === 'lanes' ? 2 : [] }] };
        expect([kind, key, sessionSchema.safeParse(wrong).success, createInput({ session: wrong })]).toEqual([kind, key, false, false]);
      }
      // A shared field broken in one kind is refused in that kind (the rules come from the shared definition).
      expect(createInput({ session: { ...minimalSession(), items: [{ ...item, duration: 1441 }] } })).toBe(false);
      expect(createInput({ session: { ...minimalSession(), items: [{ ...item, fixedStartTime: '24:00' }] } })).toBe(false);
    }
  });

  it('writes each item kind and each shared field once, under $defs, and GET /schema/session.json has the same definitions', () => {
    const text = JSON.stringify(createToolInputSchema);
    for (const kind of ['block', 'group', 'breakout']) expect(text.split(`"const":"${kind}"`)).toHaveLength(2);
    for (const field of ['"duration":', '"fixedStartTime":', '"notes":']) expect(text.split(field)).toHaveLength(2);
    expect(Object.keys(createToolInputSchema.$defs as object).sort()).toEqual(['block', 'breakout', 'group', 'id', 'item', 'personIds', 'time', 'title']);
    expect(sessionJsonSchema.$defs).toEqual(createToolInputSchema.$defs);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain('[\\\\s\\\\S]');
    expect(text).toContain('"minLength":1,"maxLength":200');
  });

  // The MCP Inspector 2.12 warns about every `type` list (single-type function-calling dialects reject them); the
  // Inspector itself checks the served tools/list in CI (test/conformance/inspector.ts).
  it('gives every schema node at most one type: nullable values are anyOf branches with the string keywords on the string branch', () => {
    const schemas = { createToolInputSchema, createToolOutputSchema, decodeToolInputSchema, decodeToolOutputSchema, sessionJsonSchema };
    const lists: string[] = [];
    let nullBranches = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      mapSchemas(schema, (node) => {
        if (Array.isArray(node.type)) lists.push(`${name}: ${JSON.stringify(node)}`);
        if (Array.isArray(node.anyOf) && node.anyOf.some((branch) => isObject(branch) && branch.type === 'null')) nullBranches += 1;
        return node;
      });
    }
    expect(lists).toEqual([]);
    expect(nullBranches).toBeGreaterThanOrEqual(10);
    expect((createToolInputSchema.$defs as Json).time).toEqual({ anyOf: [{ type: 'string', pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$' }, { type: 'null' }] });
  });
});
