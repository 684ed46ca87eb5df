// "Import table": a table pasted from a spreadsheet or opened as a CSV file, previewed with every problem named at its
// row before anything changes; "Replace the agenda" or "Add … to the agenda" then makes it one undoable step.
import { useMemo, useRef, useState } from 'preact/hooks';
import { formatMinutes } from '../../plan-view/schedule.js';
import { NESTED_MARK } from '../../plan-view/table-columns.js';
import type { Encoded } from '../encode.js';
import { MAX_LISTED_PROBLEMS, type TableProblem } from '../table/problems.js';
import { previewTable, type ImportMode, type TablePreview } from '../table/preview.js';
import { fileTable, pastedTable } from '../table/read.js';
import type { Draft } from '../tree.js';
import { useEditor } from './context.js';
import { ModalDialog } from './dialog.js';
import { problemText } from './problem-links.js';

/** The text to read and where it came from (a file's name, or null when pasted). */
type Source = { readonly text: string; readonly file: string | null } | { readonly problem: TableProblem; readonly file: string | null };

export function TableDialog(props: {
  readonly encode: (draft: Draft) => Encoded;
  readonly onApply: (draft: Draft, items: number, source: string) => void;
  readonly onClose: () => void;
}) {
  const editor = useEditor();
  const { strings, formats } = editor;
  const words = strings.table;
  const [source, setSource] = useState<Source | null>(null);
  const [pasted, setPasted] = useState('');
  const [mode, setMode] = useState<ImportMode>('replace');
  const file = useRef<HTMLInputElement>(null);
  const draft = editor.draft.value;
  const preview = useMemo((): TablePreview | TableProblem | null => {
    if (source === null) return null;
    if ('problem' in source) return source.problem;
    performance.mark('sessionplan:table-preview-start');
    const result = previewTable(source.text, draft, mode, props.encode);
    performance.mark('sessionplan:table-preview-end');
    return result;
  }, [source, mode, draft, props.encode]);

  const onPaste = (text: string) => {
    setPasted(text);
    const read = pastedTable(text);
    setSource(text.trim() === '' ? null : read.ok ? { text: read.text, file: null } : { problem: read.problem, file: null });
  };
  const onFile = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen) return;
    const read = await fileTable(chosen);
    setPasted('');
    setSource(read.ok ? { text: read.text, file: chosen.name } : { problem: read.problem, file: chosen.name });
  };

  const problems: string[] = preview === null ? []
    : 'kind' in preview ? [words.problem(preview, formats.number)]
    : [
        ...preview.problems.map((problem) => words.problem(problem, formats.number)),
        ...preview.planProblems.map(({ row, problem }) => {
          const { field, phrase } = problemText(problem, editor, true);
          return `${row === null ? '' : `${words.row(row)}: `}${field !== null && row === null ? `${field}: ` : ''}${phrase}`;
        }),
      ];
  const ready = preview !== null && !('kind' in preview) && preview.draft !== null ? preview : null;
  const shown = preview !== null && !('kind' in preview) ? preview : null;
  return (
    <ModalDialog id="table-dialog" title={words.title} onClose={props.onClose}>
      <p class="edit-dialog-note">{words.hint}</p>
      <div class="field field--wide">
        <label for="table-paste">{words.pasteLabel}</label>
        <textarea id="table-paste" rows={5} value={pasted} spellcheck={false} onInput={(event) => onPaste(event.currentTarget.value)} aria-invalid={problems.length > 0 && source?.file === null ? 'true' : undefined} aria-describedby={problems.length > 0 ? 'table-problems' : undefined} />
      </div>
      <p class="table-file">
        <button type="button" onClick={() => file.current?.click()}>{words.openFile}</button>
        <input ref={file} type="file" accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values" hidden onChange={(event) => void onFile(event.currentTarget)} />
        {source?.file && <span class="table-file-name">{source.file}</span>}
      </p>
      <fieldset class="table-mode">
        <legend>{words.modeLegend}</legend>
        {(['replace', 'append'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="table-mode" value={value} checked={mode === value} onChange={() => setMode(value)} /> {value === 'replace' ? words.replace : words.append}
          </label>
        ))}
      </fieldset>
      {shown && shown.columns.length > 0 && (
        <p class="edit-dialog-note">
          {words.columns(shown.columns.map(({ header }) => header).join(', '))}
          {shown.ignored.length > 0 && ` ${words.ignored(shown.ignored.join(', '))}`}
        </p>
      )}
      <div id="table-problems" role="status">
        {problems.length > 0 && (
          <section class="edit-problems" aria-labelledby="table-problems-title">
            <h3 id="table-problems-title">{words.problemsTitle(problems.length)}</h3>
            <ul>
              {problems.slice(0, MAX_LISTED_PROBLEMS).map((text, index) => <li key={index}>{text}</li>)}
              {problems.length > MAX_LISTED_PROBLEMS && <li>{words.moreProblems(problems.length - MAX_LISTED_PROBLEMS)}</li>}
            </ul>
          </section>
        )}
      </div>
      {shown && shown.rows.length > 0 && (
        <div class="table-preview">
          <table>
            <caption>{words.previewCaption(shown.items)}</caption>
            <thead>
              <tr><th scope="col">{words.headers.row}</th><th scope="col">{words.headers.time}</th><th scope="col">{words.headers.title}</th><th scope="col">{words.headers.duration}</th></tr>
            </thead>
            <tbody>
              {shown.rows.map((row) => (
                <tr key={row.row} data-kind={row.kind}>
                  <td>{row.row}</td>
                  <td>{formatMinutes(row.start, shown.relative)}–{formatMinutes(row.end, shown.relative)}</td>
                  <td>{`${`${NESTED_MARK} `.repeat(row.depth)}${row.title}`}</td>
                  <td>{formats.duration(row.duration)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {shown.items > shown.rows.length && <p class="edit-dialog-note">{words.more(shown.items - shown.rows.length)}</p>}
        </div>
      )}
      <p class="table-actions">
        <button type="button" class="primary" disabled={ready === null} onClick={() => ready?.draft && props.onApply(ready.draft, ready.items, source?.file ?? words.pasted)}>
          {mode === 'replace' ? words.applyReplace(shown?.items ?? 0) : words.applyAppend(shown?.items ?? 0)}
        </button>
      </p>
    </ModalDialog>
  );
}
