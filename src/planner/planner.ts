// The planner's state: the draft, its undo history, its problems, the last valid link and the limits; the UI renders from it.
import type { Problem } from '../session/errors.js';
import type { Session } from '../session/schema.js';
import { applyEdit, type Edit, type EditResult } from './edits.js';
import type { Encoded } from './encode.js';
import { inPageEncoder, type DraftEncoder } from './encoder.js';
import type { EditorHost } from './host.js';
import type { Imported } from './import-file.js';
import type { NewPartLabels } from './factory.js';
import { History } from './history.js';
import { measureLimits, type EncodedMeasures, type LimitMeasure } from './limits.js';
import { countItems, fieldPath, type Draft } from './tree.js';

export interface PlannerOptions {
  /** create's validation and codec, bound to the page's origin as base URL (host.ts): JSON import, and the fallback encoding. */
  readonly host: EditorHost;
  /** Where drafts are validated and encoded (encoder.ts); default: in the page with the host's code, answered asynchronously. */
  readonly encoder?: DraftEncoder;
  readonly draft: Draft;
  /** The link the draft was opened from: kept as the current link while the draft breaks a rule (decode warnings). */
  readonly openedLink?: string | null;
  readonly labels: NewPartLabels;
}

export interface EditOptions {
  /** The edit is a keystroke in a field: it joins the field's open undo step (History.record). */
  readonly typing?: boolean;
}

/**
 * What the UI shows. The draft, history and item count follow every edit at once; problems, validity, the link and
 * the codec's limits come from checking a draft with create's code, which answers asynchronously (possibly from a
 * worker): they describe the newest draft checked so far, and `pending` says the present draft's answer is due.
 */
export interface PlannerState {
  readonly draft: Draft;
  /** The checked draft's problems (empty when it is valid), as the session code words them. */
  readonly problems: readonly Problem[];
  readonly problemsByPath: ReadonlyMap<string, readonly string[]>;
  /** The link of the last valid draft (or the opened link until one is): an invalid draft never makes one. */
  readonly link: string | null;
  /** The document that link holds, normalized; null when no valid draft has been seen. */
  readonly linkedSession: Session | null;
  /** The checked draft is valid (false until the first answer). */
  readonly valid: boolean;
  /** The present draft has not been checked yet: problems, valid and link are those of an earlier draft. */
  readonly pending: boolean;
  readonly limits: readonly LimitMeasure[];
  readonly canUndo: boolean;
  readonly canRedo: boolean;
}

const NO_PROBLEMS: readonly Problem[] = [];
const NO_PROBLEMS_BY_PATH: ReadonlyMap<string, readonly string[]> = new Map();

/** Problems by field path (`items[2].duration`), in document order; a path may carry several sentences. */
export function problemsByPath(problems: readonly Problem[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const { path, message } of problems) {
    const list = byPath.get(path);
    if (list) list.push(message);
    else byPath.set(path, [message]);
  }
  return byPath;
}

function sameProblems(a: readonly Problem[], b: readonly Problem[]): boolean {
  return a.length === b.length && a.every((problem, index) => problem.path === b[index]!.path && problem.message === b[index]!.message);
}

export class Planner {
  private readonly history: History<Draft>;
  private readonly encoder: DraftEncoder;
  /** Drafts never change once made, so a draft is checked once (undo and redo to a checked draft answer at once). */
  private readonly outcomes = new WeakMap<Draft, Encoded>();
  private readonly listeners = new Set<(state: PlannerState) => void>();
  private readonly waiting: { resolve(state: PlannerState): void; reject(error: unknown): void }[] = [];
  /** The newest draft whose answer was taken, and that answer. */
  private checked: { draft: Draft; outcome: Encoded } | null = null;
  /** The draft the encoder is working on: one at a time, so a burst of keystrokes costs one check per answer, not each. */
  private asked: Draft | null = null;
  private lastValid: { link: string; session: Session; measures: EncodedMeasures } | null = null;
  private openedLink: string | null;
  private current: PlannerState;

  constructor(private readonly options: PlannerOptions) {
    this.history = new History(options.draft);
    this.encoder = options.encoder ?? inPageEncoder(options.host.encode);
    this.openedLink = options.openedLink ?? null;
    this.current = this.derive();
    this.check();
  }

  get state(): PlannerState {
    return this.current;
  }

  /** True while a field's typing step is open (its keystrokes are one undo step until finishEdit). */
  get typing(): boolean {
    return this.history.typing;
  }

  get labels(): NewPartLabels {
    return this.options.labels;
  }

