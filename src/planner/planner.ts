// The planner's state: the draft, its undo history, its problems, the last valid link and the limits; the UI renders from it.
import type { Problem } from '../session/errors.js';
import type { Session } from '../session/schema.js';
import { applyEdit, type Edit, type EditResult } from './edits.js';
import type { Encoded } from './encode.js';
import type { EditorHost } from './host.js';
import type { Imported } from './import-file.js';
import type { NewPartLabels } from './factory.js';
import { History } from './history.js';
import { measureLimits, type EncodedMeasures, type LimitMeasure } from './limits.js';
import { countItems, fieldPath, type Draft } from './tree.js';

export interface PlannerOptions {
  /** create's validation and codec, bound to the page's origin as base URL (host.ts). */
  readonly host: EditorHost;
  readonly draft: Draft;
  /** The link the draft was opened from: kept as the current link while the draft breaks a rule (decode warnings). */
  readonly openedLink?: string | null;
  readonly labels: NewPartLabels;
}

export interface EditOptions {
  /** The edit is a keystroke in a field: it joins the field's open undo step (History.record). */
  readonly typing?: boolean;
}

/** What the UI shows: all derived from the draft, recomputed once per change. */
export interface PlannerState {
  readonly draft: Draft;
  /** The draft's problems (empty when it is valid), as the session code words them. */
  readonly problems: readonly Problem[];
  readonly problemsByPath: ReadonlyMap<string, readonly string[]>;
  /** The link of the last valid draft (or the opened link until one is): an invalid draft never makes one. */
  readonly link: string | null;
  /** The document that link holds, normalized; null when no valid draft has been seen. */
  readonly linkedSession: Session | null;
  readonly valid: boolean;
  readonly limits: readonly LimitMeasure[];
  readonly canUndo: boolean;
  readonly canRedo: boolean;
}

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

export class Planner {
  private readonly history: History<Draft>;
  /** Drafts never change once made, so an outcome is computed once per draft (undo and redo are free). */
  private readonly outcomes = new WeakMap<Draft, Encoded>();
  private readonly listeners = new Set<(state: PlannerState) => void>();
  private lastValid: (EncodedMeasures & { link: string; session: Session }) | null = null;
  private openedLink: string | null;
  private current: PlannerState;

  constructor(private readonly options: PlannerOptions) {
    this.history = new History(options.draft);
    this.openedLink = options.openedLink ?? null;
    this.current = this.derive();
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

  /** Applies an edit, records it for undo, validates and encodes the result; an edit that changes nothing records nothing. */
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

  private encode(draft: Draft): Encoded {
    const known = this.outcomes.get(draft);
    if (known !== undefined) return known;
    const outcome = this.options.host.encode(draft);
    this.outcomes.set(draft, outcome);
    return outcome;
  }

  private derive(): PlannerState {
    const draft = this.history.present;
    const outcome = this.encode(draft);
    if (outcome.ok) {
      this.lastValid = { link: outcome.link, session: outcome.session, json: outcome.json, payloadChars: outcome.payload.length, counts: outcome.counts };
      this.openedLink = null;
    }
    const problems = outcome.ok ? [] : outcome.problems;
    return {
      draft,
      problems,
      problemsByPath: problemsByPath(problems),
      link: this.lastValid?.link ?? this.openedLink,
      linkedSession: this.lastValid?.session ?? null,
      valid: outcome.ok,
      limits: measureLimits(countItems(draft.items), this.lastValid),
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
    };
  }

  private changed(): void {
    this.current = this.derive();
    for (const listener of this.listeners) listener(this.current);
  }
}
