// New parts of a document: the empty plan, items, block types and persons with fresh IDs, deep copies with new IDs.
import { DEFAULT_LANES, SESSION_VERSION } from '../session/constants.js';
import { isContainer, walkItems, type Block, type Breakout, type Draft, type Group, type Item, type ItemKind } from './tree.js';

/** The visible defaults of new parts, in the page's language (the string tables give them). */
export interface NewPartLabels {
  readonly plan: string;
  readonly block: string;
  readonly group: string;
  readonly breakout: string;
  readonly blockType: string;
  readonly person: string;
}

/** Durations of new items in minutes: a block is a short slot, containers span a longer part of the day. */
export const NEW_DURATIONS: Readonly<Record<ItemKind, number>> = { block: 15, group: 60, breakout: 30 };

/** Colours given to new block types in turn (readable on white, distinct from each other). */
export const BLOCK_TYPE_COLORS = ['#2d5bd7', '#e4572e', '#2a9d8f', '#8e44ad', '#c9a227', '#d6336c', '#5c7cfa', '#2b8a3e'] as const;

/** The smallest valid document: a title and nothing else (what "New plan" starts from). */
export function emptyDraft(labels: NewPartLabels): Draft {
  return { version: SESSION_VERSION, workshop: { title: labels.plan, description: '', date: null, startTime: null }, blockTypes: [], persons: [], items: [] };
}

/** `prefix-n` with the smallest n ≥ 1 not in `taken`. */
export function freshId(prefix: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const id = `${prefix}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/** Every item ID of the tree (they must be unique across it). */
export function itemIds(draft: Draft): Set<string> {
  const ids = new Set<string>();
  for (const { item } of walkItems(draft)) ids.add(item.id);
  return ids;
}

/** A new item of a kind, keys in schema order (so the draft stays canonical), with an ID not in `taken` (added to it). */
export function newItem(kind: ItemKind, labels: NewPartLabels, taken: Set<string>): Item {
  const id = freshId(kind, taken);
  taken.add(id);
  const title = labels[kind];
  const duration = NEW_DURATIONS[kind];
  if (kind === 'block') {
    const block: Block = {
      type: 'block', id, title, duration, blockTypeId: null, personIds: [],
      description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0,
    };
    return block;
  }
  if (kind === 'group') {
    const group: Group = { type: 'group', id, title, duration, description: '', notes: '', fixedStartTime: null, children: [] };
    return group;
  }
  const breakout: Breakout = {
    type: 'breakout', id, title, duration, description: '', notes: '', fixedStartTime: null,
    lanes: DEFAULT_LANES, sameInAllBreakouts: false, lanePersons: {}, children: [],
  };
  return breakout;
}

/** A deep copy of an item whose ID and every descendant's ID are fresh (added to `taken`); all else is kept. */
export function copyWithNewIds(item: Item, taken: Set<string>): Item {
  const id = freshId(item.type, taken);
  taken.add(id);
  // structuredClone keeps key order and any field an older document carried; only the IDs change.
  const copy = structuredClone(item) as Item;
  copy.id = id;
  if (isContainer(copy) && isContainer(item)) {
    (copy as { children: Item[] }).children = (item.children as Item[]).map((child) => copyWithNewIds(child, taken));
  }
  return copy;
}
