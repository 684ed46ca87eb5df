// Editor operations on a draft, as data (so history, tests and the UI share them): each returns a new draft, sharing what it did not change.
import { RESERVED_KEYS } from '../session/paths.js';
import { BLOCK_TYPE_COLORS, copyWithNewIds, freshId, itemIds, newItem, type NewPartLabels } from './factory.js';
import {
  canHold,
  isContainer,
  isWithin,
  itemAt,
  type Block,
  type Breakout,
  type Draft,
  type Item,
  type ItemKind,
  type ItemPath,
  type JsonValue,
  type Segments,
} from './tree.js';

/** What a new block may start with instead of the defaults. */
export type BlockFields = Partial<Pick<Block, 'title' | 'duration' | 'description' | 'material'>>;

/** The lists of named entries that items refer to by ID. */
export type EntryList = 'blockTypes' | 'persons';

export type Edit =
  /** Any field the draft has (workshop, block type, person, item), or a breakout's lane people (`['items', 2, 'lanePersons', '1']`). */
  | { readonly kind: 'set'; readonly path: Segments; readonly value: JsonValue }
  /** Removes an object key: a field an older document carried that the current format does not know. */
  | { readonly kind: 'remove'; readonly path: Segments }
  /**
   * A new item at the end of a container's children, or of the top level when `container` is null or cannot hold it;
   * `fields` fill a new block's texts and length (a method from the library).
   */
  | { readonly kind: 'add'; readonly item: ItemKind; readonly container: ItemPath | null; readonly fields?: BlockFields }
  /** A copy with new IDs right after the item. */
  | { readonly kind: 'duplicate'; readonly at: ItemPath }
  | { readonly kind: 'delete'; readonly at: ItemPath }
  /** One place up (-1) or down (+1) among its siblings. */
  | { readonly kind: 'shift'; readonly at: ItemPath; readonly by: -1 | 1 }
  /** Into a container (or the top level when `to` is null) at `index` of the resulting list; `lane` for a breakout. */
  | { readonly kind: 'move'; readonly at: ItemPath; readonly to: ItemPath | null; readonly index: number; readonly lane?: number }
  | { readonly kind: 'addEntry'; readonly list: EntryList }
  /** Removes a block type or person; blocks and lanes that referred to it no longer do. */
  | { readonly kind: 'removeEntry'; readonly list: EntryList; readonly index: number }
  /** Gives a block type or person another ID; every reference follows. */
  | { readonly kind: 'renameEntry'; readonly list: EntryList; readonly index: number; readonly id: string };

/** The draft after an edit and, for edits that place an item, where it is now. Unchanged drafts are returned as they were. */
export interface EditResult {
  readonly draft: Draft;
  readonly at?: ItemPath;
}

type Node = Record<string, unknown> | unknown[];

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null;
}

/** A copy of `node` with `key` set by `change` (keys keep their order), or `node` itself when `change` returns the same. */
function withChild(node: Node, key: string | number, change: (child: unknown) => unknown): Node {
  const before = (node as Record<string | number, unknown>)[key];
  const after = change(before);
  if (after === before) return node;
  if (Array.isArray(node)) {
    const copy = node.slice();
    copy[key as number] = after;
    return copy;
  }
  return { ...node, [key]: after };
}

/** Applies `change` to the value at `segments`, copying every node on the way; unchanged when the path does not exist. */
function updateIn(node: unknown, segments: Segments, change: (value: unknown) => unknown): unknown {
  if (segments.length === 0) return change(node);
  if (!isNode(node)) return node;
  const [key, ...rest] = segments as [string | number, ...(string | number)[]];
  if (typeof key === 'string' && RESERVED_KEYS.has(key)) return node;
  if (Array.isArray(node) !== (typeof key === 'number')) return node;
  if (Array.isArray(node) && (key as number) >= node.length) return node;
  if (rest.length > 0 && !Object.prototype.hasOwnProperty.call(node, key)) return node;
  return withChild(node, key, (child) => updateIn(child, rest, change));
}

/** The path of an item's children list (or the top level's `items`). */
function childrenPath(container: ItemPath | null): (string | number)[] {
  const segments: (string | number)[] = ['items'];
  for (const index of container ?? []) segments.push(index, 'children');
  return segments;
}

