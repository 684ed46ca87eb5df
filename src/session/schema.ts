// The session document (docs/import-guide.md) in zod: the canonical strict schema create accepts, and the tolerant decode schema.
import * as z from 'zod';

// The plain constants live in constants.ts (no zod), so browser code that needs only them (the planner's editor bundle)
// does not pull the schema library in.
import {
  COLOR_PATTERN,
  DEFAULT_LANES,
  LANE_KEY_PATTERN,
  MAX_DURATION_MINUTES,
  MAX_LANES,
  MAX_LIST_ENTRIES,
  MAX_NAME_CHARS,
  MAX_TITLE_CHARS,
  MIN_LANES,
  SESSION_VERSION,
  TIME_PATTERN,
} from './constants.js';

export * from './constants.js';

// ---- canonical (strict): unknown fields are errors, keys come out in the documented order ----

// Lengths are plain .min()/.max() (minLength/maxLength in the JSON Schema). zod would run them slower than one regex,
// but zod no longer parses documents: the schema walk (walk.ts) checks both as one length comparison, and zod only
// words the sentence of a value that failed (issues.ts: "must not be empty", "must have at most 200 characters, not 201").

/** A string of 1..max UTF-16 code units. */
function boundedText(max: number) {
  return z.string().min(1).max(max);
}

/** The ID rule besides its length: no C0/C1 control characters. */
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001F\u007F-\u009F]*$/;

// A `meta({ id })` names a definition written once under `$defs` in the JSON Schema (json-schema.ts): the ID, title,
// time and ID-list rules and the item kinds. The fields every item kind has are shared there too, without an id here.
const id = z
  .string()
  .min(1)
  .max(128)
  .regex(NO_CONTROL_CHARACTERS, { error: 'must not contain control characters' })
  .meta({ id: 'id' });
const title = boundedText(MAX_TITLE_CHARS).meta({ id: 'title' });
const name = boundedText(MAX_NAME_CHARS);
const duration = z.int().min(0).max(MAX_DURATION_MINUTES).meta({ description: 'Minutes.' });
/** Every clock time of the document may be null (workshop.startTime, fixedStartTime). */
const timeOrNull = z
  .string()
  .regex(TIME_PATTERN, { error: 'must be a real time of day "HH:MM" (00:00 to 23:59)' })
  .nullable()
  .meta({ id: 'time' });
const calendarDate = z.iso.date({ error: 'must be a real calendar date "YYYY-MM-DD"' });
const fixedStartTime = timeOrNull.meta({ description: 'Pins the item to this start time.' });
const text = z.string();

export const workshopSchema = z.strictObject({
  title,
  description: text,
  date: calendarDate.nullable().default(null),
  startTime: timeOrNull.default(null),
});

const idList = z.array(id).max(MAX_LIST_ENTRIES).meta({ id: 'personIds' });

export const blockTypeSchema = z.strictObject({ id, name, color: z.string().regex(COLOR_PATTERN, { error: 'must be a color "#rrggbb"' }) });

export const personSchema = z.strictObject({ id, name, role: text });

export const blockSchema = z.strictObject({
  type: z.literal('block'),
  id,
  title,
  duration,
  blockTypeId: id.nullable(),
  personIds: idList,
  description: text,
  notes: text,
  material: text,
  fixedStartTime,
  // At most 9 whatever the lanes (at most 10), which also gives the JSON Schema a real bound instead of 2^53 − 1.
  laneIndex: z.int().min(0).max(MAX_LANES - 1).default(0).meta({ description: 'The lane in a breakout (below its lanes), else 0.' }),
}).meta({ id: 'block' });

export const breakoutSchema = z.strictObject({
  type: z.literal('breakout'),
  id,
  title,
  duration,
  description: text,
  notes: text,
  fixedStartTime,
  lanes: z.int().min(MIN_LANES).max(MAX_LANES).default(DEFAULT_LANES),
  sameInAllBreakouts: z.boolean().default(false).meta({ description: 'When true, every child uses lane 0.' }),
  lanePersons: z.record(z.string().regex(LANE_KEY_PATTERN), idList).meta({ description: 'Keys: lane indices below lanes ("0", "1", …); may be {}.' }),
  children: z.array(z.discriminatedUnion('type', [blockSchema])),
}).meta({ id: 'breakout' });

