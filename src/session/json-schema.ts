// JSON Schemas (draft 2020-12) of the session document and of both tools, generated from the zod schemas, never by hand.
import * as z from 'zod';
import { sessionSchema, tolerantSessionSchema } from './schema.js';

// Shared definitions: the schemas that carry a `meta({ id })` in schema.ts (items, ID, title, duration, times, ID
// lists) are written once under `$defs` and referenced, which keeps the tool list small: MCP clients put it into a
// model's context on every turn. The modern tools/list result went from 18,278 to ~8,500 bytes with the same
// information; what is left is ~4.1 KB create input, ~2.2 KB decode output (the tolerant shape, every field with
// its type), ~0.7 KB of tool descriptions and ~1.4 KB the protocol asks for. Going under 7 KB would mean leaving
// the decoded items' fields out of the decode output schema (or allOf/unevaluatedProperties in the input schema,
// which tool-calling models handle badly), so it was not done.

const TARGET = 'draft-2020-12';
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

type Json = Record<string, unknown>;

/**
 * Generation artefacts that say nothing or say it twice: z.int()'s implied ±(2^53 − 1) bounds, `additionalProperties:
 * {}` and `type: "string"` on property names (true of every JSON object), `type` beside a string `const`, a `oneOf`
 * of one, the regex beside `format: "date"` (RFC 3339 full-date already means a real date), and in output schemas
 * `default` (a decoded document has every field; the defaults are documented in the input schema).
 */
function tidy(io: 'input' | 'output') {
  return ({ jsonSchema }: { jsonSchema: Json }): void => {
    if (jsonSchema.maximum === SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.minimum === -SAFE_INTEGER) delete jsonSchema.minimum;
    const additional = jsonSchema.additionalProperties;
    if (typeof additional === 'object' && additional !== null && Object.keys(additional).length === 0) delete jsonSchema.additionalProperties;
    const names = jsonSchema.propertyNames as Json | undefined;
    if (names?.type === 'string') delete names.type;
    if (names && Object.keys(names).length === 0) delete jsonSchema.propertyNames;
    const oneOf = jsonSchema.oneOf;
    if (Array.isArray(oneOf) && oneOf.length === 1) {
      delete jsonSchema.oneOf;
      Object.assign(jsonSchema, oneOf[0]);
    }
    if (jsonSchema.format === 'date') delete jsonSchema.pattern;
    if (io === 'output') delete jsonSchema.default;
    factorCommonProperties(jsonSchema);
    // `const` says the type already.
    if (typeof jsonSchema.const === 'string' && jsonSchema.type === 'string') delete jsonSchema.type;
  };
}

const isOpenObject = (variant: unknown): variant is Json =>
  typeof variant === 'object' && variant !== null && (variant as Json).type === 'object' && (variant as Json).additionalProperties === undefined;

/**
 * A `oneOf` of open objects (the decoded items) that share properties with identical schemas: those are stated once
 * beside the `oneOf`, which applies both (for objects that allow other properties this is the same schema).
 */
function factorCommonProperties(jsonSchema: Json): void {
  const variants = jsonSchema.oneOf;
  if (!Array.isArray(variants) || variants.length < 2 || !variants.every(isOpenObject)) return;
  const [first, ...others] = variants as Json[];
  const shape = (variant: Json): Json => (variant.properties ?? {}) as Json;
  const required = (variant: Json): unknown[] => (Array.isArray(variant.required) ? variant.required : []);
  const common = Object.keys(shape(first!)).filter((key) => {
    const text = JSON.stringify(shape(first!)[key]);
    return [first!, ...others].every((v) => JSON.stringify(shape(v)[key]) === text && required(v).includes(key) === required(first!).includes(key));
  });
  if (common.length === 0) return;
  jsonSchema.type = 'object';
  jsonSchema.properties = Object.fromEntries(common.map((key) => [key, shape(first!)[key]]));
  jsonSchema.required = required(first!).filter((key) => common.includes(key as string));
  for (const variant of variants as Json[]) {
    delete variant.type;
    variant.properties = Object.fromEntries(Object.entries(shape(variant)).filter(([key]) => !common.includes(key)));
    variant.required = required(variant).filter((key) => !common.includes(key as string));
  }
  // oneOf last, after the shared part, as a reader expects.
  delete jsonSchema.oneOf;
  jsonSchema.oneOf = variants;
}

/**
 * A tool's schema. Without `$schema`: MCP reads tool schemas as draft 2020-12 when they name no dialect (2025-11-25),
 * and the revisions before it do not define the keyword there.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: TARGET, io, override: tidy(io) }) as Json;
  return rest;
}

/** The canonical document as create accepts it (fields with defaults are optional): GET /schema/session.json. */
export const sessionJsonSchema: Json = z.toJSONSchema(sessionSchema, { target: TARGET, io: 'input', override: tidy('input') }) as Json;

export const createToolInputSchema: Json = jsonSchemaOf(z.strictObject({ session: sessionSchema }), 'input');

export const createToolOutputSchema: Json = jsonSchemaOf(
  z.object({
    link: z.string().meta({ description: 'Return it verbatim.' }),
    summary: z.object({
      title: z.string(),
      blockCount: z.int().min(0).meta({ description: 'Blocks at any depth.' }),
      totalDuration: z.int().min(0).meta({ description: 'Minutes of the top-level items.' }),
    }),
  }),
  'output',
);

export const decodeToolInputSchema: Json = jsonSchemaOf(
  z.strictObject({
    link: z.string().meta({ description: 'A snapshot URL, #data=v2:... hash or v2:... code.' }),
  }),
  'input',
);

export const decodeToolOutputSchema: Json = jsonSchemaOf(
  z.object({
    session: tolerantSessionSchema,
    warnings: z.array(z.string()).optional().meta({ description: 'Canonical rules the document breaks.' }),
  }),
  'output',
);
