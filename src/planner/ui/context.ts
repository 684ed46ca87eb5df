// What every editor component reads: the planner, its state as a signal, the strings, formats, selection and focus requests.
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Problem } from '../../session/errors.js';
import { problemPhrase } from '../i18n/problems.js';
import type { PlannerLanguage, PlannerStrings } from '../i18n/strings.js';
import type { Planner, PlannerState } from '../planner.js';
import { fieldKey, fieldPath, parseFieldPath, type Draft, type JsonValue, type Segments } from '../tree.js';

export interface Formats {
  /** "1 h 30 min" / "1 Std. 30 Min." */
  duration(minutes: number): string;
  /** "12,345" / "12.345" */
  number(value: number): string;
}

/**
 * After an edit moves or adds something, focus goes to a control of it: an item's control by the item's ID and the
 * control's name, or a field by its DOM id (fields.tsx fieldId). `select`: its text is selected, so that typing
 * replaces a new entry's placeholder name.
 */
export type FocusRequest =
  | { readonly id: string; readonly control: string; readonly select?: boolean }
  | { readonly field: string; readonly select?: boolean };

/**
 * What the address bar holds, as mount.tsx writes it: the link last written there (or the one the plan was opened
 * from; null for a new plan until its first link), and whether the present draft's link will wait for typing to pause.
 */
export interface AddressBar {
  readonly link: string | null;
  readonly behind: boolean;
}

export interface EditorContext {
  readonly planner: Planner;
  /** Everything; read by what shows the link and its checks (the status). */
  readonly state: Signal<PlannerState>;
  /**
   * Parts of the state that change less often, so that what reads only them renders when they change: the draft
   * (every edit), its problems by path (when a check finds other problems), validity, undo and redo. An answer that
   * changes only the link renders the status alone.
   */
  readonly draft: ReadonlySignal<Draft>;
  readonly problemsByPath: ReadonlySignal<PlannerState['problemsByPath']>;
  /** The same problems as a list (the status's), the same array while they do not change. */
  readonly problems: ReadonlySignal<PlannerState['problems']>;
  readonly valid: ReadonlySignal<boolean>;
  readonly canUndo: ReadonlySignal<boolean>;
  readonly canRedo: ReadonlySignal<boolean>;
  readonly strings: PlannerStrings;
  readonly formats: Formats;
  /** The item whose card last had focus or was clicked (by ID): "Add" puts new items into it when it is a container. */
  readonly selected: Signal<string | null>;
  /** Items whose details are open (by ID); closed details are not rendered at all. */
  readonly open: Signal<ReadonlySet<string>>;
  readonly focus: Signal<FocusRequest | null>;
  /** The status shows this link, so its text changes when the address bar does, not when a check answers. */
  readonly addressBar: Signal<AddressBar>;
  /** "Done" was pressed while a field is invalid: the editor stays and asks whether to discard the invalid changes. */
  readonly leaving: Signal<boolean>;
  /** Sets a field of the draft (one typing step with `typing`), remembering it as the field last edited. */
  setField(path: Segments, value: JsonValue, options?: { readonly typing?: boolean }): void;
  /** Problems that the last edited field's change brought on other fields, said at that field (NO_CAUSED: none). */
  readonly caused: ReadonlySignal<Caused>;
}

/** Problems an edit of the field at `path` (a problem path) brought elsewhere. */
export interface Caused {
  readonly path: string;
  readonly problems: readonly Problem[];
}

export const NO_CAUSED: Caused = { path: '', problems: [] };

const problemKey = (problem: Problem): string => `${problem.path}\u0000${problem.message}`;

export function createFormats(locale: string): Formats {
  const hours = new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: 'short' });
  const minutes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'short' });
  const numbers = new Intl.NumberFormat(locale);
  return {
    duration(value) {
      const whole = Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
      const h = Math.floor(whole / 60);
      const m = whole % 60;
      if (h === 0) return minutes.format(m);
      return m === 0 ? hours.format(h) : `${hours.format(h)} ${minutes.format(m)}`;
    },
    number: (value) => numbers.format(value),
  };
}

export function createEditorContext(planner: Planner, strings: PlannerStrings, openedLink: string | null = null): EditorContext {
  const state = signal(planner.state);
  const leaving = signal(false);
  planner.subscribe((next) => {
    state.value = next;
    // The question after "Done" is answered once the draft is valid again.
    if (next.valid) leaving.value = false;
  });
  const formats = createFormats(strings.locale);
  // The same array while the problems do not change (planner.ts), so their words are made again only when they do.
  const problems = computed(() => state.value.problems);
  const problemsByPath = computed(() => localizedByPath(problems.value, languageOf(strings), formats));
  // The field last edited, and the problems there were before its edit began (kept while the same field is typed in).
  const lastEdit = signal<{ readonly path: string; readonly before: ReadonlySet<string> } | null>(null);
  const caused = computed((): Caused => {
    const edit = lastEdit.value;
    if (edit === null) return NO_CAUSED;
    const fresh = problems.value.filter((problem) => !problem.path.startsWith(edit.path) && !edit.before.has(problemKey(problem)));
    return fresh.length === 0 ? NO_CAUSED : { path: edit.path, problems: fresh };
  });
  const setField = (path: Segments, value: JsonValue, options?: { readonly typing?: boolean }): void => {
    const at = fieldPath(path);
    if (lastEdit.peek()?.path !== at) lastEdit.value = { path: at, before: new Set(state.peek().problems.map(problemKey)) };
    planner.apply({ kind: 'set', path, value }, options);
  };
  return {
    planner,
    state,
    setField,
    caused,
    draft: computed(() => state.value.draft),
    problemsByPath,
    problems,
    valid: computed(() => state.value.valid),
    canUndo: computed(() => state.value.canUndo),
    canRedo: computed(() => state.value.canRedo),
    strings,
    formats,
    selected: signal(null),
    open: signal(new Set()),
    focus: signal(null),
    addressBar: signal({ link: openedLink, behind: false }),
    leaving,
  };
}

/** The language of a string table. */
export function languageOf(strings: PlannerStrings): PlannerLanguage {
  return strings.locale.startsWith('de') ? 'de' : 'en';
}

/** Each field's problems in the editor's language, by path, in document order. */
function localizedByPath(problems: readonly Problem[], language: PlannerLanguage, formats: Formats): ReadonlyMap<string, readonly string[]> {
  const byPath = new Map<string, string[]>();
  for (const problem of problems) {
    const field = fieldKey(parseFieldPath(problem.path));
    const phrase = problemPhrase(problem, field, language, formats.number);
    const list = byPath.get(problem.path);
    if (list) list.push(phrase);
    else byPath.set(problem.path, [phrase]);
  }
  return byPath;
}

export const Editor = createContext<EditorContext | null>(null);

export function useEditor(): EditorContext {
  const context = useContext(Editor);
  if (context === null) throw new Error('editor components must be rendered inside <Editor.Provider>');
  return context;
}
