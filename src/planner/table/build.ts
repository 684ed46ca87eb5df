// Rows of a table as items of a plan: a row is a block; rows marked "↳" under a row make it a group, or a breakout
// when they name lanes (the Breakout column); categories and people are found by name or added. Times: a start that
// differs from where the row would start anyway becomes its fixed start time, and a missing duration is taken from
// the next row's start.
import { MAX_LANES, SESSION_VERSION } from '../../session/constants.js';
import { NESTED_MARK, type TableColumn } from '../../plan-view/table-columns.js';
import { BLOCK_TYPE_COLORS, freshId } from '../factory.js';
import type { Block, Breakout, Draft, Group, Item } from '../tree.js';
import { parseClock, parseDuration, splitPeople } from './cells.js';
import type { TableProblem } from './problems.js';
import type { TableRows } from './rows.js';

/** Words a lane cell may use for "every lane runs it" (the download writes the page language's). */
const ALL_LANES = new Set(['all', 'alle', '*']);

interface RowItem {
  readonly row: number;
  readonly depth: number;
  readonly cells: Readonly<Record<TableColumn, string>>;
  readonly children: RowItem[];
}

export interface TableItems {
  readonly items: Item[];
  /** Categories and people the table names that the plan did not have, to be added to it. */
  readonly blockTypes: Draft['blockTypes'];
  readonly persons: Draft['persons'];
  /** The first row's start, when it has one (the workshop's start time on replacing). */
  readonly startTime: string | null;
  /** The table row of each item by its path in the new items ("3", "3.children.1"). */
  readonly rowOfPath: ReadonlyMap<string, number>;
  readonly problems: readonly TableProblem[];
}

/**
 * The items of `table`; `draft` is the plan they go into (its categories, people and IDs), `origin` the minute the
 * first row starts at (null: the plan has no clock, so start times are not pinned). With `firstStartIsOrigin` (the
 * table replaces the agenda, and its first start becomes the workshop's), the first row's start is the origin.
 */
