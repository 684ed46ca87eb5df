// JSON Schemas (draft 2020-12) of the session document and of both tools, generated from the zod schemas, never by hand.
import * as z from 'zod';
import { sessionSchema, tolerantSessionSchema } from './schema.js';

const TARGET = 'draft-2020-12';

/** The canonical document as create accepts it (fields with defaults are optional): GET /schema/session.json. */
export const sessionJsonSchema: Record<string, unknown> = z.toJSONSchema(sessionSchema, { target: TARGET, io: 'input' });

export const createToolInputSchema: Record<string, unknown> = z.toJSONSchema(z.strictObject({ session: sessionSchema }), {
  target: TARGET,
  io: 'input',
});

export const createToolOutputSchema: Record<string, unknown> = z.toJSONSchema(
  z.object({
    link: z.string().meta({ description: 'The snapshot link; return it verbatim.' }),
    summary: z.object({
      title: z.string(),
      blockCount: z.int().min(0).meta({ description: 'Blocks at any depth, containers excluded.' }),
      totalDuration: z.int().min(0).meta({ description: 'Sum of the durations of the top-level items, in minutes.' }),
    }),
  }),
  { target: TARGET, io: 'output' },
);

export const decodeToolInputSchema: Record<string, unknown> = z.toJSONSchema(
  z.strictObject({
    link: z.string().meta({ description: 'A complete snapshot URL, a #data=v2:... hash, or a v2:... code.' }),
  }),
  { target: TARGET, io: 'input' },
);

export const decodeToolOutputSchema: Record<string, unknown> = z.toJSONSchema(
  z.object({
    session: tolerantSessionSchema,
    warnings: z.array(z.string()).optional().meta({ description: 'Canonical rules the decoded document breaks (tolerated for older documents).' }),
  }),
  { target: TARGET, io: 'output' },
);
