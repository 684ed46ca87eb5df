// The planner's document and how to address its parts: item paths, field paths, the nesting rule, counting.
import { formatPath } from '../session/paths.js';
import type { Block, Breakout, Group, Item, Session } from '../session/schema.js';

// Why a draft is typed as the canonical Session: the editor always holds a document in canonical shape (every edit
// keeps each object's keys and order), but while a field is being typed it may hold a value the rules refuse (an
// empty title, a lane past the lanes). Such a draft is validated with the server's own code and never reaches the
// link; the types say what a field holds when the draft is valid.
export type Draft = Session;
export type { Block, Breakout, Group, Item };

export type ItemKind = Item['type'];
export type Container = Group | Breakout;

/** Where an item is: its index in `items`, then in each container's `children`. */
export type ItemPath = readonly number[];

/** Where any value is: object keys and list indices from the document down (as in problem paths). */
export type Segments = readonly (string | number)[];

/** JSON values a field can be set to. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** The nesting rule (docs/import-guide.md): the top level holds blocks, groups and breakouts; groups hold blocks and breakouts; breakouts hold blocks. */
export function canHold(container: ItemKind | null, child: ItemKind): boolean {
  if (container === null) return true;
  if (container === 'group') return child === 'block' || child === 'breakout';
  if (container === 'breakout') return child === 'block';
  return false;
}

export function isContainer(item: Item | undefined): item is Container {
  return item !== undefined && (item.type === 'group' || item.type === 'breakout');
}

/** The item at a path, or undefined. */
export function itemAt(draft: Draft, at: ItemPath): Item | undefined {
  let list: readonly Item[] = draft.items;
  let item: Item | undefined;
  for (const index of at) {
    item = list[index];
    if (item === undefined) return undefined;
    list = isContainer(item) ? (item.children as readonly Item[]) : [];
  }
  return item;
}

/** The field path of an item path: [2, 0] → ['items', 2, 'children', 0]. */
export function itemSegments(at: ItemPath): (string | number)[] {
  const segments: (string | number)[] = [];
  at.forEach((index, depth) => segments.push(depth === 0 ? 'items' : 'children', index));
  return segments;
}

/** The item path of a field's segments, the inverse of itemSegments: ['items', 2, 'children', 0, 'title'] → [2, 0]. */
export function itemPathOf(segments: Segments): number[] {
  const at: number[] = [];
  if (segments[0] !== 'items') return at;
  for (let index = 1; index < segments.length; index += 2) {
    const position = segments[index];
    if (typeof position !== 'number' || (index > 1 && segments[index - 1] !== 'children')) break;
    at.push(position);
  }
  return at;
}

/** The last named key of a field's segments (`duration` of `items[0].duration`), which says what kind of field it is. */
export function fieldKey(segments: Segments | undefined): string | undefined {
  return segments?.filter((segment): segment is string => typeof segment === 'string').at(-1);
}

/** The problem path of a field: the same text the session code puts in its messages (`items[2].children[0].title`). */
export function fieldPath(segments: Segments): string {
  return formatPath(segments);
}

/** Every item in document order with its path (containers before their children). */
export function* walkItems(draft: Draft): Generator<{ item: Item; at: number[] }> {
  function* visit(list: readonly Item[], prefix: number[]): Generator<{ item: Item; at: number[] }> {
    for (let i = 0; i < list.length; i++) {
      const item = list[i]!;
      const at = [...prefix, i];
      yield { item, at };
      if (isContainer(item)) yield* visit(item.children as readonly Item[], at);
    }
  }
  yield* visit(draft.items, []);
}

/** Items in the whole tree, containers and children alike (what the 500-item limit counts). */
export function countItems(items: readonly Item[]): number {
  let count = items.length;
  for (const item of items) if (isContainer(item)) count += countItems(item.children as readonly Item[]);
  return count;
}

/** The path of the item with this ID, or undefined. */
export function findItem(draft: Draft, id: string): number[] | undefined {
  for (const { item, at } of walkItems(draft)) if (item.id === id) return at;
  return undefined;
}

/** True when `inner` is `outer` or lies inside it. */
export function isWithin(inner: ItemPath, outer: ItemPath): boolean {
  return inner.length >= outer.length && outer.every((index, depth) => inner[depth] === index);
}

/**
 * The segments of a problem path (`items[2].children[0].title`, `items[0].lanePersons["1"]`): the inverse of
 * fieldPath for the paths the session code writes. Undefined for text that is no such path.
 */
export function parseFieldPath(path: string): (string | number)[] | undefined {
  const segments: (string | number)[] = [];
  const pattern = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  let at = 0;
  while (at < path.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(path);
    if (match === null) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]!) as string);
    at = pattern.lastIndex;
  }
  return segments.length > 0 ? segments : undefined;
}
