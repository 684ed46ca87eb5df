// The shape of the planner's string table: one object per language (en.ts, de.ts), loaded with the editor, not with the view.
import type { NewPartLabels } from '../factory.js';
import type { LimitName } from '../limits.js';
import type { TableProblem } from '../table/problems.js';

// Why apart from the viewer's table: the view mode's JavaScript is what every reader downloads, and the
// editor's few hundred words in two languages would be a good part of it. They load with the editor, on demand; the
// words both modes show (lane names, "Notes", the page's chrome) stay in the viewer's table.

export type PlannerLanguage = 'de' | 'en';

export interface PlannerStrings {
  /** BCP 47 tag for Intl. */
  locale: string;
  newParts: NewPartLabels;

  // Leaving edit mode ("Edit plan" and "New plan" are the viewer's words: they show before the editor loads)
  done: string;
  editorLabel: string;

  // Toolbar
  toolbarLabel: string;
  /** The toolbar's menu of further actions (one row of buttons at any width, the rest in it). */
  moreActions: string;
  undo: string;
  redo: string;
  addBlock: string;
  /** The toolbar's face of "Add block" (its name stays addBlock). */
  addBlockShort: string;
  addGroup: string;
  addBreakout: string;
  addInside: (container: string) => string;
  importJson: string;
  /** Opens the library's methods (method-dialog.tsx). */
  insertMethod: string;
  methodsTitle: string;
  /** A method's button ("Insert"), and its accessible name with the method's title. */
  insert: string;
  insertMethodNamed: (title: string) => string;
  /** Said after a method went in as a block. */
  methodInserted: (title: string) => string;
  libraryLoading: string;
  libraryFailed: string;
  /** The link to the methods' licence after the sentence that names their source. */
  license: string;
  closeDialog: string;
  exportJson: string;
  imported: (fileName: string) => string;
  importFailed: (fileName: string) => string;
  exported: (fileName: string) => string;

  // Workshop
  workshopSection: string;
  workshopTitle: string;
  workshopDescription: string;
  date: string;
  startTime: string;
  totalAgainstDay: (total: string, range: string) => string;
  totalOnly: (total: string) => string;

  // Block types and persons
  categoriesSection: string;
  categoryName: string;
  categoryColor: string;
  addCategory: string;
  removeCategory: (name: string) => string;
  /** A category's checkbox: its blocks are the facilitators' own, left untitled in the participants' handout. */
  facilitatorOnly: string;
  peopleSection: string;
  personName: string;
  personRole: string;
  addPerson: string;
  removePerson: (name: string) => string;

  // Items
  agendaSection: string;
  emptyAgenda: string;
  kind: { block: string; group: string; breakout: string };
  itemHeading: (kind: string, title: string) => string;
  title: string;
  duration: string;
  description: string;
  notes: string;
  material: string;
  fixedStartTime: string;
  category: string;
  noCategory: string;
  people: string;
  lanes: string;
  sameInAllBreakouts: string;
  laneOfChild: string;
  laneName: (number: number) => string;
  lanePeople: (lane: string) => string;
  unknownPerson: (id: string) => string;
  /** A hint, not a problem: a group's items take longer than the group (the view's words, plan-view/i18n). */
  overrun: (duration: string) => string;
  removeUnknown: (id: string) => string;
  timeRange: (range: string) => string;
  moveUp: (title: string) => string;
  moveDown: (title: string) => string;
  moveTo: (title: string) => string;
  moveToTopLevel: string;
  moveButton: (title: string) => string;
  duplicate: (title: string) => string;
  delete: (title: string) => string;
  details: (title: string) => string;
  dragHandle: (title: string) => string;
  selectItem: (title: string) => string;
  itemId: string;
  removeField: (path: string) => string;

  // Link, limits, problems
  linkLength: (characters: string) => string;
  limitNames: Record<LimitName, string>;
  nearLimit: (limit: string, used: string, max: string) => string;
  overLimit: (limit: string, used: string, max: string) => string;
  problemsTitle: (count: number) => string;
  problemsExplained: string;
  linkUpToDate: string;
  /** The status while a field is invalid: the link keeps the last valid plan, and which field it is behind on. */
  linkBehind: (field: string) => string;
  /** A field of an item or entry: "Duration (min) of “Check-in”". */
  fieldOf: (field: string, title: string) => string;
  // "Done" while a field is invalid
  invalidOnDone: (field: string) => string;
  discardInvalid: string;
  keepEditing: string;
  /** Before the problems a field's change brought on other fields, said at that field. */
  changeBroke: string;
  table: TableStrings;
}

/** The table import (src/planner/table/, ui/table-dialog.tsx): the dialog, and one sentence per kind of problem, saying
 * where (row and column as the spreadsheet shows them) and what to do. */
export interface TableStrings {
  open: string;
  title: string;
  pasteLabel: string;
  openFile: string;
  hint: string;
  modeLegend: string;
  replace: string;
  append: string;
  columns: (list: string) => string;
  ignored: (list: string) => string;
  previewCaption: (items: number) => string;
  more: (rows: number) => string;
  headers: { row: string; time: string; title: string; duration: string };
  problemsTitle: (count: number) => string;
  moreProblems: (count: number) => string;
  applyReplace: (items: number) => string;
  applyAppend: (items: number) => string;
  imported: (items: number, source: string) => string;
  pasted: string;
  row: (row: number) => string;
  problem: (problem: TableProblem, number: (value: number) => string) => string;
}
