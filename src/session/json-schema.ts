// JSON Schemas (draft 2020-12) of the session document and of both tools, generated from the zod schemas, never by hand.
import * as z from 'zod';
import { shareUnionFields, singleTypes, withoutNestedRequired, withoutTitles } from './json-schema-passes.js';
import { tidy, type Json } from './json-schema-tidy.js';
import { sessionSchema, tolerantSessionSchema } from './schema.js';

// MCP clients put the tool list into a model's context on every turn, so the schemas say each thing once: shared
// definitions under `$defs` (the schemas with a `meta({ id })` in schema.ts), the fields every item kind has in one
// definition, generation artefacts out (json-schema-tidy.ts, json-schema-passes.ts), no `required` inside the decoded
// document (its description says every field is present), no `title` in tool schemas, and no description that the
// `null` branch or the session's description already gives. Nullable values are `anyOf` branches of one type each,
// not type lists: the MCP Inspector warns about those, and single-type function-calling dialects reject them.
// test/unit/mcp-shapes.test.ts bounds the size of tools/list; test/unit/session-json-schema.test.ts holds the schemas
// to zod's verdicts and the results to their output schemas.

const TARGET = 'draft-2020-12';
/** The definition holding the fields every item kind has (each kind is "an item, plus"). */
const ITEM_FIELDS = 'item';

function generate(schema: z.ZodType, io: 'input' | 'output'): Json {
  return shareUnionFields(singleTypes(z.toJSONSchema(schema, { target: TARGET, io, override: tidy(io) }) as Json), ITEM_FIELDS);
}

/**
 * A tool's schema. Without `$schema`: MCP reads tool schemas as draft 2020-12 when they name no dialect (2025-11-25),
 * and the revisions before it do not define the keyword there.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = generate(schema, io);
  return withoutTitles(rest);
}

/** The canonical document as create accepts it (fields with defaults are optional): GET /schema/session.json. */
export const sessionJsonSchema: Json = generate(sessionSchema, 'input');

export const createToolInputSchema: Json = jsonSchemaOf(z.strictObject({ session: sessionSchema }), 'input');

export const createToolOutputSchema: Json = jsonSchemaOf(
  z.object({
    link: z.string(),
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

export const decodeToolOutputSchema: Json = withoutNestedRequired(
  jsonSchemaOf(
    z.object({
      session: tolerantSessionSchema,
      warnings: z.array(z.string()).optional().meta({ description: 'Canonical rules the document breaks.' }),
    }),
    'output',
  ),
);
