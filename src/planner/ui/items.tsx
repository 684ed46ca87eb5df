// The agenda in edit mode: item rows (title, duration, time, moves), their details on demand, and nested lists with drag and drop.
import { Component, type ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { MAX_LANES } from '../../session/constants.js';
import { formatMinutes, overrunMinutes } from '../../plan-view/schedule.js';
import { moveTargets } from '../edits.js';
import { fieldPath, itemAt, isContainer, itemSegments, type Group, type Item, type ItemKind, type ItemPath } from '../tree.js';
import { useEditor, type EditorContext } from './context.js';
import { CheckboxField, ClockField, fieldId, NumberField, numberOrText, PeopleField, SelectField, TextField } from './fields.js';
import { bindSortable } from './sortable.js';
import type { ItemTimes } from './times.js';

const NO_PROBLEMS: ReadonlyMap<string, readonly string[]> = new Map();

const NO_MESSAGES: readonly string[] = [];

/** What a list of items needs from the whole editor state (made once per render of the editor). */
export interface ListContext {
  readonly times: ItemTimes;
  /** Every problem, by path; a row gets those under its own path. */
  readonly problems: ReadonlyMap<string, readonly string[]>;
  readonly selected: string | null;
  readonly open: ReadonlySet<string>;
}

/** The problems under an item's path (its own fields and its children's), and a key that is equal when they are. */
export function problemsUnder(problems: ReadonlyMap<string, readonly string[]>, prefix: string): { map: ReadonlyMap<string, readonly string[]>; key: string } {
  if (problems.size === 0) return { map: NO_PROBLEMS, key: '' };
  let map: Map<string, readonly string[]> | undefined;
  let key = '';
  for (const [path, messages] of problems) {
    if (!path.startsWith(prefix) || (path.length > prefix.length && path[prefix.length] !== '.' && path[prefix.length] !== '[')) continue;
    (map ??= new Map()).set(path, messages);
    key += `${path}\u0000${messages.join('\u0000')}\u0001`;
  }
  return map === undefined ? { map: NO_PROBLEMS, key: '' } : { map, key };
}

export function ItemList(props: {
  readonly items: readonly Item[];
  readonly container: ItemPath | null;
  readonly parent: Item | null;
  readonly list: ListContext;
}) {
  const editor = useEditor();
  const ref = useRef<HTMLOListElement>(null);
  useEffect(() => (ref.current ? bindSortable(ref.current, editor) : undefined), [editor]);
  const { items, container, parent, list } = props;
  const seen = new Set<string>();
  const lanes = parent?.type === 'breakout' && !parent.sameInAllBreakouts ? parent.lanes : null;
  return (
    <ol class="edit-list" ref={ref} data-container={container === null ? '' : container.join('.')} data-kind={parent?.type ?? 'top'}>
      {items.map((item, index) => {
        const at = [...(container ?? []), index];
        const key = seen.has(item.id) ? `${item.id}#${index}` : item.id;
        seen.add(item.id);
        const slot = list.times.slots.get(item);
        const problems = problemsUnder(list.problems, fieldPath(itemSegments(at)));
        const holds = isContainer(item);
        return (
          <ItemRow
            key={key}
            item={item}
            at={at.join('.')}
            last={index === items.length - 1}
            lanes={lanes}
            start={slot?.start ?? 0}
            end={slot?.end ?? 0}
            relative={list.times.clock.relative}
            problems={problems.map}
            problemKey={problems.key}
            selected={holds ? list.selected : list.selected === item.id ? item.id : null}
            open={holds ? list.open : list.open.has(item.id) ? OPEN : CLOSED}
            list={list}
          />
        );
      })}
    </ol>
  );
}

const OPEN: ReadonlySet<string> = new Set(['open']);
const CLOSED: ReadonlySet<string> = new Set();

interface RowProps {
  readonly item: Item;
  /** The item path, dot-separated (a string, so unchanged positions compare equal). */
  readonly at: string;
  readonly last: boolean;
  /** The lanes of the breakout a block sits in (null: not in one, or "same in all breakouts"). */
  readonly lanes: number | null;
  readonly start: number;
  readonly end: number;
  readonly relative: boolean;
  /** Problems under this item's path (its fields and its children's) and a key equal when they are. */
  readonly problems: ReadonlyMap<string, readonly string[]>;
  readonly problemKey: string;
  /**
   * A block gets its own ID when it is selected, else null; a container gets the selected ID and the open set
   * whatever they are, for its children (selection and details change on clicks, not on keystrokes).
   */
  readonly selected: string | null;
  readonly open: ReadonlySet<string>;
  /** Read by containers for their children's times; not compared (see shouldComponentUpdate). */
  readonly list: ListContext;
}

/**
 * A row renders again only when something it shows changed: its item (edits copy what they change, so identity
 * says it), its place, its times, its problems, selection or details. A container's children need a new rendering
 * only then too: their times move only with the container's start or its children. Typing in one field of a
 * 500-item plan renders that row and the containers around it.
 */
class ItemRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    const now = this.props;
    return next.item !== now.item || next.at !== now.at || next.last !== now.last || next.lanes !== now.lanes || next.start !== now.start ||
      next.end !== now.end || next.relative !== now.relative || next.problemKey !== now.problemKey || next.selected !== now.selected || next.open !== now.open;
  }

  override render() {
    return <Row {...this.props} />;
  }
}

