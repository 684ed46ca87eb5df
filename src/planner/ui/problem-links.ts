// Problems as links: a problem's field in the editor's words and language, and moving focus to that field.
import type { Problem } from '../../session/errors.js';
import { problemPhrase } from '../i18n/problems.js';
import { fieldKey, itemAt, itemPathOf, parseFieldPath } from '../tree.js';
import { languageOf, type EditorContext } from './context.js';
import { fieldId, fieldName } from './field-names.js';

/** Moves focus to the field of a problem path, opening its item's details when the field is inside them. */
export function focusProblem(editor: EditorContext, path: string): void {
  const segments = parseFieldPath(path);
  if (segments === undefined) return;
  const at = itemPathOf(segments);
  const item = at.length > 0 ? itemAt(editor.draft.value, at) : undefined;
  if (item && !editor.open.value.has(item.id)) editor.open.value = new Set([...editor.open.value, item.id]);
  editor.focus.value = { field: fieldId(segments) };
}

/**
 * A problem in the editor's language: which field (as the editor labels it, with the title of its item in `draft`)
 * and what is wrong. A problem of a file that was not opened names its place in the file instead of a title.
 */
export function problemText(problem: Problem, editor: EditorContext, ofFile = false): { field: string | null; phrase: string } {
  const segments = parseFieldPath(problem.path);
  const key = fieldKey(segments);
  const phrase = problemPhrase(problem, key, languageOf(editor.strings), editor.formats.number);
  const draft = editor.draft.value;
  const named = fieldName(problem.path, ofFile ? { ...draft, items: [], persons: [], blockTypes: [] } : draft, editor.strings);
  const field = ofFile && named !== problem.path ? `${named} (${problem.path})` : named;
  // A problem of the whole plan (`session`, `items`) names no field.
  // A field the format does not know has no label: it is named as written.
  if (problem.rule?.kind === 'unknownField' || problem.rule?.kind === 'reservedKey') return { field: problem.path, phrase };
  return { field: named === problem.path ? null : field, phrase };
}
