// The published JSON Schemas against the code: the create schema judges like zod, results conform to the output schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { loadCodec } from '../src/codec/node.js';
import { SessionError } from '../src/session/errors.js';
import { createToolInputSchema, createToolOutputSchema, decodeToolOutputSchema, sessionJsonSchema } from '../src/session/json-schema.js';
import { createSessionOperations } from '../src/session/operations.js';
import { sessionSchema } from '../src/session/schema.js';
import { arbitraryMutatedSession } from './fixtures/mutations.js';
import { linkOf } from './fixtures/hostile-cases.js';
import { arbitrarySession } from './fixtures/sessions.js';

const ajv = new Ajv2020({ allErrors: true, strict: true }).addFormat('date', z.regexes.date);
const createInput = ajv.compile(createToolInputSchema);
const createOutput = ajv.compile(createToolOutputSchema);
const decodeOutput = ajv.compile(decodeToolOutputSchema);
const operations = createSessionOperations(loadCodec);
const mutated = arbitraryMutatedSession(arbitrarySession());

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
        decoded++;
      }),
      { numRuns: 500 },
    );
    expect(decoded).toBeGreaterThan(300);
  });

  it('writes each item kind and each shared field once, under $defs, and GET /schema/session.json has the same definitions', () => {
    const text = JSON.stringify(createToolInputSchema);
    for (const kind of ['block', 'group', 'breakout']) expect(text.split(`"const":"${kind}"`)).toHaveLength(2);
    expect(Object.keys(createToolInputSchema.$defs as object).sort()).toEqual(['block', 'breakout', 'duration', 'fixedStartTime', 'group', 'id', 'personIds', 'time', 'title']);
    expect(sessionJsonSchema.$defs).toEqual(createToolInputSchema.$defs);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain('[\\\\s\\\\S]');
    expect(text).toContain('"minLength":1,"maxLength":200');
  });
});