/** The row's own title and duration inputs: plain elements (no component per field), as 500 rows are rendered at once. */
function RowField(props: { readonly editor: EditorContext; readonly segments: (string | number)[]; readonly field: 'title' | 'duration'; readonly label: string; readonly value: unknown; readonly problems: ReadonlyMap<string, readonly string[]> }) {
  const path = [...props.segments, props.field];
  const id = fieldId(path);
  const messages = props.problems.get(fieldPath(path)) ?? NO_MESSAGES;
  const invalid = messages.length > 0;
  const { planner, setField } = props.editor;
  const toValue = props.field === 'duration' ? numberOrText : (text: string) => text;
  return (
    <div class={`field field--${props.field}${invalid ? ' field--invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        inputMode={props.field === 'duration' ? 'numeric' : undefined}
        autocomplete="off"
        data-control={props.field}
        value={typeof props.value === 'string' || typeof props.value === 'number' ? String(props.value) : ''}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}:problem` : undefined}
        onInput={(event) => setField(path, toValue(event.currentTarget.value), { typing: true })}
        onBlur={() => planner.finishEdit()}
      />
      {invalid && (
        <p class="field-problem" id={`${id}:problem`}>
          {messages.join(' ')}
        </p>
      )}
    </div>
  );
}

function Row(props: RowProps) {
  const editor = useEditor();
  const { strings, planner } = editor;
  const { item } = props;
  const at = props.at.split('.').map(Number);
  const segments = itemSegments(at);
  const title = item.title === '' ? strings.kind[item.type] : item.title;
  const range = `${formatMinutes(props.start, props.relative)}–${formatMinutes(props.end, props.relative)}`;
  const open = isContainer(item) ? props.open.has(item.id) : props.open === OPEN;
  const select = () => {
    if (editor.selected.value !== item.id) editor.selected.value = item.id;
  };
  const shift = (by: -1 | 1, control: string) => {
    const result = planner.apply({ kind: 'shift', at, by });
    if (result.at) editor.focus.value = { id: item.id, control };
  };
  const toggle = () => {
    const next = new Set(editor.open.value);
    if (next.has(item.id)) next.delete(item.id);
    else next.add(item.id);
    editor.open.value = next;
  };
  const detailsId = `details:${props.at}`;
  return (
    <li
      class={`edit-item edit-item--${item.type}${props.selected === item.id ? ' edit-item--selected' : ''}`}
      data-item-id={item.id}
      data-path={props.at}
      data-kind={item.type}
      onFocusIn={(event) => {
        event.stopPropagation();
        select();
      }}
      onClick={(event) => {
        event.stopPropagation();
        select();
      }}
    >
      <div class="edit-row">
        <span class="drag-handle" aria-hidden="true">
          ⠿
        </span>
        <span class="edit-kind">{strings.kind[item.type]}</span>
        <RowField editor={editor} segments={segments} field="title" label={strings.title} value={item.title} problems={props.problems} />
        <RowField editor={editor} segments={segments} field="duration" label={strings.duration} value={item.duration} problems={props.problems} />
        <span class="edit-time">{range}</span>
        <span class="edit-actions">
          <button type="button" data-control="up" aria-label={strings.moveUp(title)} disabled={at[at.length - 1] === 0} onClick={() => shift(-1, 'up')}>
            ↑
          </button>
          <button type="button" data-control="down" aria-label={strings.moveDown(title)} disabled={props.last} onClick={() => shift(1, 'down')}>
            ↓
          </button>
          <button type="button" class="details-toggle" data-control="details" aria-label={strings.details(title)} title={strings.details(title)} aria-expanded={open ? 'true' : 'false'} aria-controls={open ? detailsId : undefined} onClick={toggle} />
        </span>
      </div>
      {open && <Details {...props} id={detailsId} title={title} segments={segments} path={at} />}
      {item.type === 'group' && <Overrun group={item} start={props.start} relative={props.relative} />}
      {isContainer(item) && (
        <ItemList items={item.children as readonly Item[]} container={at} parent={item} list={props.list} />
      )}
    </li>
  );
}

