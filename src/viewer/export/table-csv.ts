// The plan as a CSV table a spreadsheet opens: one row per item in reading order, a group's or breakout's items marked
// "↳" under it, times as the page shows them. Excel reads it in the page's language: a byte-order mark for UTF-8, and
// ";" between cells in German (where "," is the decimal comma), "," in English. A cell starting with =, +, - or @
// gets a leading apostrophe, so no spreadsheet runs it as a formula.
import Papa from 'papaparse';
import { planSchedule } from '../../plan-view/agenda.js';
import type { ViewerLocale } from '../../plan-view/i18n/locale.js';
import type { Plan } from '../../plan-view/plan.js';
import { formatMinutes } from '../../plan-view/schedule.js';
import { NESTED_MARK, TABLE_COLUMNS, TABLE_HEADERS, type TableColumn } from '../../plan-view/table-columns.js';

export interface TableOptions {
  /** Notes are shown on the page, so the Notes column is written. */
  notes: boolean;
}

/** The rows of the table (the header first), as text cells. */
export function planTableRows(plan: Plan, locale: ViewerLocale, options: TableOptions): string[][] {
  const columns = TABLE_COLUMNS.filter((column) => column !== 'notes' || options.notes);
  const headers = TABLE_HEADERS[locale.language];
  const names = new Map(plan.persons.map((person) => [person.id, person.name]));
  const categories = new Map(plan.blockTypes.map((type) => [type.id, type.name]));
  const schedule = planSchedule(plan);
  const rows: string[][] = [columns.map((column) => headers[column])];
  for (const entry of schedule.entries) {
    if (entry.kind !== 'item') continue;
    const { item, containers, lane } = entry;
    const inBreakout = containers.at(-1)?.type === 'breakout' && lane !== null;
    const cells: Record<TableColumn, string> = {
      start: schedule.clock.relative ? '' : formatMinutes(entry.start, false),
      title: `${`${NESTED_MARK} `.repeat(containers.length)}${item.title}`,
      duration: String(item.duration),
      description: item.description,
      notes: item.notes,
      material: item.type === 'block' ? item.material : '',
      people: item.type === 'block' ? item.personIds.map((id) => names.get(id) ?? id).join(', ') : '',
      category: item.type === 'block' && item.blockTypeId !== null ? categories.get(item.blockTypeId) ?? '' : '',
      // A breakout's row says how many lanes it has; its items say their lane, or "all" when every lane runs them.
      breakout: item.type === 'breakout' ? String(item.lanes)
        : inBreakout ? (lane.kind === 'lane' ? String(lane.number) : locale.strings.allLanes)
        : '',
    };
    rows.push(columns.map((column) => cells[column]));
  }
  return rows;
}

/** The table as CSV text: BOM, the language's separator, CRLF line ends, formulas neutralised. */
export function planTableCsv(plan: Plan, locale: ViewerLocale, options: TableOptions): string {
  const csv = Papa.unparse(planTableRows(plan, locale, options), {
    delimiter: locale.language === 'de' ? ';' : ',',
    newline: '\r\n',
    quotes: false,
    escapeFormulae: true,
  });
  return `\uFEFF${csv}\r\n`;
}
