// A table's text as rows under recognised columns: Papa Parse finds the separator (tab from a spreadsheet's clipboard,
// comma or semicolon from a CSV file) and reads quoted cells; the first row names the columns, in German or English.
import Papa from 'papaparse';
import { MAX_ITEMS } from '../../session/constants.js';
import { COLUMN_NAMES, headerName, type TableColumn } from '../../plan-view/table-columns.js';
import { isFormula, looksDoublyEncoded, unescapedCell } from './cells.js';
import type { TableProblem } from './problems.js';

/** A recognised column: where it is, its header as written, and whether it counts hours. */
export interface ColumnAt {
  readonly index: number;
  readonly header: string;
  readonly hours: boolean;
}

export interface TableRows {
  readonly columns: ReadonlyMap<TableColumn, ColumnAt>;
  /** Headers that name no column the plan has: their cells are left out. */
  readonly ignored: readonly string[];
  /** Data rows with their row number in the spreadsheet (the header is row 1). */
  readonly rows: readonly { readonly row: number; readonly cells: readonly string[] }[];
  readonly problems: readonly TableProblem[];
}

const BY_NAME = new Map<string, TableColumn>(Object.entries(COLUMN_NAMES).flatMap(([column, names]) => names.map((name) => [name, column as TableColumn] as const)));

/** The rows and columns of `text`, and every problem found in its cells (a formula, text in two encodings). */
export function tableRows(text: string): TableRows {
  const parsed = Papa.parse<string[]>(text, { delimitersToGuess: ['\t', ';', ',', '|'], skipEmptyLines: 'greedy' });
  const [head, ...body] = parsed.data;
  if (head === undefined || body.length === 0) return { columns: new Map(), ignored: [], rows: [], problems: [{ kind: 'empty' }] };
  const columns = new Map<TableColumn, ColumnAt>();
  const ignored: string[] = [];
  head.forEach((header, index) => {
    const { name, hours } = headerName(header.replace(/^\uFEFF/, ''));
    const column = BY_NAME.get(name);
    if (column !== undefined && !columns.has(column)) columns.set(column, { index, header: header.trim(), hours });
    else if (header.trim() !== '') ignored.push(header.trim());
  });
  if (!columns.has('title')) return { columns, ignored, rows: [], problems: [{ kind: 'noTitleColumn', headers: head.map((header) => header.trim()).filter((header) => header !== '') }] };
  if (body.length > MAX_ITEMS) return { columns, ignored, rows: [], problems: [{ kind: 'tooManyRows', rows: body.length, limit: MAX_ITEMS }] };

  const problems: TableProblem[] = [];
  const wanted = [...columns.values()];
  const rows = body.map((cells, at) => {
    const row = at + 2;
    const kept = cells.map(unescapedCell);
    for (const { index, header } of wanted) {
      const cell = cells[index] ?? '';
      const problem = cellProblem(cell);
      if (problem !== null) problems.push({ kind: problem, row, column: header, text: cell.length > 60 ? `${cell.slice(0, 60)}…` : cell });
    }
    return { row, cells: kept };
  });
  return { columns, ignored, rows, problems };
}

function cellProblem(cell: string): 'formula' | 'replacement' | 'mojibake' | null {
  if (isFormula(cell)) return 'formula';
  if (cell.includes('\uFFFD')) return 'replacement';
  if (looksDoublyEncoded(cell)) return 'mojibake';
  return null;
}
