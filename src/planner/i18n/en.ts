// English strings of the planner (the keys and their meaning: strings.ts).
import type { PlannerStrings } from './strings.js';

export const en: PlannerStrings = {
  locale: 'en-GB',
  newParts: { plan: 'New plan', block: 'New block', group: 'New group', breakout: 'New breakout', blockType: 'New category', person: 'New person' },

  done: 'Done',
  editorLabel: 'Plan editor',

  toolbarLabel: 'Editing',
  moreActions: 'More',
  undo: 'Undo',
  redo: 'Redo',
  addBlock: 'Add block',
  addBlockShort: '+ Block',
  addGroup: 'Add group',
  addBreakout: 'Add breakout',
  addInside: (container) => `New items go into “${container}”.`,
  importJson: 'Open JSON file',
  insertMethod: 'Insert method',
  methodsTitle: 'Methods to insert',
  insert: 'Insert',
  insertMethodNamed: (title) => `Insert: ${title}`,
  methodInserted: (title) => `“${title}” inserted, its source named at the end of its description.`,
  libraryLoading: 'Loading the methods…',
  libraryFailed: 'The methods could not be loaded. Check the connection and try again.',
  license: 'Licence',
  closeDialog: 'Close',
  exportJson: 'Download JSON',
  imported: (fileName) => `Opened ${fileName}.`,
  importFailed: (fileName) => `${fileName} cannot be opened as a plan:`,
  exported: (fileName) => `Saved as ${fileName}.`,

  workshopSection: 'Workshop',
  workshopTitle: 'Workshop title',
  workshopDescription: 'Workshop description',
  date: 'Date',
  startTime: 'Start time',
  totalAgainstDay: (total, range) => `Total ${total} (${range})`,
  totalOnly: (total) => `Total ${total}`,

  categoriesSection: 'Categories',
  categoryName: 'Category name',
  categoryColor: 'Colour',
  addCategory: 'Add category',
  removeCategory: (name) => `Remove category ${name}`,
  facilitatorOnly: 'Facilitators only (not in the handout)',
  peopleSection: 'People',
  personName: 'Name',
  personRole: 'Role',
  addPerson: 'Add person',
  removePerson: (name) => `Remove ${name}`,

  agendaSection: 'Agenda',
  emptyAgenda: 'No items yet: add a block, group or breakout.',
  kind: { block: 'Block', group: 'Group', breakout: 'Breakout' },
  itemHeading: (kind, title) => `${kind}: ${title}`,
  title: 'Title',
  duration: 'Duration (min)',
  description: 'Description',
  notes: 'Notes',
  material: 'Material',
  fixedStartTime: 'Fixed start time',
  category: 'Category',
  noCategory: 'None',
  people: 'People',
  lanes: 'Parallel breakouts',
  sameInAllBreakouts: 'Same in all breakouts',
  laneOfChild: 'In breakout',
  laneName: (number) => `Breakout ${number}`,
  lanePeople: (lane) => `People in ${lane}`,
  unknownPerson: (id) => `${id} (not in the people list)`,
  overrun: (duration) => `The items inside take ${duration} longer than this group.`,
  removeUnknown: (id) => `Remove ${id}`,
  timeRange: (range) => range,
  moveUp: (title) => `Move up: ${title}`,
  moveDown: (title) => `Move down: ${title}`,
  moveTo: (title) => `Move “${title}” to`,
  moveToTopLevel: 'Top level',
  moveButton: (title) => `Move: ${title}`,
  duplicate: (title) => `Duplicate: ${title}`,
  delete: (title) => `Delete: ${title}`,
  details: (title) => `Details: ${title}`,
  dragHandle: (title) => `Drag to move: ${title}`,
  selectItem: (title) => `Select: ${title}`,
  itemId: 'ID',
  removeField: (path) => `Remove field ${path}`,

  linkLength: (characters) => `Link: ${characters} characters`,
  limitNames: {
    items: 'items',
    jsonBytes: 'bytes of JSON',
    payloadChars: 'characters of link data',
    outputBytes: 'bytes of decoded text',
    dictionaryEntries: 'compression dictionary entries',
    contentBytes: 'bytes of compression dictionary',
  },
  nearLimit: (limit, used, max) => `Near the limit: ${used} of ${max} ${limit}.`,
  overLimit: (limit, used, max) => `Over the limit: ${used} of at most ${max} ${limit}.`,
  problemsTitle: (count) => (count === 1 ? '1 problem to fix' : `${count} problems to fix`),
  problemsExplained: 'Until they are fixed, the link in the address bar keeps the last valid plan.',
  linkUpToDate: 'The link in the address bar holds this plan.',
  linkBehind: (field) => `The link keeps the last valid plan until ${field} is fixed.`,
  fieldOf: (field, title) => `${field} of “${title}”`,
  invalidOnDone: (field) => `${field} is not valid, so the link still holds the last valid plan. Fix it, or discard your invalid changes and leave with that plan.`,
  discardInvalid: 'Discard my invalid changes',
  keepEditing: 'Keep editing',
  changeBroke: 'This change breaks:',
  table: {
    open: 'Import table',
    title: 'Import a table',
    pasteLabel: 'Paste a table here, with its header row (from Excel, Google Sheets or LibreOffice)',
    openFile: 'Open CSV file',
    hint: 'Columns are found by their header, in English or German: Title, Duration (min), Start time, Description, Notes, Material, People, Category, Breakout. A row starting with “↳” goes into the row above it.',
    modeLegend: 'The table’s items',
    replace: 'replace the agenda',
    append: 'go after the agenda',
    columns: (list) => `Columns found: ${list}.`,
    ignored: (list) => `Left out: ${list}.`,
    previewCaption: (items) => (items === 1 ? '1 item from the table' : `${items} items from the table`),
    more: (rows) => `and ${rows} more`,
    headers: { row: 'Row', time: 'Time', title: 'Title', duration: 'Duration' },
    problemsTitle: (count) => (count === 1 ? '1 problem: nothing is imported until it is fixed' : `${count} problems: nothing is imported until they are fixed`),
    moreProblems: (count) => `and ${count} more`,
    applyReplace: (items) => `Replace the agenda with ${items === 1 ? '1 item' : `${items} items`}`,
    applyAppend: (items) => `Add ${items === 1 ? '1 item' : `${items} items`} to the agenda`,
    imported: (items, source) => `${items === 1 ? '1 item' : `${items} items`} imported from ${source}. Undo takes ${items === 1 ? 'it' : 'them'} out again.`,
    pasted: 'the pasted table',
    row: (row) => `Row ${row}`,
    problem(problem, number) {
      switch (problem.kind) {
        case 'tooLarge': return `The table has ${number(problem.size)} characters; a plan holds at most ${number(problem.limit)}, so it was not read.`;
        case 'notUtf8': return 'The file is not UTF-8 text. Save it as “CSV UTF-8” (Excel: Save as → CSV UTF-8) and open it again.';
        case 'empty': return 'The table has no rows below its header.';
        case 'tooManyRows': return `The table has ${number(problem.rows)} rows; a plan holds at most ${number(problem.limit)} items.`;
        case 'noTitleColumn': return `No column is named Title (or Titel, Topic, Thema …): the first row must name the columns. It reads: ${problem.headers.join(', ') || 'nothing'}.`;
        case 'formula': return `Row ${problem.row}, ${problem.column}: “${problem.text}” is a formula. Copy the values instead (Paste special → Values), or take out the “=”.`;
        case 'replacement': return `Row ${problem.row}, ${problem.column}: “${problem.text}” holds “\uFFFD”, so it was read in another encoding. Save the file as “CSV UTF-8” and open it again.`;
        case 'mojibake': return `Row ${problem.row}, ${problem.column}: “${problem.text}” looks like text in two encodings (such as “Ã¤” for “ä”). Save the file as “CSV UTF-8” and open it again.`;
        case 'duration': return `Row ${problem.row}, ${problem.column}: “${problem.text}” is not a duration. Write minutes (30), or hours and minutes (1:30, 1,5 h).`;
        case 'time': return `Row ${problem.row}, ${problem.column}: “${problem.text}” is not a time of day. Write it as 09:30.`;
        case 'lane': return `Row ${problem.row}, ${problem.column}: “${problem.text}” is not a breakout number. Write 1 to 10, or “all”.`;
        case 'noTitle': return `Row ${problem.row} has no title.`;
        case 'durationMissing': return `Row ${problem.row} has no duration, and no start time on the next row to take it from.`;
        case 'tooDeep': return `Row ${problem.row} is three levels deep (↳ ↳ ↳); a plan has groups, their breakouts and blocks, no deeper.`;
        case 'orphan': return `Row ${problem.row} starts with “↳”, but no row above it can hold it.`;
        case 'breakoutNesting': return `Row ${problem.row} is inside an item of a breakout; a breakout holds blocks only.`;
      }
    },
  },
};
