// Edit mode's root: toolbar (undo, redo, add, file import/export, done), the link and limit status, the sections and the agenda.
import { computed, useComputed, type ReadonlySignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Problem } from '../../session/errors.js';
import { exportFileName, exportJson } from '../export-file.js';
import { tightest } from '../limits.js';
import { findItem, itemAt, isContainer, parseFieldPath, type ItemKind, type ItemPath } from '../tree.js';
import type { LibraryCatalogue } from '../../library/catalogue.js';
import type { BlockFields } from '../edits.js';
import { useEditor, type EditorContext } from './context.js';
import { MethodDialog } from './method-dialog.js';
import { createMenuButton } from '../../plan-view/menu-button.js';
import { TableDialog } from './table-dialog.js';
import type { Draft } from '../tree.js';
import { fieldId } from './field-names.js';
import { focusProblem, problemText } from './problem-links.js';
import { ItemList, problemsUnder, type ListContext } from './items.js';
import { CategoriesSection, PeopleSection, WorkshopSection } from './sections.js';
import { fieldName } from './field-names.js';
import { computeTimes, type ItemTimes } from './times.js';

export interface EditorRootProps {
  /** Leaves edit mode ("Done"); stays while a field is invalid and sets `leaving`. */
  readonly onDone: () => void;
  /** Leaves edit mode with the link's plan, dropping the invalid changes on screen. */
  readonly onDiscard: () => void;
  /** The library of methods (the page's static file); without it there is no "Insert method". */
  readonly library?: () => Promise<LibraryCatalogue>;
}


/** Where "Add" puts new items: into the selected container, or the container of the selected block, else the top level. */
function addTarget(editor: EditorContext): { path: ItemPath | null; title: string | null } {
  const draft = editor.draft.value;
  const id = editor.selected.value;
  const at = id === null ? undefined : findItem(draft, id);
  if (at === undefined) return { path: null, title: null };
  const item = itemAt(draft, at);
  const container = isContainer(item) ? at : at.slice(0, -1);
  const target = container.length > 0 ? itemAt(draft, container) : undefined;
  return target ? { path: container, title: target.title || target.id } : { path: null, title: null };
}