/** The view's hint when a group's items take longer than the group: said as the plan is typed, never a problem. */
function Overrun({ group, start, relative }: { readonly group: Group; readonly start: number; readonly relative: boolean }) {
  const { strings, formats } = useEditor();
  const over = overrunMinutes(group.children as readonly Item[], start, group.duration, relative);
  return over === 0 ? null : <p class="edit-hint overrun">{strings.overrun(formats.duration(over))}</p>;
}

function Details(props: RowProps & { readonly id: string; readonly title: string; readonly segments: (string | number)[]; readonly path: number[] }) {
  const editor = useEditor();
  const { strings } = editor;
  const { item, segments } = props;
  // Open details are few: they read the current draft (categories, people, move targets) themselves.
  const draft = editor.draft.value;
  const problem = (field: string): readonly string[] | undefined => props.problems.get(fieldPath([...segments, field]));
  const fields: ComponentChildren[] = [];
  if (problem('id') !== undefined) fields.push(<TextField key="id" path={[...segments, 'id']} label={strings.itemId} value={item.id} problems={problem('id')} />);
  fields.push(
    <ClockField key="fixed" path={[...segments, 'fixedStartTime']} label={strings.fixedStartTime} type="time" value={item.fixedStartTime} problems={problem('fixedStartTime')} />,
    <TextField key="description" path={[...segments, 'description']} label={strings.description} value={item.description} problems={problem('description')} multiline />,
    <TextField key="notes" path={[...segments, 'notes']} label={strings.notes} value={item.notes} problems={problem('notes')} multiline />,
  );
  if (item.type === 'block') {
    fields.push(
      <TextField key="material" path={[...segments, 'material']} label={strings.material} value={item.material} problems={problem('material')} multiline />,
      <SelectField
        key="category"
        path={[...segments, 'blockTypeId']}
        label={strings.category}
        value={item.blockTypeId ?? ''}
        problems={problem('blockTypeId')}
        options={[{ value: '', label: strings.noCategory }, ...draft.blockTypes.map((type) => ({ value: type.id, label: type.name || type.id }))]}
        toValue={(text) => (text === '' ? null : text)}
      />,
      <PeopleField key="people" path={[...segments, 'personIds']} legend={strings.people} value={item.personIds} persons={draft.persons} problems={props.problems} />,
    );
    if (props.lanes !== null) {
      const lanes = Math.max(1, Math.min(MAX_LANES, Number.isInteger(props.lanes) ? props.lanes : 1), item.laneIndex + 1);
      fields.push(
        <SelectField
          key="lane"
          path={[...segments, 'laneIndex']}
          label={strings.laneOfChild}
          value={String(item.laneIndex)}
          problems={problem('laneIndex')}
          options={Array.from({ length: lanes }, (_, lane) => ({ value: String(lane), label: strings.laneName(lane + 1) }))}
          toValue={Number}
        />,
      );
    } else if (problem('laneIndex') !== undefined) {
      fields.push(<NumberField key="lane" path={[...segments, 'laneIndex']} label={strings.laneOfChild} value={item.laneIndex} min={0} max={MAX_LANES - 1} problems={problem('laneIndex')} />);
    }
  }
  if (item.type === 'breakout') {
    fields.push(
      <NumberField key="lanes" path={[...segments, 'lanes']} label={strings.lanes} value={item.lanes} min={1} max={MAX_LANES} problems={problem('lanes')} />,
      <CheckboxField key="same" path={[...segments, 'sameInAllBreakouts']} label={strings.sameInAllBreakouts} checked={item.sameInAllBreakouts} problems={problem('sameInAllBreakouts')} />,
    );
    const keys = Object.keys(item.lanePersons).map(Number).filter(Number.isInteger);
    const shown = Math.max(Number.isInteger(item.lanes) ? Math.min(item.lanes, MAX_LANES) : 1, ...keys.map((key) => key + 1));
    for (let lane = 0; lane < shown; lane++) {
      const laneName = strings.laneName(lane + 1);
      fields.push(
        <PeopleField
          key={`lane-${lane}`}
          path={[...segments, 'lanePersons', String(lane)]}
          legend={strings.lanePeople(laneName)}
          value={item.lanePersons[String(lane)] ?? []}
          persons={draft.persons}
          problems={props.problems}
        />,
      );
    }
  }
  return (
    <div class="edit-details" id={props.id}>
      <div class="edit-fields">{fields}</div>
      <div class="edit-item-actions">
        <MoveTo {...props} />
        <button type="button" data-control="duplicate" onClick={() => duplicate(editor, props.path)}>
          {strings.duplicate(props.title)}
        </button>
        <button type="button" data-control="delete" class="danger" onClick={() => remove(editor, props.path)}>
          {strings.delete(props.title)}
        </button>
      </div>
    </div>
  );
}

