// What can be wrong with a table given to the planner, as data: the string tables (i18n/table-problems.ts) word each
// kind. Rows are numbered as the spreadsheet numbers them (the header is row 1); a column is named by its header.

export type TableProblem =
  | { readonly kind: 'tooLarge'; readonly size: number; readonly limit: number }
  | { readonly kind: 'notUtf8' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'tooManyRows'; readonly rows: number; readonly limit: number }
  | { readonly kind: 'noTitleColumn'; readonly headers: readonly string[] }
  | { readonly kind: 'replacement' | 'mojibake' | 'formula' | 'duration' | 'time' | 'lane'; readonly row: number; readonly column: string; readonly text: string }
  | { readonly kind: 'noTitle' | 'durationMissing' | 'tooDeep' | 'orphan' | 'breakoutNesting'; readonly row: number };

/** Problems named in a preview at most: past these the list says how many more there are. */
export const MAX_LISTED_PROBLEMS = 20;