function Toolbar(props: EditorRootProps & { readonly onMessage: (message: Message) => void }) {
  const editor = useEditor();
  const { planner, strings } = editor;
  const file = useRef<HTMLInputElement>(null);
  // Only the target's title is shown: a keystroke that leaves it as it is does not render the toolbar again.
  const targetTitle = useComputed(() => addTarget(editor).title);
  // Each opening is a new dialog (its count is the key): a close and a reopening batched into one render still open it.
  const [dialog, setDialog] = useState<{ readonly kind: 'methods' | 'table'; readonly opening: number } | null>(null);
  const openings = useRef(0);
  const openDialog = (kind: 'methods' | 'table') => setDialog({ kind, opening: ++openings.current });
  const importTable = (draft: Draft, items: number, source: string) => {
    setDialog(null);
    planner.replace(draft);
    props.onMessage({ text: strings.table.imported(items, source), problems: [] });
  };
  const add = (kind: ItemKind, fields?: BlockFields) => {
    const result = planner.apply({ kind: 'add', item: kind, container: addTarget(editor).path, fields });
    const item = result.at ? itemAt(result.draft, result.at) : undefined;
    if (item) editor.focus.value = { id: item.id, control: 'title', select: fields === undefined };
  };
  const insertMethod = (fields: BlockFields) => {
    setDialog(null);
    add('block', fields);
    props.onMessage({ text: strings.methodInserted(fields.title ?? ''), problems: [] });
  };
  const openFile = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen) return;
    const imported = planner.importFile(await chosen.text());
    props.onMessage(imported.ok ? { text: strings.imported(chosen.name), problems: [] } : { text: strings.importFailed(chosen.name), problems: imported.problems });
  };
  const download = async () => {
    // The document in the link: the present draft's, once its check has answered.
    const { linkedSession, draft } = await planner.settled();
    const session = linkedSession ?? draft;
    const name = exportFileName(session);
    const url = URL.createObjectURL(new Blob([exportJson(session)], { type: 'application/json' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = name;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    props.onMessage({ text: strings.exported(name), problems: [] });
  };
  return (
    <div class="edit-toolbar" role="toolbar" aria-label={strings.toolbarLabel}>
      {/* Short faces with full names (aria-label, tooltip): the toolbar stays one row on a phone in German too. */}
      <button type="button" class="icon-button" onClick={() => planner.undo()} disabled={!editor.canUndo.value} aria-label={strings.undo} title={`${strings.undo} (Ctrl+Z)`} aria-keyshortcuts="Control+Z Meta+Z">
        ↶
      </button>
      <button type="button" class="icon-button" onClick={() => planner.redo()} disabled={!editor.canRedo.value} aria-label={strings.redo} title={`${strings.redo} (Ctrl+Shift+Z)`} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z">
        ↷
      </button>
      <span class="toolbar-gap" />
      <button type="button" onClick={() => add('block')} aria-label={strings.addBlock} title={strings.addBlock}>{strings.addBlockShort}</button>
      <MoreActions
        label={strings.moreActions}
        actions={[
          [strings.addGroup, 'add-group', () => add('group')],
          [strings.addBreakout, 'add-breakout', () => add('breakout')],
          ...(props.library ? [[strings.insertMethod, 'insert-method', () => openDialog('methods')] as const] : []),
          [strings.table.open, 'import-table', () => openDialog('table')],
          [strings.importJson, 'open-json', () => file.current?.click()],
          [strings.exportJson, 'download-json', () => void download()],
        ]}
      />
      <input ref={file} type="file" accept=".json,application/json" hidden onChange={(event) => void openFile(event.currentTarget)} />
      <span class="toolbar-gap" />
      <button type="button" class="primary" onClick={props.onDone}>{strings.done}</button>
      {targetTitle.value !== null && <p class="edit-target">{strings.addInside(targetTitle.value)}</p>}
      {dialog?.kind === 'table' && <TableDialog key={dialog.opening} encode={planner.checkOther} onApply={importTable} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'methods' && props.library && <MethodDialog key={dialog.opening} library={props.library} onInsert={insertMethod} onClose={() => setDialog(null)} />}
    </div>
  );
}

type MenuAction = readonly [label: string, action: string, run: () => void];

/**
 * The toolbar's further actions in a menu button (plan-view/menu-button.ts, the viewer's own), so the toolbar is one row
 * at any width. The menu is built once; each choice runs the newest handler its render gave.
 */
function MoreActions(props: { readonly label: string; readonly actions: readonly MenuAction[] }) {
  const slot = useRef<HTMLSpanElement>(null);
  const handlers = useRef(new Map<string, () => void>());
  handlers.current = new Map(props.actions.map(([, action, run]) => [action, run]));
  const names = props.actions.map(([label, action]) => `${action}:${label}`).join('\n');
  useLayoutEffect(() => {
    const menu = createMenuButton(props.label);
    for (const [label, action] of props.actions) menu.add(label, action, () => handlers.current.get(action)?.());
    slot.current?.append(menu.element);
    return () => {
      menu.dispose();
      menu.element.remove();
    };
  }, [props.label, names]);
  return <span ref={slot} class="toolbar-slot" />;
}

interface Message {
  readonly text: string;
  readonly problems: readonly Problem[];
}

/** A problem with a link to its field when the page shows one, and a way to drop fields the format does not know. */
function ProblemEntry({ problem }: { readonly problem: Problem }) {
  const editor = useEditor();
  const { planner, strings } = editor;
  const segments = parseFieldPath(problem.path);
  const unknownField = segments !== undefined && problem.rule?.kind === 'unknownField';
  const element = typeof document !== 'undefined' ? document.getElementById(fieldId(segments ?? [])) : null;
  const { field, phrase } = problemText(problem, editor);
  return (
    <li>
      {field !== null && (element ? <a href={`#${encodeURIComponent(fieldId(segments ?? []))}`} onClick={(event) => { event.preventDefault(); element.focus(); }}>{field}</a> : <span>{field}</span>)}
      {field !== null ? `: ${phrase}` : phrase}
      {unknownField && (
        <button type="button" onClick={() => planner.apply({ kind: 'remove', path: segments })}>
          {strings.removeField(problem.path)}
        </button>
      )}
    </li>
  );
}

/**
 * The link's length, whether the present draft's answer is due, and the nearest limit: signals bound to the DOM
 * (@preact/signals), so an answer changes these texts and attributes without rendering the status or the tree again.
 */
function Status() {
  const editor = useEditor();
  const view = useMemo(() => statusView(editor), [editor]);
  return (
    <div class="edit-status" data-pending={view.pending}>
      <p class="edit-link" data-link-length={view.linkLength}>
        {view.linkText}
      </p>
      <p class={view.limitClass} role="status">
        {view.limitText}
      </p>
      <ProblemList />
    </div>
  );
}

function statusView(editor: EditorContext): Record<'pending' | 'linkText' | 'limitClass' | 'limitText', ReadonlySignal<string>> & { linkLength: ReadonlySignal<number> } {
  const { state, strings, formats, addressBar } = editor;
  const worst = computed(() => tightest(state.value.limits.filter((entry) => entry.level !== 'ok')));
  /** The link in the address bar, once the first check has answered (before it there is no link to speak of). */
  const shown = computed(() => (state.value.link === undefined || state.value.link === null ? null : addressBar.value.link));
  return {
    pending: computed(() => (state.value.pending ? 'true' : 'false')),
    linkLength: computed(() => shown.value?.length ?? 0),
    linkText: computed(() => {
      const link = shown.value;
      // Before the first answer there is no link yet: "0 characters" would be a wrong statement, so nothing is shown.
      if (link === null) return '';
      // "The link in the address bar holds this plan" only when it does: not while a long link waits for the typing pause.
      const holds = state.value.valid && state.value.link === link && !addressBar.value.behind;
      // While a field is invalid, which one the link is behind on.
      const first = state.value.valid ? undefined : state.value.problems[0];
      const behind = first === undefined ? '' : ` · ${strings.linkBehind(fieldName(first.path, state.value.draft, strings))}`;
      return `${strings.linkLength(formats.number(link.length))}${holds ? ` · ${strings.linkUpToDate}` : behind}`;
    }),
    limitClass: computed(() => `edit-limit${worst.value ? ` edit-limit--${worst.value.level}` : ''}`),
    limitText: computed(() => {
      const limit = worst.value;
      if (limit === undefined) return '';
      return (limit.level === 'over' ? strings.overLimit : strings.nearLimit)(strings.limitNames[limit.name], formats.number(limit.used), formats.number(limit.limit));
    }),
  };
}

/**
 * After "Done" with a field still invalid: one sentence naming the field and that the link holds the last valid plan,
 * and the two ways on. Gone once the draft is valid again (then "Done" leaves).
 */
function LeaveQuestion({ onDiscard }: { readonly onDiscard: () => void }) {
  const editor = useEditor();
  const { strings } = editor;
  if (!editor.leaving.value || editor.valid.value) return null;
  const first = editor.problems.value[0];
  const field = first === undefined ? '' : fieldName(first.path, editor.draft.value, strings);
  const keepEditing = () => {
    editor.leaving.value = false;
    if (first !== undefined) focusProblem(editor, first.path);
  };
  return (
    <div class="edit-leave" role="alert">
      <p>{strings.invalidOnDone(field)}</p>
      <button type="button" class="danger" onClick={onDiscard}>{strings.discardInvalid}</button>
      <button type="button" onClick={keepEditing}>{strings.keepEditing}</button>
    </div>
  );
}

/** The problems above the plan: renders when they change, not on every answer. */
function ProblemList() {
  const { problems: list, strings } = useEditor();
  const problems = list.value;
  if (problems.length === 0) return null;
  return (
    <section class="edit-problems" aria-labelledby="edit-problems-title">
      <h2 id="edit-problems-title">{strings.problemsTitle(problems.length)}</h2>
      <p>{strings.problemsExplained}</p>
      <ul>
        {problems.map((problem, index) => (
          <ProblemEntry key={`${problem.path}#${index}`} problem={problem} />
        ))}
      </ul>
    </section>
  );
}

/** Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z (and Ctrl+Y) redoes, inside fields too: the plan's history, not the field's. */
function useShortcuts(editor: EditorContext): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key !== 'z' && key !== 'y') return;
      event.preventDefault();
      editor.planner.finishEdit();
      if (key === 'y' || event.shiftKey) editor.planner.redo();
      else editor.planner.undo();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [editor]);
}

