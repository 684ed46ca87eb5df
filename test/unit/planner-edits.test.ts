// The planner's editor operations (src/planner/edits.ts): each edit on real documents, the nesting rule, references kept consistent.
import { describe, expect, it } from 'vitest';
import { applyEdit, canMoveInto, moveTargets, type Edit } from '../../src/planner/edits.js';
import { emptyDraft } from '../../src/planner/factory.js';
import { en } from '../../src/planner/i18n/en.js';
import { countItems, fieldPath, itemAt, parseFieldPath, walkItems, type Draft } from '../../src/planner/tree.js';
import { checkRules } from '../../src/session/rules.js';
import { validateForCreate } from '../../src/session/validate.js';
import { richSession } from '../fixtures/sessions.js';

const rich = (): Draft => validateForCreate(richSession()).session;
const apply = (draft: Draft, edit: Edit) => applyEdit(draft, edit, en.newParts);
const ids = (draft: Draft): string[] => [...walkItems(draft)].map(({ item }) => item.id);

describe('set and remove', () => {
  it('sets a field keeping key order and sharing untouched parts', () => {
    const draft = rich();
    const { draft: next } = apply(draft, { kind: 'set', path: ['items', 1, 'children', 0, 'title'], value: 'Keynote' });
    expect((itemAt(next, [1, 0]) as { title: string }).title).toBe('Keynote');
    expect(Object.keys(itemAt(next, [1, 0])!)).toEqual(Object.keys(itemAt(draft, [1, 0])!));
    expect(next.items[0]).toBe(draft.items[0]);
    expect(next.workshop).toBe(draft.workshop);
    expect(draft.items[1]).not.toBe(next.items[1]);
    expect((itemAt(draft, [1, 0]) as { title: string }).title).toBe('Input');
  });

  it('returns the same draft for a value that is already there and for a path that is not', () => {
    const draft = rich();
    expect(apply(draft, { kind: 'set', path: ['workshop', 'title'], value: draft.workshop.title }).draft).toBe(draft);
    expect(apply(draft, { kind: 'set', path: ['items', 9, 'title'], value: 'x' }).draft).toBe(draft);
    expect(apply(draft, { kind: 'set', path: ['workshop', '__proto__'], value: 'x' }).draft).toBe(draft);
  });

  it('an empty lane list removes its key; setting "same in all breakouts" puts every child in lane 0', () => {
    const draft = rich();
    const cleared = apply(draft, { kind: 'set', path: ['items', 1, 'children', 1, 'lanePersons', '0'], value: [] }).draft;
    expect((itemAt(cleared, [1, 1]) as { lanePersons: object }).lanePersons).toEqual({ '1': ['ben'] });
    const same = apply(draft, { kind: 'set', path: ['items', 1, 'children', 1, 'sameInAllBreakouts'], value: true }).draft;
    expect((itemAt(same, [1, 1, 1]) as { laneIndex: number }).laneIndex).toBe(0);
    expect(checkRules(same)).toEqual([]);
  });

  it('removes a field an older document carried', () => {
    const draft = { ...rich(), workshop: { ...rich().workshop, venue: 'Room 4' } } as Draft;
    const { draft: next } = apply(draft, { kind: 'remove', path: ['workshop', 'venue'] });
    expect(next.workshop).toEqual(rich().workshop);
  });
});

describe('structure', () => {
  it('adds at the end of the top level, or inside the selected container where it may go', () => {
    const draft = rich();
    const top = apply(draft, { kind: 'add', item: 'block', container: null });
    expect(top.at).toEqual([3]);
    expect(itemAt(top.draft, [3])).toMatchObject({ type: 'block', id: 'block-1', title: 'New block', duration: 15 });
    const inGroup = apply(draft, { kind: 'add', item: 'breakout', container: [1] });
    expect(inGroup.at).toEqual([1, 2]);
    expect(itemAt(inGroup.draft, [1, 2])).toMatchObject({ type: 'breakout', lanes: 2, lanePersons: {} });
    // A group cannot hold a group: it goes to the top level instead.
    expect(apply(draft, { kind: 'add', item: 'group', container: [1] }).at).toEqual([3]);
    expect(() => validateForCreate(inGroup.draft)).not.toThrow();
  });

  it('duplicates with new IDs for the item and all its children', () => {
    const draft = rich();
    const { draft: next, at } = apply(draft, { kind: 'duplicate', at: [1] });
    expect(at).toEqual([2]);
    expect(countItems(next.items)).toBe(countItems(draft.items) + 5);
    expect(new Set(ids(next)).size).toBe(ids(next).length);
    const copy = itemAt(next, [2]) as { title: string; children: unknown[] };
    expect(copy.title).toBe('Group morning');
    expect(() => validateForCreate(next)).not.toThrow();
  });

  it('deletes, and moves up and down among siblings only', () => {
    const draft = rich();
    expect(ids(apply(draft, { kind: 'delete', at: [1, 1] }).draft)).toEqual(['welcome', 'morning', 'input', 'same', 'same-1', 'same-2']);
    const down = apply(draft, { kind: 'shift', at: [0], by: 1 });
    expect(down.at).toEqual([1]);
    expect(down.draft.items.map((item) => item.id)).toEqual(['morning', 'welcome', 'same']);
    expect(apply(draft, { kind: 'shift', at: [0], by: -1 }).draft).toBe(draft);
  });

  it('moves into and out of containers where docs/import-guide.md allows, fixing the lane', () => {
    const draft = rich();
    // table-b (lane 1) out to the top level: lane 0 there.
    const out = apply(draft, { kind: 'move', at: [1, 1, 1], to: null, index: 0 });
    expect(out.at).toEqual([0]);
    expect(itemAt(out.draft, [0])).toMatchObject({ id: 'table-b', laneIndex: 0 });
    expect(() => validateForCreate(out.draft)).not.toThrow();
    // welcome into the three-lane breakout, lane 2.
    const into = apply(draft, { kind: 'move', at: [0], to: [2], index: 1, lane: 2 });
    expect(into.at).toEqual([1, 1]);
    expect(itemAt(into.draft, [1, 1])).toMatchObject({ id: 'welcome', laneIndex: 0 }); // same in all breakouts: lane 0
    // A breakout into a group, a group nowhere but the top level, nothing into itself.
    expect(canMoveInto(draft, [2], [1])).toBe(true);
    expect(canMoveInto(draft, [1], [2])).toBe(false);
    expect(canMoveInto(draft, [1, 1], [1, 1])).toBe(false);
    expect(canMoveInto(draft, [0], [0])).toBe(false);
    expect(apply(draft, { kind: 'move', at: [1], to: [2], index: 0 }).draft).toBe(draft);
    // Moving down the same list: the index is the place in the resulting list.
    const later = apply(draft, { kind: 'move', at: [0], to: null, index: 2 });
    expect(later.draft.items.map((item) => item.id)).toEqual(['morning', 'same', 'welcome']);
    // A container later in the same list than the moved item: its path shifts up by one.
    const intoLater = apply(draft, { kind: 'move', at: [0], to: [1], index: 0 });
    expect(intoLater.at).toEqual([0, 0]);
    expect(itemAt(intoLater.draft, [0, 0])!.id).toBe('welcome');
  });
});

