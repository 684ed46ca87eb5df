// Labelled form fields bound to a draft path: each edit goes to the planner, each problem is marked at its field.
import type { JSX, TargetedEvent } from 'preact';
import { fieldPath, parseFieldPath, type JsonValue, type Segments } from '../tree.js';
import { NO_CAUSED, useEditor } from './context.js';
import { focusProblem, problemText } from './problem-links.js';
import { fieldId } from './field-names.js';

export { fieldId };

const NO_PROBLEMS: readonly string[] = [];

interface FieldProps {
  readonly path: Segments;
  readonly label: string;
  readonly problems?: readonly string[] | undefined;
  /** The control's name for focus requests (context.ts FocusRequest). */
  readonly control?: string;
  readonly className?: string;
}

/** Label, control and the field's problems (aria-invalid, aria-describedby): the frame every field shares. */
function Frame({ path, label, problems = NO_PROBLEMS, className, children }: FieldProps & { children: (attributes: ControlAttributes) => JSX.Element }) {
  const editor = useEditor();
  const id = fieldId(path);
  const invalid = problems.length > 0;
  // What this field's change broke elsewhere is said here, where the change was made, with a link to each field.
  const caused = editor.caused.value;
  const broke = caused !== NO_CAUSED && caused.path === fieldPath(path) ? caused.problems : NO_CAUSED.problems;
  const describedBy = [invalid ? `${id}:problem` : '', broke.length > 0 ? `${id}:caused` : ''].filter(Boolean).join(' ');
  const attributes: ControlAttributes = {
    id,
    'aria-invalid': invalid ? 'true' : undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
  };
  return (
    <div class={`field${invalid ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label for={id}>{label}</label>
      {children(attributes)}
      {invalid && (
        <p class="field-problem" id={`${id}:problem`}>
          {problems.join(' ')}
        </p>
      )}
      {broke.length > 0 && (
        <p class="field-problem field-caused" id={`${id}:caused`}>
          {editor.strings.changeBroke}{' '}
          {broke.map((problem, index) => {
            const { field, phrase } = problemText(problem, editor);
            return (
              <span key={index}>
                {field !== null ? <a href={`#${encodeURIComponent(fieldId(parseFieldPath(problem.path) ?? []))}`} onClick={(event) => { event.preventDefault(); focusProblem(editor, problem.path); }}>{field}</a> : null}
                {field !== null ? `: ${phrase}` : phrase}
                {index < broke.length - 1 ? '; ' : ''}
              </span>
            );
          })}
        </p>
      )}
    </div>
  );
}

