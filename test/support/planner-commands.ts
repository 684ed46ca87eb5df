// Random editor sessions for property tests: fast-check commands resolved against the current draft into planner edits.
import fc from 'fast-check';
import type { Edit, EntryList } from '../../src/planner/edits.js';
import type { Planner } from '../../src/planner/planner.js';
import { itemSegments, walkItems, type Draft, type Item, type ItemPath, type JsonValue } from '../../src/planner/tree.js';

/** Which item a command means: an index into the draft's items in document order (taken modulo their number). */
type Pick = number;

export type Command =
  | { op: 'workshop'; field: 'title' | 'description' | 'date' | 'startTime'; value: JsonValue; typing: boolean }
  | { op: 'field'; pick: Pick; field: string; value: JsonValue; typing: boolean }
  | { op: 'add'; item: 'block' | 'group' | 'breakout'; pick: Pick | null }
  | { op: 'duplicate' | 'delete'; pick: Pick }
  | { op: 'shift'; pick: Pick; by: -1 | 1 }
  | { op: 'move'; pick: Pick; target: Pick | null; index: number; lane: number | undefined }
  | { op: 'lanePersons'; pick: Pick; lane: number; people: number[] }
  | { op: 'personIds'; pick: Pick; people: number[] }
  | { op: 'blockType'; pick: Pick; entry: number | null }
  | { op: 'addEntry'; list: EntryList }
  | { op: 'removeEntry'; list: EntryList; entry: number }
  | { op: 'renameEntry'; list: EntryList; entry: number; id: string }
  | { op: 'entryField'; list: EntryList; entry: number; field: 'name' | 'color' | 'role'; value: string }
  | { op: 'undo' | 'redo' | 'finish' };

const pick = fc.nat({ max: 600 });
const text = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'Ü', ' ', '"', '\\', '😀', '<', '\n') });
const title = fc.oneof({ weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: fc.constant('') });
const clock = fc.oneof(
  fc.constant(null),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  fc.constantFrom('24:00', '9:00', ''),
);
const list = fc.constantFrom<EntryList>('blockTypes', 'persons');

/** Values valid most of the time, sometimes not (negative durations, lanes past 10, empty titles, unreal times). */
const itemField = fc.oneof(
  fc.record({ field: fc.constant('title'), value: title }),
  fc.record({ field: fc.constant('duration'), value: fc.oneof(fc.integer({ min: 0, max: 240 }), fc.constantFrom(-5, 1441, 2.5)) }),
  fc.record({ field: fc.constantFrom('description', 'notes', 'material'), value: text }),
  fc.record({ field: fc.constant('fixedStartTime'), value: clock }),
  fc.record({ field: fc.constant('lanes'), value: fc.integer({ min: 0, max: 11 }) }),
  fc.record({ field: fc.constant('sameInAllBreakouts'), value: fc.boolean() }),
  fc.record({ field: fc.constant('laneIndex'), value: fc.integer({ min: 0, max: 10 }) }),
);

export const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    op: fc.constant('workshop' as const),
    field: fc.constantFrom('title' as const, 'description' as const, 'date' as const, 'startTime' as const),
    value: fc.oneof(title, fc.constantFrom(null, '2026-03-14', '2026-02-30', '09:00')),
    typing: fc.boolean(),
  }),
  { weight: 4, arbitrary: fc.record({ op: fc.constant('field' as const), pick, typing: fc.boolean() }).chain((base) => itemField.map((f) => ({ ...base, ...f }))) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('add' as const), item: fc.constantFrom('block' as const, 'group' as const, 'breakout' as const), pick: fc.option(pick, { nil: null }) }) },
  fc.record({ op: fc.constantFrom('duplicate' as const, 'delete' as const), pick }),
  fc.record({ op: fc.constant('shift' as const), pick, by: fc.constantFrom(-1 as const, 1 as const) }),
  { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), pick, target: fc.option(pick, { nil: null }), index: fc.nat({ max: 8 }), lane: fc.option(fc.nat({ max: 9 }), { nil: undefined }) }) },
  fc.record({ op: fc.constant('lanePersons' as const), pick, lane: fc.nat({ max: 10 }), people: fc.array(fc.nat({ max: 4 }), { maxLength: 3 }) }),
  fc.record({ op: fc.constant('personIds' as const), pick, people: fc.array(fc.nat({ max: 4 }), { maxLength: 3 }) }),
  fc.record({ op: fc.constant('blockType' as const), pick, entry: fc.option(fc.nat({ max: 4 }), { nil: null }) }),
  fc.record({ op: fc.constant('addEntry' as const), list }),
  fc.record({ op: fc.constant('removeEntry' as const), list, entry: fc.nat({ max: 4 }) }),
  fc.record({ op: fc.constant('renameEntry' as const), list, entry: fc.nat({ max: 4 }), id: fc.constantFrom('x', 'type-1', 'person-1', 'renamed', '') }),
  fc.record({ op: fc.constant('entryField' as const), list, entry: fc.nat({ max: 4 }), field: fc.constantFrom('name' as const, 'color' as const, 'role' as const), value: fc.constantFrom('Name', '', '#12ab34', 'red') }),
  fc.record({ op: fc.constantFrom('undo' as const, 'redo' as const, 'finish' as const) }),
);