/** Puts focus where an edit asked for it (the moved or new item), once its row has been rendered. */
function useFocusRequests(editor: EditorContext, root: { current: HTMLElement | null }): void {
  const request = editor.focus.value;
  // A layout effect: focus moves in the render that shows the new control, not after the next paint, so keys pressed
  // right after "Add block" land in the new title instead of on the button (the German e2e test lost them once checks
  // answered asynchronously).
  useLayoutEffect(() => {
    if (request === null || root.current === null) return;
    editor.focus.value = null;
    let target: HTMLElement | null | undefined;
    if ('field' in request) target = document.getElementById(request.field);
    else {
      const control = (name: string) => root.current?.querySelector<HTMLButtonElement>(`[data-item-id="${CSS.escape(request.id)}"] [data-control="${name}"]`);
      target = request.control === 'agenda' ? root.current.querySelector<HTMLElement>('#edit-agenda') : control(request.control);
      // Moved to the first or last place, its button for that direction is disabled: the other one keeps the focus.
      if (target instanceof HTMLButtonElement && target.disabled) target = control(request.control === 'up' ? 'down' : request.control === 'down' ? 'up' : 'details');
    }
    target?.focus();
    if (request.select === true && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) target.select();
  });
}

/** The sections above the agenda; they and the agenda read the draft, so a keystroke renders them and not the root. */
function Sections({ times }: { readonly times: ReadonlySignal<ItemTimes> }) {
  const editor = useEditor();
  const draft = editor.draft.value;
  const problemsByPath = editor.problemsByPath.value;
  const { total, clock, end } = times.value;
  return (
    <>
      <WorkshopSection
        workshop={draft.workshop}
        problems={problemsUnder(problemsByPath, 'workshop').map}
        total={total}
        origin={clock.origin}
        end={end}
        relative={clock.relative}
      />
      <CategoriesSection blockTypes={draft.blockTypes} problems={problemsUnder(problemsByPath, 'blockTypes').map} />
      <PeopleSection persons={draft.persons} problems={problemsUnder(problemsByPath, 'persons').map} />
    </>
  );
}