export const groupSchema = z.strictObject({
  type: z.literal('group'),
  id,
  title,
  duration,
  description: text,
  notes: text,
  fixedStartTime,
  children: z.array(z.discriminatedUnion('type', [blockSchema, breakoutSchema])),
}).meta({ id: 'group' });

export const sessionSchema = z
  .strictObject({
    version: z.literal(SESSION_VERSION),
    workshop: workshopSchema,
    blockTypes: z.array(blockTypeSchema).max(MAX_LIST_ENTRIES),
    persons: z.array(personSchema).max(MAX_LIST_ENTRIES),
    items: z.array(z.discriminatedUnion('type', [blockSchema, groupSchema, breakoutSchema])),
  })
  .meta({
    title: 'Sessionplan session document',
    description: 'Item IDs are unique in the whole tree (at most 500 items); every referenced block type and person is declared.',
  });

export type Session = z.output<typeof sessionSchema>;
export type SessionInput = z.input<typeof sessionSchema>;
export type Block = z.output<typeof blockSchema>;
export type Group = z.output<typeof groupSchema>;
export type Breakout = z.output<typeof breakoutSchema>;
export type Item = Session['items'][number];

// ---- tolerant (older documents): missing fields get defaults, unknown fields are kept, any nesting is read ----

const looseText = z.string().default('');
const looseNullable = z.string().nullable().default(null);
const looseIds = z.array(z.string()).default(() => []);

const tolerantWorkshopSchema = z.looseObject({ title: looseText, description: looseText, date: looseNullable, startTime: looseNullable });
const tolerantBlockTypeSchema = z.looseObject({ id: looseText, name: looseText, color: looseText });
const tolerantPersonSchema = z.looseObject({ id: looseText, name: looseText, role: looseText });

const tolerantBlockSchema = z.looseObject({
  type: z.literal('block'),
  id: looseText,
  title: looseText,
  duration: z.number().default(0),
  blockTypeId: looseNullable,
  personIds: looseIds,
  description: looseText,
  notes: looseText,
  material: looseText,
  fixedStartTime: looseNullable,
  laneIndex: z.number().default(0),
});

const tolerantGroupSchema = z.looseObject({
  type: z.literal('group'),
  id: looseText,
  title: looseText,
  duration: z.number().default(0),
  description: looseText,
  notes: looseText,
  fixedStartTime: looseNullable,
  get children(): z.ZodDefault<z.ZodArray<typeof tolerantItemSchema>> {
    return z.array(tolerantItemSchema).default(() => []);
  },
});

const tolerantBreakoutSchema = z.looseObject({
  type: z.literal('breakout'),
  id: looseText,
  title: looseText,
  duration: z.number().default(0),
  description: looseText,
  notes: looseText,
  fixedStartTime: looseNullable,
  lanes: z.number().default(DEFAULT_LANES),
  sameInAllBreakouts: z.boolean().default(false),
  lanePersons: z.record(z.string(), z.array(z.string())).default(() => ({})),
  get children(): z.ZodDefault<z.ZodArray<typeof tolerantItemSchema>> {
    return z.array(tolerantItemSchema).default(() => []);
  },
});

const tolerantItemSchema: z.ZodDiscriminatedUnion<[typeof tolerantBlockSchema, typeof tolerantGroupSchema, typeof tolerantBreakoutSchema]> =
  z.discriminatedUnion('type', [tolerantBlockSchema, tolerantGroupSchema, tolerantBreakoutSchema]).meta({ id: 'item' });

export const tolerantSessionSchema = z
  .looseObject({
    version: z.string().default(SESSION_VERSION),
    workshop: tolerantWorkshopSchema.prefault({}),
    blockTypes: z.array(tolerantBlockTypeSchema).default(() => []),
    persons: z.array(tolerantPersonSchema).default(() => []),
    items: z.array(tolerantItemSchema).default(() => []),
  })
  .meta({
    title: 'Decoded session document',
    description: 'Every field shown is present; unknown fields are kept.',
  });

export type TolerantSession = z.output<typeof tolerantSessionSchema>;
export type TolerantItem = z.output<typeof tolerantItemSchema>;