function updateList(draft: Draft, container: ItemPath | null, change: (list: Item[]) => Item[]): Draft {
  return updateIn(draft, childrenPath(container), (list) => (Array.isArray(list) ? change(list as Item[]) : list)) as Draft;
}

/** Every item of the tree through `change` (children first); subtrees that did not change are kept as they are. */
function mapItems(items: readonly Item[], change: (item: Item) => Item): Item[] | readonly Item[] {
  let changed = false;
  const next = items.map((item) => {
    let updated = item;
    if (isContainer(item)) {
      const children = mapItems(item.children as Item[], change);
      if (children !== item.children) updated = { ...item, children } as Item;
    }
    updated = change(updated);
    if (updated !== item) changed = true;
    return updated;
  });
  return changed ? next : items;
}

function withItems(draft: Draft, items: readonly Item[]): Draft {
  return items === draft.items ? draft : { ...draft, items: items as Item[] };
}

/** A block's lane where it now sits: 0 outside a breakout and in a "same in all" one, else `wanted` or its old lane when it fits. */
function laneIn(parent: Item | undefined, block: Block, wanted: number | undefined): number {
  if (parent?.type !== 'breakout' || parent.sameInAllBreakouts) return 0;
  const lane = wanted ?? block.laneIndex;
  return Number.isInteger(lane) && lane >= 0 && lane < parent.lanes ? lane : 0;
}

function setField(draft: Draft, path: Segments, value: JsonValue): Draft {
  const last = path[path.length - 1];
  if (last === undefined || (typeof last === 'string' && RESERVED_KEYS.has(last))) return draft;
  const parentPath = path.slice(0, -1);
  // A lane with nobody in it has no key: lanePersons then reads the same however it got there.
  if (parentPath[parentPath.length - 1] === 'lanePersons' && Array.isArray(value) && value.length === 0) return removeKey(draft, path);
  let next = updateIn(draft, parentPath, (parent) => {
    if (!isNode(parent)) return parent;
    if (Array.isArray(parent) !== (typeof last === 'number')) return parent;
    // Fields are set, not made up: only a lane of lanePersons may be a new key (the document has no optional fields).
    if (!Object.prototype.hasOwnProperty.call(parent, last) && parentPath[parentPath.length - 1] !== 'lanePersons') return parent;
    const current = (parent as Record<string | number, unknown>)[last];
    return current === value ? parent : withChild(parent, last, () => value);
  }) as Draft;
  // "Same in all breakouts" puts every child in lane 0 (docs/import-guide.md); their own lanes would be errors nobody can see.
  if (last === 'sameInAllBreakouts' && value === true && next !== draft) {
    next = updateIn(next, parentPath, (parent) => {
      if (!isNode(parent) || (parent as { type?: unknown }).type !== 'breakout') return parent;
      const breakout = parent as Breakout;
      if (breakout.children.every((child) => child.laneIndex === 0)) return breakout;
      return { ...breakout, children: breakout.children.map((child) => (child.laneIndex === 0 ? child : { ...child, laneIndex: 0 })) };
    }) as Draft;
  }
  return next;
}