function items(draft: Draft): { item: Item; at: number[] }[] {
  return [...walkItems(draft)];
}

function resolve(draft: Draft, index: Pick): { item: Item; at: ItemPath } | undefined {
  const all = items(draft);
  return all.length === 0 ? undefined : all[index % all.length];
}

function peopleIds(draft: Draft, picks: number[]): string[] {
  if (draft.persons.length === 0) return [];
  return [...new Set(picks.map((p) => draft.persons[p % draft.persons.length]!.id))];
}

/** The edit a command means for this draft; undefined for history commands and commands that find nothing to act on. */
export function editFor(draft: Draft, command: Command): { edit: Edit; typing: boolean } | undefined {
  const at = (p: Pick): ItemPath | undefined => resolve(draft, p)?.at;
  switch (command.op) {
    case 'workshop':
      return { edit: { kind: 'set', path: ['workshop', command.field], value: command.value }, typing: command.typing };
    case 'field': {
      const target = at(command.pick);
      return target && { edit: { kind: 'set', path: [...itemSegments(target), command.field], value: command.value }, typing: command.typing };
    }
    case 'add':
      return { edit: { kind: 'add', item: command.item, container: command.pick === null ? null : (at(command.pick) ?? null) }, typing: false };
    case 'duplicate':
    case 'delete': {
      const target = at(command.pick);
      return target && { edit: { kind: command.op, at: target }, typing: false };
    }
    case 'shift': {
      const target = at(command.pick);
      return target && { edit: { kind: 'shift', at: target, by: command.by }, typing: false };
    }
    case 'move': {
      const target = at(command.pick);
      const to = command.target === null ? null : (at(command.target) ?? null);
      return target && { edit: { kind: 'move', at: target, to, index: command.index, ...(command.lane === undefined ? {} : { lane: command.lane }) }, typing: false };
    }
    case 'lanePersons': {
      const target = resolve(draft, command.pick);
      if (target?.item.type !== 'breakout') return undefined;
      return { edit: { kind: 'set', path: [...itemSegments(target.at), 'lanePersons', String(command.lane)], value: peopleIds(draft, command.people) }, typing: false };
    }
    case 'personIds': {
      const target = resolve(draft, command.pick);
      if (target?.item.type !== 'block') return undefined;
      return { edit: { kind: 'set', path: [...itemSegments(target.at), 'personIds'], value: peopleIds(draft, command.people) }, typing: false };
    }
    case 'blockType': {
      const target = resolve(draft, command.pick);
      if (target?.item.type !== 'block') return undefined;
      const id = command.entry === null || draft.blockTypes.length === 0 ? null : draft.blockTypes[command.entry % draft.blockTypes.length]!.id;
      return { edit: { kind: 'set', path: [...itemSegments(target.at), 'blockTypeId'], value: id }, typing: false };
    }
    case 'addEntry':
      return { edit: { kind: 'addEntry', list: command.list }, typing: false };
    case 'removeEntry':
    case 'renameEntry':
    case 'entryField': {
      const entries = draft[command.list];
      if (entries.length === 0) return undefined;
      const index = command.entry % entries.length;
      if (command.op === 'removeEntry') return { edit: { kind: 'removeEntry', list: command.list, index }, typing: false };
      if (command.op === 'renameEntry') return { edit: { kind: 'renameEntry', list: command.list, index, id: command.id }, typing: false };
      if (command.field === 'role' && command.list !== 'persons') return undefined;
      if (command.field === 'color' && command.list !== 'blockTypes') return undefined;
      return { edit: { kind: 'set', path: [command.list, index, command.field], value: command.value }, typing: false };
    }
    default:
      return undefined;
  }
}

/** Runs one command on a planner (history commands included). */
export function runCommand(planner: Planner, command: Command): void {
  if (command.op === 'undo') planner.undo();
  else if (command.op === 'redo') planner.redo();
  else if (command.op === 'finish') planner.finishEdit();
  else {
    const step = editFor(planner.state.draft, command);
    if (step) planner.apply(step.edit, { typing: step.typing });
  }
}