export function tableItems(table: TableRows, draft: Draft, origin: number | null, firstStartIsOrigin: boolean, taken: Set<string>): TableItems {
  const problems: TableProblem[] = [...table.problems];
  const cellOf = (cells: readonly string[], column: TableColumn): string => {
    const at = table.columns.get(column);
    return at === undefined ? '' : (cells[at.index] ?? '').trim();
  };
  const header = (column: TableColumn): string => table.columns.get(column)?.header ?? column;

  /** A row's Breakout cell: a lane (or a breakout's lane count), "all", or nothing; anything else is reported once. */
  const laneOf = (item: RowItem, report = true): number | 'all' | null => {
    const text = item.cells.breakout.toLowerCase();
    if (text === '') return null;
    if (ALL_LANES.has(text)) return 'all';
    const lane = /^\d+$/.test(text) ? Number(text) : NaN;
    if (lane >= 1 && lane <= MAX_LANES) return lane;
    if (report) problems.push({ kind: 'lane', row: item.row, column: header('breakout'), text: item.cells.breakout });
    return null;
  };

  // The tree the ↳ marks describe.
  const top: RowItem[] = [];
  const open: RowItem[] = [];
  for (const { row, cells } of table.rows) {
    const raw = cellOf(cells, 'title');
    let depth = 0;
    let title = raw;
    while (title.startsWith(NESTED_MARK)) {
      depth += 1;
      title = title.slice(NESTED_MARK.length).trimStart();
    }
    const all = Object.fromEntries((['title', 'duration', 'start', 'description', 'notes', 'material', 'people', 'category', 'breakout'] as const).map((column) => [column, column === 'title' ? title : cellOf(cells, column)])) as Record<TableColumn, string>;
    const item: RowItem = { row, depth, cells: all, children: [] };
    if (title === '') problems.push({ kind: 'noTitle', row });
    laneOf(item);
    if (depth > 2) {
      problems.push({ kind: 'tooDeep', row });
      continue;
    }
    const parent = depth === 0 ? null : open[depth - 1];
    if (depth > 0 && parent === undefined) {
      problems.push({ kind: 'orphan', row });
      continue;
    }
    (parent === null ? top : parent!.children).push(item);
    open.length = depth;
    open[depth] = item;
  }

  // Categories and people by name, the table's new ones added in the order it names them.
  const blockTypes = [...draft.blockTypes];
  const persons = [...draft.persons];
  const newTypes: Draft['blockTypes'] = [];
  const newPersons: Draft['persons'] = [];
  const typeIds = new Set(blockTypes.map((type) => type.id));
  const personIds = new Set(persons.map((person) => person.id));
  const key = (name: string) => name.normalize('NFC').trim().toLowerCase();
  const categoryId = (name: string): string | null => {
    if (name === '') return null;
    const found = blockTypes.find((type) => key(type.name) === key(name));
    if (found) return found.id;
    const id = freshId('type', typeIds);
    typeIds.add(id);
    const type = { id, name, color: BLOCK_TYPE_COLORS[blockTypes.length % BLOCK_TYPE_COLORS.length]! };
    blockTypes.push(type);
    newTypes.push(type);
    return id;
  };
  const peopleIds = (text: string): string[] => {
    const ids: string[] = [];
    for (const { name, role } of splitPeople(text)) {
      let person = persons.find((entry) => key(entry.name) === key(name));
      if (person === undefined) {
        const id = freshId('person', personIds);
        personIds.add(id);
        person = { id, name, role };
        persons.push(person);
        newPersons.push(person);
      }
      if (!ids.includes(person.id)) ids.push(person.id);
    }
    return ids;
  };

  const rowOfPath = new Map<string, number>();
  const duration = (item: RowItem, fallback: number | null): number | null => {
    const text = item.cells.duration;
    if (text === '') {
      if (fallback === null) problems.push({ kind: 'durationMissing', row: item.row });
      return fallback;
    }
    const minutes = parseDuration(text, table.columns.get('duration')?.hours ?? false);
    if (minutes === null) problems.push({ kind: 'duration', row: item.row, column: header('duration'), text });
    return minutes;
  };
  const start = (item: RowItem): string | null => {
    if (item.cells.start === '') return null;
    const clock = parseClock(item.cells.start);
    if (clock === null) problems.push({ kind: 'time', row: item.row, column: header('start'), text: item.cells.start });
    return clock;
  };

  const block = (item: RowItem, path: string, fallback: number | null, laneIndex: number): Block => {
    rowOfPath.set(path, item.row);
    const id = freshId('block', taken);
    taken.add(id);
    return {
      type: 'block', id, title: item.cells.title, duration: duration(item, fallback) ?? 0, blockTypeId: categoryId(item.cells.category),
      personIds: peopleIds(item.cells.people), description: item.cells.description, notes: item.cells.notes, material: item.cells.material, fixedStartTime: null, laneIndex,
    };
  };
  const breakout = (item: RowItem, path: string): Breakout => {
    rowOfPath.set(path, item.row);
    const id = freshId('breakout', taken);
    taken.add(id);
    const lanes = item.children.map((child) => laneOf(child, false));
    const same = lanes.length > 0 && lanes.every((lane) => lane === 'all');
    const declared = /^\d+$/.test(item.cells.breakout) ? Number(item.cells.breakout) : 0;
    const count = Math.min(MAX_LANES, Math.max(1, declared, ...lanes.map((lane) => (typeof lane === 'number' ? lane : 1))));
    const children = item.children.map((child, index) => {
      if (child.children.length > 0) problems.push({ kind: 'breakoutNesting', row: child.children[0]!.row });
      const lane = lanes[index];
      return block(child, `${path}.children.${index}`, null, typeof lane === 'number' ? lane - 1 : 0);
    });
    const perLane = new Map<number, number>();
    for (const child of children) perLane.set(child.laneIndex, (perLane.get(child.laneIndex) ?? 0) + child.duration);
    const longest = Math.max(0, ...perLane.values());
    return {
      type: 'breakout', id, title: item.cells.title, duration: duration(item, longest) ?? 0, description: item.cells.description, notes: item.cells.notes,
      fixedStartTime: null, lanes: count, sameInAllBreakouts: same, lanePersons: {}, children,
    };
  };
  // A breakout names its lane count, or its blocks name their lanes; rows that hold rows of their own make a group.
  const isBreakout = (item: RowItem): boolean => !item.children.some((child) => child.children.length > 0)
    && (/^\d+$/.test(item.cells.breakout) || item.children.some((child) => child.cells.breakout !== ''));
  /** A top-level row with rows under it. */
  const container = (item: RowItem, path: string): Item => {
    if (isBreakout(item)) return breakout(item, path);
    rowOfPath.set(path, item.row);
    const id = freshId('group', taken);
    taken.add(id);
    const children = item.children.map((child, index) => {
      // Inside a group, a row with rows under it is a breakout (a group holds no groups).
      if (child.children.length > 0) return breakout(child, `${path}.children.${index}`);
      return block(child, `${path}.children.${index}`, null, 0);
    });
    const total = children.reduce((sum, child) => sum + child.duration, 0);
    const group: Group = { type: 'group', id, title: item.cells.title, duration: duration(item, total) ?? 0, description: item.cells.description, notes: item.cells.notes, fixedStartTime: null, children };
    return group;
  };

  // The top level in order, with its clock: a start that is not where the row would begin anyway is pinned.
  const starts = top.map(start);
  const firstStart = starts[0] ?? null;
  let clock = origin === null ? null : firstStart !== null && firstStartIsOrigin ? minutesOf(firstStart) : origin;
  const items = top.map((item, index): Item => {
    const path = String(index);
    const next = starts.slice(index + 1).find((value) => value !== null) ?? null;
    const own = starts[index] ?? null;
    // A missing duration is the time to the next row's start, when both are known.
    const until = own !== null && next !== null && starts[index + 1] === next ? minutesOf(next) - minutesOf(own) : null;
    let made: Item;
    if (item.children.length > 0) made = container(item, path);
    else made = block(item, path, until !== null && until > 0 ? until : null, 0);
    if (clock !== null && own !== null && minutesOf(own) !== clock) made = { ...made, fixedStartTime: own };
    if (clock !== null) clock = (own !== null ? minutesOf(own) : clock) + made.duration;
    return made;
  });
  return { items, blockTypes: newTypes, persons: newPersons, startTime: firstStart, rowOfPath, problems };
}

function minutesOf(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

/** The plan with the table's items in place of its agenda (`replace`) or after it, and the categories and people it added. */
export function draftWithTable(draft: Draft, table: TableItems, mode: 'replace' | 'append'): Draft {
  const workshop = mode === 'replace' && table.startTime !== null ? { ...draft.workshop, startTime: table.startTime } : draft.workshop;
  return {
    ...draft,
    version: draft.version ?? SESSION_VERSION,
    workshop,
    blockTypes: [...draft.blockTypes, ...table.blockTypes],
    persons: [...draft.persons, ...table.persons],
    items: mode === 'replace' ? table.items : [...draft.items, ...table.items],
  };
}