describe('block types and persons', () => {
  it('adds entries with fresh IDs', () => {
    const draft = apply(apply(emptyDraft(en.newParts), { kind: 'addEntry', list: 'persons' }).draft, { kind: 'addEntry', list: 'persons' }).draft;
    expect(draft.persons.map((person) => person.id)).toEqual(['person-1', 'person-2']);
    const typed = apply(draft, { kind: 'addEntry', list: 'blockTypes' }).draft;
    expect(typed.blockTypes[0]).toMatchObject({ id: 'type-1', name: 'New category' });
    expect(() => validateForCreate(typed)).not.toThrow();
  });

  it('removing one removes every reference to it', () => {
    const draft = rich();
    const noAna = apply(draft, { kind: 'removeEntry', list: 'persons', index: 0 }).draft;
    expect(checkRules(noAna)).toEqual([]);
    expect(JSON.stringify(noAna)).not.toContain('"ana"');
    expect((itemAt(noAna, [1, 1]) as { lanePersons: object }).lanePersons).toEqual({ '1': ['ben'] });
    const noTalk = apply(draft, { kind: 'removeEntry', list: 'blockTypes', index: 0 }).draft;
    expect(checkRules(noTalk)).toEqual([]);
    expect(itemAt(noTalk, [0])).toMatchObject({ blockTypeId: null });
    expect(itemAt(noTalk, [1, 1, 1])).toMatchObject({ blockTypeId: 'work' });
  });

  it('renaming an ID renames every reference; renaming a name touches nothing else', () => {
    const draft = rich();
    const renamed = apply(draft, { kind: 'renameEntry', list: 'persons', index: 1, id: 'benjamin' }).draft;
    expect(checkRules(renamed)).toEqual([]);
    expect(JSON.stringify(renamed)).not.toContain('"ben"');
    expect((itemAt(renamed, [1, 1]) as { lanePersons: object }).lanePersons).toEqual({ '0': ['ana'], '1': ['benjamin'] });
    const named = apply(draft, { kind: 'set', path: ['blockTypes', 0, 'name'], value: 'Keynote' }).draft;
    expect(named.items).toBe(draft.items);
  });
});

describe('keyboard move targets', () => {
  it('lists the containers an item may move into, and the top level when it is nested', () => {
    const draft = rich();
    const names = (at: number[]) => moveTargets(draft, at).map((target) => target.container?.id ?? 'top');
    // welcome (a top-level block): the group, the breakout in it, the other breakout.
    expect(names([0])).toEqual(['morning', 'tables', 'same']);
    // table-a (in the breakout "tables"): the top level, the group, the other breakout; not its own breakout.
    expect(names([1, 1, 0])).toEqual(['top', 'morning', 'same']);
    // the breakout "tables" may go to the top level only (a breakout cannot hold a breakout).
    expect(names([1, 1])).toEqual(['top']);
    // a group may only be at the top level, where it is.
    expect(names([1])).toEqual([]);
    for (const target of moveTargets(draft, [1, 1, 0])) expect(canMoveInto(draft, [1, 1, 0], target.to)).toBe(true);
  });
});

describe('field paths', () => {
  it('parses the paths the session code writes back into segments', () => {
    for (const segments of [['workshop', 'title'], ['items', 2, 'children', 0, 'laneIndex'], ['items', 0, 'lanePersons', '1'], ['items', 1, 'odd key', 'x'], ['blockTypes', 10, 'id']]) {
      expect(parseFieldPath(fieldPath(segments))).toEqual(segments);
    }
    expect(parseFieldPath('session')).toEqual(['session']);
    expect(parseFieldPath('items[x]')).toBeUndefined();
  });
});