interface ControlAttributes {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

/** Typing edits join one undo step per field; leaving the field ends it. */
function useTyping(path: Segments, toValue: (text: string, control: HTMLInputElement | HTMLTextAreaElement) => JsonValue) {
  const { planner, setField } = useEditor();
  return {
    onInput: (event: TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setField(path, toValue(event.currentTarget.value, event.currentTarget), { typing: true });
    },
    onBlur: () => planner.finishEdit(),
  };
}

export function TextField(props: FieldProps & { readonly value: string; readonly multiline?: boolean }) {
  const typing = useTyping(props.path, (text) => text);
  return (
    <Frame {...props}>
      {(attributes) =>
        props.multiline ? (
          <textarea {...attributes} {...typing} data-control={props.control} value={props.value} rows={2} />
        ) : (
          <input {...attributes} {...typing} data-control={props.control} type="text" value={props.value} autocomplete="off" />
        )
      }
    </Frame>
  );
}

/**
 * Whole numbers as numbers; anything else as the text entered, which the session code then refuses with its own
 * sentence ("must be an integer, not a string") instead of the page guessing a number.
 */
export function numberOrText(text: string): JsonValue {
  const trimmed = text.trim();
  return /^-?\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : text;
}

export function NumberField(props: FieldProps & { readonly value: unknown; readonly min: number; readonly max: number }) {
  const typing = useTyping(props.path, numberOrText);
  return (
    <Frame {...props}>
      {(attributes) => (
        <input
          {...attributes}
          {...typing}
          data-control={props.control}
          type="text"
          inputMode="numeric"
          value={typeof props.value === 'number' || typeof props.value === 'string' ? String(props.value) : ''}
        />
      )}
    </Frame>
  );
}

/**
 * Time ("HH:MM") and date ("YYYY-MM-DD") fields: an empty field is null, which the document uses for "not set". A field
 * the browser holds partly filled (a segment cleared, `validity.badInput`) reports an empty value too: it becomes an
 * empty string, which the session code refuses, so it is marked and never reaches the link as "no date".
 */
export function ClockField(props: FieldProps & { readonly value: string | null; readonly type: 'time' | 'date' }) {
  const typing = useTyping(props.path, (text, control) => (text !== '' ? text : control.validity.badInput ? '' : null));
  // Four-digit years only: the document's dates are "YYYY-MM-DD", and without a maximum Chromium takes six digits.
  const range = props.type === 'date' ? { min: '0001-01-01', max: '9999-12-31' } : {};
  return (
    <Frame {...props}>
      {(attributes) => <input {...attributes} {...typing} {...range} data-control={props.control} type={props.type} value={props.value ?? ''} />}
    </Frame>
  );
}

export function ColorField(props: FieldProps & { readonly value: string }) {
  const typing = useTyping(props.path, (text) => text);
  return <Frame {...props}>{(attributes) => <input {...attributes} {...typing} type="color" value={props.value} />}</Frame>;
}

export function SelectField(props: FieldProps & { readonly value: string; readonly options: readonly { value: string; label: string }[]; readonly toValue: (text: string) => JsonValue }) {
  const { setField } = useEditor();
  const onChange = (event: TargetedEvent<HTMLSelectElement>) => {
    setField(props.path, props.toValue(event.currentTarget.value));
  };
  return (
    <Frame {...props}>
      {(attributes) => (
        <select {...attributes} data-control={props.control} value={props.value} onChange={onChange}>
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Frame>
  );
}

export function CheckboxField(props: FieldProps & { readonly checked: boolean }) {
  const { setField } = useEditor();
  const id = fieldId(props.path);
  const problems = props.problems ?? NO_PROBLEMS;
  return (
    <div class={`field field--check${problems.length > 0 ? ' field--invalid' : ''}`}>
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        aria-invalid={problems.length > 0 ? 'true' : undefined}
        aria-describedby={problems.length > 0 ? `${id}:problem` : undefined}
        onChange={(event) => setField(props.path, event.currentTarget.checked)}
      />
      <label for={id}>{props.label}</label>
      {problems.length > 0 && (
        <p class="field-problem" id={`${id}:problem`}>
          {problems.join(' ')}
        </p>
      )}
    </div>
  );
}

/**
 * A list of person IDs as checkboxes, one per declared person; IDs the list does not declare (older documents) are
 * shown with a button that removes them.
 */
export function PeopleField(props: {
  readonly path: Segments;
  readonly legend: string;
  readonly value: readonly string[];
  readonly persons: readonly { id: string; name: string }[];
  readonly problems: ReadonlyMap<string, readonly string[]>;
}) {
  const { setField, strings } = useEditor();
  const chosen = new Set(props.value);
  const declared = new Set(props.persons.map((person) => person.id));
  const set = (ids: string[]) => setField(props.path, ids);
  const toggle = (id: string, on: boolean) => set(on ? props.persons.filter((p) => p.id === id || chosen.has(p.id)).map((p) => p.id).concat(props.value.filter((v) => !declared.has(v))) : props.value.filter((v) => v !== id));
  const own = props.problems.get(fieldPath(props.path)) ?? NO_PROBLEMS;
  return (
    <fieldset class="field people-field" id={fieldId(props.path)}>
      <legend>{props.legend}</legend>
      {props.persons.map((person) => (
        <label key={person.id} class="check">
          <input type="checkbox" checked={chosen.has(person.id)} onChange={(event) => toggle(person.id, event.currentTarget.checked)} />
          {person.name}
        </label>
      ))}
      {props.value.map((id, index) => {
        if (declared.has(id)) return null;
        const problems = props.problems.get(fieldPath([...props.path, index])) ?? NO_PROBLEMS;
        return (
          <p key={`unknown:${id}`} class="field-problem unknown-person">
            {strings.unknownPerson(id)} {problems.join(' ')}{' '}
            <button type="button" onClick={() => set(props.value.filter((v) => v !== id))}>
              {strings.removeUnknown(id)}
            </button>
          </p>
        );
      })}
      {own.length > 0 && <p class="field-problem">{own.join(' ')}</p>}
    </fieldset>
  );
}
