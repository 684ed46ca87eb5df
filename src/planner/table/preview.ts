// What the planner shows before a table changes anything: the columns it recognised, the rows as items with their
// times, and every problem (the table's own, then create's rules on the plan it would make, each at its row).
import type { Problem } from '../../session/errors.js';
import { planSchedule } from '../../plan-view/agenda.js';
import type { Plan } from '../../plan-view/plan.js';
import { workshopClock } from '../../plan-view/schedule.js';
import type { TableColumn } from '../../plan-view/table-columns.js';
import type { Encoded } from '../encode.js';
import { itemIds } from '../factory.js';
import type { Draft } from '../tree.js';
import { draftWithTable, tableItems } from './build.js';
import type { TableProblem } from './problems.js';
import { tableRows } from './rows.js';

export type ImportMode = 'replace' | 'append';

/** Rows the preview lists at most; the rest are counted. */
export const PREVIEW_ROWS = 20;

export interface PreviewRow {
  readonly row: number;
  readonly depth: number;
  readonly kind: 'block' | 'group' | 'breakout';
  readonly title: string;
  readonly start: number;
  readonly end: number;
  readonly duration: number;
}

export interface TablePreview {
  readonly columns: readonly { readonly column: TableColumn; readonly header: string }[];
  readonly ignored: readonly string[];
  /** Items the table makes. */
  readonly items: number;
  readonly rows: readonly PreviewRow[];
  /** Whether the times are offsets from the start (the plan has no start time and the table names none). */
  readonly relative: boolean;
  readonly problems: readonly TableProblem[];
  /** Create's problems with the plan the table would make, at the table row they come from (null: not a row's). */
  readonly planProblems: readonly { readonly row: number | null; readonly problem: Problem }[];
  /** The plan after the import, when nothing stands in its way. */
  readonly draft: Draft | null;
}

/** The preview of `text` going into `draft`; `encode` is create's check (the page's host). */
export function previewTable(text: string, draft: Draft, mode: ImportMode, encode: (draft: Draft) => Encoded): TablePreview {
  const table = tableRows(text);
  const columns = [...table.columns].map(([column, at]) => ({ column, header: at.header }));
  const empty = { columns, ignored: table.ignored, items: 0, rows: [], relative: true, planProblems: [], draft: null };
  if (table.rows.length === 0) return { ...empty, problems: table.problems };

  const clock = workshopClock(draft.workshop.startTime);
  const origin = mode === 'replace' ? (clock.relative ? 0 : clock.origin) : clock.relative ? null : planSchedule(draft as Plan).end;
  const taken = mode === 'replace' ? new Set<string>() : itemIds(draft);
  const made = tableItems(table, draft, origin, mode === 'replace', taken);
  // Without a clock of its own the plan takes the table's first start time only when the table replaces its agenda.
  const next = draftWithTable(draft, made, mode);
  const before = mode === 'replace' ? 0 : draft.items.length;
  const schedule = planSchedule(next as Plan);
  const fresh = new Set<string>();
  for (const item of made.items) collectIds(item, fresh);
  const rowById = new Map<string, number>();
  for (const [path, row] of made.rowOfPath) {
    const item = itemAtPath(made.items, path);
    if (item !== undefined) rowById.set(item.id, row);
  }
  const rows: PreviewRow[] = [];
  for (const entry of schedule.entries) {
    if (entry.kind !== 'item' || !fresh.has(entry.item.id) || rows.length >= PREVIEW_ROWS) continue;
    rows.push({ row: rowById.get(entry.item.id) ?? 0, depth: entry.containers.length, kind: entry.item.type, title: entry.item.title, start: entry.start, end: entry.end, duration: entry.item.duration });
  }
  const base = { columns, ignored: table.ignored, items: fresh.size, rows, relative: schedule.clock.relative };
  if (made.problems.length > 0) return { ...base, problems: made.problems, planProblems: [], draft: null };

  const outcome = encode(next);
  if (outcome.ok) return { ...base, problems: [], planProblems: [], draft: outcome.session };
  const planProblems = outcome.problems.map((problem) => ({ row: rowOfProblem(problem.path, made.rowOfPath, before), problem }));
  return { ...base, problems: [], planProblems, draft: null };
}

function collectIds(item: Draft['items'][number], into: Set<string>): void {
  into.add(item.id);
  if (item.type !== 'block') for (const child of item.children) collectIds(child, into);
}

function itemAtPath(items: Draft['items'], path: string): Draft['items'][number] | undefined {
  const [first, ...rest] = path.split('.children.').map(Number);
  let item: Draft['items'][number] | undefined = items[first!];
  for (const index of rest) item = item !== undefined && item.type !== 'block' ? (item.children as Draft['items'])[index] : undefined;
  return item;
}

/** The row an item problem ("items[4].children[1].title") comes from: its item's path among the table's items. */
function rowOfProblem(path: string, rowOfPath: ReadonlyMap<string, number>, before: number): number | null {
  const match = /^items\[(\d+)\]((?:\.children\[\d+\])*)/.exec(path);
  if (match === null) return null;
  const top = Number(match[1]) - before;
  if (top < 0) return null;
  const nested = [...match[2]!.matchAll(/\[(\d+)\]/g)].map((part) => part[1]!);
  for (let depth = nested.length; depth >= 0; depth -= 1) {
    const row = rowOfPath.get([String(top), ...nested.slice(0, depth)].join('.children.'));
    if (row !== undefined) return row;
  }
  return null;
}
