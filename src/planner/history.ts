// Undo and redo over whole drafts (edits share what they did not change, so a step costs the nodes it touched).

/** Steps kept for undo; older ones are dropped. */
export const MAX_UNDO_STEPS = 200;

/**
 * One undo step per finished edit. Edits that carry the same `typing` key (the field being typed into) join the open
 * step until `finish()` is called (the field loses focus or its value is committed), so a word typed is one step.
 */
export class History<T> {
  private readonly past: T[] = [];
  private readonly future: T[] = [];
  private openKey: string | null = null;

  constructor(private current: T) {}

  get present(): T {
    return this.current;
  }

  /** A typing step is open. */
  get typing(): boolean {
    return this.openKey !== null;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  /** Records the state after an edit; `typing` joins it to the open step of the same key. Same state: nothing recorded. */
  record(next: T, typing?: string): void {
    if (next === this.current) return;
    if (typing === undefined || typing !== this.openKey) {
      this.past.push(this.current);
      if (this.past.length > MAX_UNDO_STEPS) this.past.shift();
    }
    this.current = next;
    this.future.length = 0;
    this.openKey = typing ?? null;
  }

  /** Closes the open typing step: the next edit starts a new one. */
  finish(): void {
    this.openKey = null;
  }

  undo(): T {
    const previous = this.past.pop();
    if (previous !== undefined) {
      this.future.push(this.current);
      this.current = previous;
    }
    this.openKey = null;
    return this.current;
  }

  redo(): T {
    const next = this.future.pop();
    if (next !== undefined) {
      this.past.push(this.current);
      this.current = next;
    }
    this.openKey = null;
    return this.current;
  }
}