  /** Called after every change with the new state; returns the unsubscribe function. */
  subscribe(listener: (state: PlannerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The state once the present draft is checked (at once when it is); rejects when checking it failed. */
  settled(): Promise<PlannerState> {
    if (!this.current.pending) return Promise.resolve(this.current);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Applies an edit and records it for undo; the result is checked (asynchronously). An edit that changes nothing records nothing. */
  apply(edit: Edit, options: EditOptions = {}): EditResult {
    const result = applyEdit(this.history.present, edit, this.options.labels);
    const typing = options.typing === true && edit.kind === 'set' ? `set:${fieldPath(edit.path)}` : undefined;
    if (result.draft !== this.history.present) {
      this.history.record(result.draft, typing);
      this.changed();
    } else if (typing === undefined) this.history.finish();
    return result;
  }

  /** Ends the typing step of the field being edited (on blur or commit): the next edit is a new undo step. */
  finishEdit(): void {
    this.history.finish();
  }

  /** Create's answer to a draft that is not (yet) the editor's, at once in this page (a table's preview). */
  readonly checkOther = (draft: Draft): Encoded => this.options.host.encode(draft);

  /** Replaces the whole draft as one undo step (an imported file). */
  replace(draft: Draft): void {
    this.history.finish();
    this.history.record(draft);
    this.changed();
  }

  /** Reads a JSON file with create's strict rules; a plan that passes replaces the draft as one undo step. */
  importFile(text: string): Imported {
    const imported = this.options.host.importJson(text);
    if (imported.ok) this.replace(imported.session);
    return imported;
  }

  undo(): void {
    if (!this.history.canUndo) return;
    this.history.undo();
    this.changed();
  }

  redo(): void {
    if (!this.history.canRedo) return;
    this.history.redo();
    this.changed();
  }

  /** Stops the encoder (its worker); the planner is not used after this. */
  close(): void {
    this.encoder.close();
  }

  /**
   * Takes the present draft's answer when it is known, else asks for it unless an answer is due: that answer's draft
   * may be older, and then the present draft is asked for next. An answer is taken only for the draft that is present
   * when it arrives, so an older draft's answer never replaces a newer draft's link or problems.
   */
  private check(): void {
    const draft = this.history.present;
    const known = this.outcomes.get(draft);
    if (known !== undefined) {
      this.take(draft, known);
      return;
    }
    if (this.asked !== null) return;
    this.asked = draft;
    this.encoder.encode(draft).then(
      (outcome) => {
        this.outcomes.set(draft, outcome);
        this.asked = null;
        this.check();
        this.publish();
      },
      (error: unknown) => {
        // A fault in the code (create's refusals are answers, not errors): callers waiting hear of it, the next edit asks again.
        this.asked = null;
        const waiters = this.waiting.splice(0);
        for (const waiter of waiters) waiter.reject(error);
        if (waiters.length === 0) queueMicrotask(() => {
          throw error;
        });
      },
    );
  }

  private take(draft: Draft, outcome: Encoded): void {
    if (this.checked?.draft === draft) return;
    this.checked = { draft, outcome };
    if (outcome.ok) {
      this.lastValid = { link: outcome.link, session: outcome.session, measures: outcome.measures };
      this.openedLink = null;
    }
  }

  private derive(): PlannerState {
    const draft = this.history.present;
    const outcome = this.checked?.outcome;
    const problems = outcome === undefined || outcome.ok ? NO_PROBLEMS : outcome.problems;
    const previous = this.current as PlannerState | undefined;
    // Unchanged problems keep their map, so the rows and sections that read it do not render again.
    const byPath = previous !== undefined && sameProblems(previous.problems, problems) ? previous.problemsByPath : problems.length === 0 ? NO_PROBLEMS_BY_PATH : problemsByPath(problems);
    return {
      draft,
      problems: previous !== undefined && byPath === previous.problemsByPath ? previous.problems : problems,
      problemsByPath: byPath,
      link: this.lastValid?.link ?? this.openedLink,
      linkedSession: this.lastValid?.session ?? null,
      valid: outcome?.ok ?? false,
      pending: this.checked?.draft !== draft,
      limits: measureLimits(countItems(draft.items), this.lastValid?.measures ?? null),
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
    };
  }

  private changed(): void {
    this.check();
    this.publish();
  }

  private publish(): void {
    this.current = this.derive();
    for (const listener of this.listeners) listener(this.current);
    if (!this.current.pending) for (const waiter of this.waiting.splice(0)) waiter.resolve(this.current);
  }
}