function Agenda({ times }: { readonly times: ReadonlySignal<ItemTimes> }) {
  const editor = useEditor();
  const draft = editor.draft.value;
  const list: ListContext = { times: times.value, problems: editor.problemsByPath.value, selected: editor.selected.value, open: editor.open.value };
  return (
    <section class="edit-section edit-agenda" aria-labelledby="edit-agenda">
      <h2 id="edit-agenda" tabIndex={-1}>
        {editor.strings.agendaSection}
      </h2>
      {draft.items.length === 0 && <p class="edit-empty">{editor.strings.emptyAgenda}</p>}
      <ItemList items={draft.items} container={null} parent={null} list={list} />
    </section>
  );
}

export function EditorRoot(props: EditorRootProps) {
  const editor = useEditor();
  const root = useRef<HTMLElement>(null);
  const [message, setMessage] = useState<Message | null>(null);
  useShortcuts(editor);
  useFocusRequests(editor, root);
  // The root reads no part of the state that changes per keystroke: the draft's readers are Sections and Agenda.
  const times = useMemo(() => computed(() => computeTimes(editor.draft.value)), [editor]);
  const valid = useMemo(() => computed(() => (editor.valid.value ? 'true' : 'false')), [editor]);
  const onDone = props.onDone;
  return (
    <section class="editor" ref={root} aria-labelledby="edit-title" data-valid={valid}>
      {/* The page's one h1 while editing: the plan's own h1 belongs to the read-only view, which edit mode replaces. */}
      <h1 id="edit-title" class="edit-title">
        {editor.strings.editorLabel}
      </h1>
      {/* The question after "Done" stays in view with the toolbar while focus is on the invalid field further down. */}
      <div class="edit-top">
        <Toolbar onDone={onDone} onDiscard={props.onDiscard} onMessage={setMessage} library={props.library} />
        <LeaveQuestion onDiscard={props.onDiscard} />
      </div>
      {message && (
        <div class="edit-message" role="alert">
          <p>{message.text}</p>
          {message.problems.length > 0 && (
            <ul>
              {message.problems.map((problem, index) => {
                const { field, phrase } = problemText(problem, editor, true);
                return <li key={index}>{field !== null ? `${field}: ${phrase}` : phrase}</li>;
              })}
            </ul>
          )}
        </div>
      )}
      <Status />
      <Sections times={times} />
      <Agenda times={times} />
    </section>
  );
}
