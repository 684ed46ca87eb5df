// Zod schema of the canonical session document (docs/import-guide.md) for the SDK anchor: what a plain SDK implementation validates.
// Independent of src/ on purpose: the anchor is "the same job written the usual way", not our code in another wrapper.
import { z } from 'zod';

const noControl = /^[^\u0000-\u001f\u007f]+$/;
const Id = z.string().min(1).max(128).regex(noControl, 'must not contain control characters');
const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a real time HH:MM');
const DateStr = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'must be a real date');
const Title = z.string().min(1).max(200);
const Duration = z.number().int().min(0).max(1440);

const Block = z.strictObject({
  type: z.literal('block'),
  id: Id,
  title: Title,
  duration: Duration,
  blockTypeId: Id.nullable().default(null),
  personIds: z.array(Id).default([]),
  description: z.string().default(''),
  notes: z.string().default(''),
  material: z.string().default(''),
  fixedStartTime: Time.nullable().default(null),
  laneIndex: z.number().int().min(0).default(0),
});
/** The fields a group and a breakout share, in the document's key order. */
const containerFields = {
  id: Id,
  title: Title,
  duration: Duration,
  description: z.string().default(''),
  notes: z.string().default(''),
  fixedStartTime: Time.nullable().default(null),
};
const Breakout = z.strictObject({
  type: z.literal('breakout'),
  ...containerFields,
  lanes: z.number().int().min(1).max(10).default(2),
  sameInAllBreakouts: z.boolean().default(false),
  lanePersons: z.record(z.string().regex(/^\d+$/), z.array(Id)).default({}),
  children: z.array(Block).default([]),
});
const Group = z.strictObject({
  type: z.literal('group'),
  ...containerFields,
  children: z.array(z.discriminatedUnion('type', [Block, Breakout])).default([]),
});

type SessionShape = z.infer<typeof SessionBase>;
const SessionBase = z.strictObject({
  version: z.literal('1.0'),
  workshop: z.strictObject({
    title: Title,
    description: z.string().default(''),
    date: DateStr.nullable().default(null),
    startTime: Time.nullable().default(null),
  }),
  blockTypes: z
    .array(z.strictObject({ id: Id, name: z.string().min(1).max(100), color: z.string().regex(/^#[0-9a-fA-F]{6}$/) }))
    .default([]),
  persons: z.array(z.strictObject({ id: Id, name: z.string().min(1).max(100), role: z.string().default('') })).default([]),
  items: z.array(z.discriminatedUnion('type', [Block, Group, Breakout])).default([]),
});

/** Cross-field rules of docs/import-guide.md (unique IDs, declared references, lanes, item count), reported with field paths. */
function checkReferences(s: SessionShape, ctx: z.RefinementCtx): void {
  const fail = (path: (string | number)[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
  const typeIds = new Set<string>();
  s.blockTypes.forEach((t, i) => (typeIds.has(t.id) ? fail(['blockTypes', i, 'id'], 'duplicate id') : typeIds.add(t.id)));
  const personIds = new Set<string>();
  s.persons.forEach((p, i) => (personIds.has(p.id) ? fail(['persons', i, 'id'], 'duplicate id') : personIds.add(p.id)));
  const itemIds = new Set<string>();
  let count = 0;
  const visitBlock = (b: z.infer<typeof Block>, path: (string | number)[], lanes: number, same: boolean): void => {
    if (b.blockTypeId !== null && !typeIds.has(b.blockTypeId)) fail([...path, 'blockTypeId'], 'unknown block type');
    b.personIds.forEach((p, j) => personIds.has(p) || fail([...path, 'personIds', j], 'unknown person'));
    const maxLane = same ? 1 : lanes;
    if (b.laneIndex >= maxLane) fail([...path, 'laneIndex'], `must be < ${maxLane}`);
  };
  const visit = (item: { id: string }, path: (string | number)[]): void => {
    count += 1;
    if (itemIds.has(item.id)) fail([...path, 'id'], 'duplicate item id');
    itemIds.add(item.id);
  };
  const visitBreakout = (b: z.infer<typeof Breakout>, path: (string | number)[]): void => {
    for (const [lane, ids] of Object.entries(b.lanePersons)) {
      if (Number(lane) >= b.lanes) fail([...path, 'lanePersons', lane], `lane must be < ${b.lanes}`);
      ids.forEach((p, j) => personIds.has(p) || fail([...path, 'lanePersons', lane, j], 'unknown person'));
    }
    b.children.forEach((c, k) => {
      visit(c, [...path, 'children', k]);
      visitBlock(c, [...path, 'children', k], b.lanes, b.sameInAllBreakouts);
    });
  };
  s.items.forEach((item, i) => {
    const path = ['items', i];
    visit(item, path);
    if (item.type === 'block') visitBlock(item, path, 1, false);
    else if (item.type === 'breakout') visitBreakout(item, path);
    else
      item.children.forEach((c, k) => {
        visit(c, [...path, 'children', k]);
        if (c.type === 'block') visitBlock(c, [...path, 'children', k], 1, false);
        else visitBreakout(c, [...path, 'children', k]);
      });
  });
  if (count > 500) fail(['items'], `at most 500 items, got ${count}`);
}

export const Session = SessionBase.superRefine(checkReferences);
export type Session = z.infer<typeof Session>;

/** summary as docs/import-guide.md defines it: blocks at any depth, durations of top-level items only. */
export function summarize(s: Session): { title: string; blockCount: number; totalDuration: number } {
  let blockCount = 0;
  const countBlocks = (items: readonly { type: string; children?: readonly { type: string }[] }[]): void => {
    for (const it of items) {
      if (it.type === 'block') blockCount += 1;
      else if (it.children) countBlocks(it.children as { type: string; children?: { type: string }[] }[]);
    }
  };
  countBlocks(s.items);
  return { title: s.workshop.title, blockCount, totalDuration: s.items.reduce((n, it) => n + it.duration, 0) };
}