function containerLabel(editor: EditorContext, container: Item | null): string {
  if (container === null) return editor.strings.moveToTopLevel;
  return editor.strings.itemHeading(editor.strings.kind[container.type], container.title || container.id);
}

/** "Move to" without a mouse: the containers the nesting rule allows (moveTargets) and a button that moves there. */
function MoveTo(props: RowProps & { readonly title: string; readonly path: number[] }) {
  const editor = useEditor();
  const draft = editor.draft.value;
  const targets = moveTargets(draft, props.path);
  const ref = useRef<HTMLSelectElement>(null);
  if (targets.length === 0) return null;
  const id = `move:${props.at}`;
  const move = () => {
    const chosen = targets[Number(ref.current?.value ?? 0)];
    if (!chosen) return;
    const length = chosen.container === null ? draft.items.length : (chosen.container as { children: Item[] }).children.length;
    const result = editor.planner.apply({ kind: 'move', at: props.path, to: chosen.to, index: length });
    if (result.at) editor.focus.value = { id: props.item.id, control: 'details' };
  };
  return (
    <span class="move-to">
      <label for={id}>{editor.strings.moveTo(props.title)}</label>
      <select id={id} ref={ref}>
        {targets.map((target, index) => (
          <option key={index} value={String(index)}>
            {containerLabel(editor, target.container)}
          </option>
        ))}
      </select>
      <button type="button" onClick={move}>
        {editor.strings.moveButton(props.title)}
      </button>
    </span>
  );
}

function duplicate(editor: EditorContext, at: ItemPath): void {
  const result = editor.planner.apply({ kind: 'duplicate', at });
  const copy = result.at ? itemAt(result.draft, result.at) : undefined;
  if (copy) editor.focus.value = { id: copy.id, control: 'title' };
}

function remove(editor: EditorContext, at: ItemPath): void {
  const result = editor.planner.apply({ kind: 'delete', at });
  // Focus stays near: the item now in that place, else the one before, else the container, else the agenda heading.
  const index = at[at.length - 1]!;
  const parent = at.slice(0, -1);
  const next = itemAt(result.draft, [...parent, index]) ?? (index > 0 ? itemAt(result.draft, [...parent, index - 1]) : undefined) ?? (parent.length > 0 ? itemAt(result.draft, parent) : undefined);
  editor.focus.value = next ? { id: next.id, control: 'title' } : { id: '', control: 'agenda' };
}

export type { ItemKind };