function removeKey(draft: Draft, path: Segments): Draft {
  const last = path[path.length - 1];
  if (typeof last !== 'string') return draft;
  return updateIn(draft, path.slice(0, -1), (parent) => {
    if (!isNode(parent) || Array.isArray(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) return parent;
    const copy = { ...parent };
    delete copy[last];
    return copy;
  }) as Draft;
}

function add(draft: Draft, kind: ItemKind, container: ItemPath | null, labels: NewPartLabels, fields?: BlockFields): EditResult {
  const target = container === null ? undefined : itemAt(draft, container);
  const inside = container !== null && isContainer(target) && canHold(target.type, kind);
  const made = newItem(kind, labels, itemIds(draft));
  const item = fields !== undefined && made.type === 'block' ? { ...made, ...fields } : made;
  const parent = inside ? container : null;
  const length = inside ? target.children.length : draft.items.length;
  return { draft: updateList(draft, parent, (list) => [...list, item]), at: [...(parent ?? []), length] };
}

function duplicate(draft: Draft, at: ItemPath): EditResult {
  const item = itemAt(draft, at);
  if (item === undefined) return { draft };
  const copy = copyWithNewIds(item, itemIds(draft));
  const index = at[at.length - 1]!;
  const parent = at.slice(0, -1);
  return {
    draft: updateList(draft, parent.length === 0 ? null : parent, (list) => [...list.slice(0, index + 1), copy, ...list.slice(index + 1)]),
    at: [...parent, index + 1],
  };
}

function remove(draft: Draft, at: ItemPath): EditResult {
  if (itemAt(draft, at) === undefined) return { draft };
  const index = at[at.length - 1]!;
  const parent = at.slice(0, -1);
  return { draft: updateList(draft, parent.length === 0 ? null : parent, (list) => list.filter((_, i) => i !== index)) };
}

function shift(draft: Draft, at: ItemPath, by: -1 | 1): EditResult {
  const index = at[at.length - 1];
  const parent = at.slice(0, -1);
  const list = parent.length === 0 ? draft.items : (itemAt(draft, parent) as { children?: Item[] } | undefined)?.children;
  if (index === undefined || list === undefined || list[index] === undefined) return { draft };
  const other = index + by;
  if (other < 0 || other >= list.length) return { draft, at };
  const next = updateList(draft, parent.length === 0 ? null : parent, (items) => {
    const copy = items.slice();
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
    return copy;
  });
  return { draft: next, at: [...parent, other] };
}

/** Where `to` points once the item at `at` has been taken out of its list (later siblings move up one place). */
function afterRemoval(to: ItemPath, at: ItemPath): number[] {
  const depth = at.length - 1;
  const adjusted = [...to];
  if (to.length > depth && at.slice(0, depth).every((index, d) => to[d] === index) && to[depth]! > at[depth]!) adjusted[depth]!--;
  return adjusted;
}

/** Whether the item at `at` may move into `to` (null: the top level): the nesting rule, and never into itself. */
export function canMoveInto(draft: Draft, at: ItemPath, to: ItemPath | null): boolean {
  const item = itemAt(draft, at);
  if (item === undefined) return false;
  if (to === null) return true;
  const target = itemAt(draft, to);
  return isContainer(target) && canHold(target.type, item.type) && !isWithin(to, at);
}

function move(draft: Draft, at: ItemPath, to: ItemPath | null, index: number, lane: number | undefined): EditResult {
  if (!canMoveInto(draft, at, to)) return { draft };
  const item = itemAt(draft, at)!;
  const from = at.slice(0, -1);
  const taken = remove(draft, at).draft;
  const target = to === null ? null : afterRemoval(to, at);
  const parent = target === null ? undefined : itemAt(taken, target);
  const list = target === null ? taken.items : (parent as { children: Item[] }).children;
  const place = Math.max(0, Math.min(Math.trunc(index), list.length));
  let moved = item;
  if (item.type === 'block') {
    const laneIndex = laneIn(parent, item, lane);
    if (laneIndex !== item.laneIndex) moved = { ...item, laneIndex };
  }
  // Back where it was, in the same lane: nothing changed.
  const same = target !== null ? from.length === target.length && from.every((v, i) => v === target[i]) : from.length === 0;
  if (same && place === at[at.length - 1] && moved === item) return { draft, at };
  return { draft: updateList(taken, target, (items) => [...items.slice(0, place), moved, ...items.slice(place)]), at: [...(target ?? []), place] };
}

function addEntry(draft: Draft, list: EntryList, labels: NewPartLabels): EditResult {
  if (list === 'blockTypes') {
    const id = freshId('type', new Set(draft.blockTypes.map((entry) => entry.id)));
    const color = BLOCK_TYPE_COLORS[draft.blockTypes.length % BLOCK_TYPE_COLORS.length]!;
    return { draft: { ...draft, blockTypes: [...draft.blockTypes, { id, name: labels.blockType, color }] } };
  }
  const id = freshId('person', new Set(draft.persons.map((entry) => entry.id)));
  return { draft: { ...draft, persons: [...draft.persons, { id, name: labels.person, role: '' }] } };
}

/** Every reference to a block type or person ID through `change` (null: the reference goes). */
function rewriteReferences(draft: Draft, list: EntryList, id: string, replacement: string | null): Draft {
  if (list === 'blockTypes') {
    return withItems(draft, mapItems(draft.items, (item) => (item.type === 'block' && item.blockTypeId === id ? { ...item, blockTypeId: replacement } : item)));
  }
  const swap = (ids: readonly string[]): string[] =>
    replacement === null ? ids.filter((entry) => entry !== id) : ids.map((entry) => (entry === id ? replacement : entry));
  return withItems(
    draft,
    mapItems(draft.items, (item) => {
      if (item.type === 'block') return item.personIds.includes(id) ? { ...item, personIds: swap(item.personIds) } : item;
      if (item.type !== 'breakout' || !Object.values(item.lanePersons).some((ids) => ids.includes(id))) return item;
      const lanePersons: Record<string, string[]> = {};
      for (const [lane, ids] of Object.entries(item.lanePersons)) {
        const kept = ids.includes(id) ? swap(ids) : ids;
        if (kept.length > 0) lanePersons[lane] = kept;
      }
      return { ...item, lanePersons };
    }),
  );
}

function removeEntry(draft: Draft, list: EntryList, index: number): EditResult {
  const entries = draft[list] as readonly { id: string }[];
  const entry = entries[index];
  if (entry === undefined) return { draft };
  const rest = entries.filter((_, i) => i !== index);
  const next = { ...draft, [list]: rest } as Draft;
  // An older document may declare an ID twice: references stay while another entry still declares it.
  return { draft: rest.some((other) => other.id === entry.id) ? next : rewriteReferences(next, list, entry.id, null) };
}

function renameEntry(draft: Draft, list: EntryList, index: number, id: string): EditResult {
  const entries = draft[list] as readonly { id: string }[];
  const entry = entries[index];
  if (entry === undefined || entry.id === id) return { draft };
  const renamed = entries.map((other, i) => (i === index ? { ...other, id } : other));
  const next = { ...draft, [list]: renamed } as Draft;
  const shared = entries.some((other, i) => i !== index && other.id === entry.id);
  return { draft: shared ? next : rewriteReferences(next, list, entry.id, id) };
}

/** Applies one edit; an edit that does not fit the draft (a path that is not there, a move the nesting rule forbids) changes nothing. */
export function applyEdit(draft: Draft, edit: Edit, labels: NewPartLabels): EditResult {
  switch (edit.kind) {
    case 'set':
      return { draft: setField(draft, edit.path, edit.value) };
    case 'remove':
      return { draft: removeKey(draft, edit.path) };
    case 'add':
      return add(draft, edit.item, edit.container, labels, edit.fields);
    case 'duplicate':
      return duplicate(draft, edit.at);
    case 'delete':
      return remove(draft, edit.at);
    case 'shift':
      return shift(draft, edit.at, edit.by);
    case 'move':
      return move(draft, edit.at, edit.to, edit.index, edit.lane);
    case 'addEntry':
      return addEntry(draft, edit.list, labels);
    case 'removeEntry':
      return removeEntry(draft, edit.list, edit.index);
    case 'renameEntry':
      return renameEntry(draft, edit.list, edit.index, edit.id);
  }
}

/** A place an item can be moved to without a mouse: the top level or a container, with the lane for a breakout's blocks. */
export interface MoveTarget {
  /** null: the top level. */
  readonly to: ItemPath | null;
  readonly container: Item | null;
}

/**
 * Every container the item at `at` may move into (the nesting rule; not itself or its own children), and the top level
 * unless it is there already: the choices of the keyboard's "Move to" control. The item's own container is left out.
 */
export function moveTargets(draft: Draft, at: ItemPath): MoveTarget[] {
  const item = itemAt(draft, at);
  if (item === undefined) return [];
  const parent = at.slice(0, -1);
  const targets: MoveTarget[] = parent.length === 0 ? [] : [{ to: null, container: null }];
  const visit = (list: readonly Item[], prefix: number[]): void => {
    list.forEach((candidate, index) => {
      const path = [...prefix, index];
      if (!isContainer(candidate) || isWithin(path, at)) return;
      const own = path.length === parent.length && path.every((value, i) => value === parent[i]);
      if (!own && canHold(candidate.type, item.type)) targets.push({ to: path, container: candidate });
      visit(candidate.children as readonly Item[], path);
    });
  };
  visit(draft.items, []);
  return targets;
}
