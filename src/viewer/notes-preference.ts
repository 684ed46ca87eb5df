// Whether the facilitator's notes are shown: a choice of this browser (local storage), never part of the link.
import type { PlanItem } from '../plan-view/plan.js';

const KEY = 'sessionplan:show-notes';

/** The browser's local storage, or null where it is unavailable (blocked cookies, some private modes). */
export function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Notes are folded unless this browser chose to show them. */
export function readNotesShown(storage: Storage | null): boolean {
  try {
    return storage?.getItem(KEY) === 'true';
  } catch {
    return false;
  }
}

/** Remembers the choice for the next visit; a storage that refuses (full, blocked) only loses the memory, not the choice. */
export function writeNotesShown(storage: Storage | null, shown: boolean): void {
  try {
    if (shown) storage?.setItem(KEY, 'true');
    else storage?.removeItem(KEY);
  } catch {
    // The page still shows or hides the notes; only the next visit will not remember it.
  }
}

/** True when any item of the plan has notes (the toggle is offered only then). */
export function planHasNotes(items: readonly PlanItem[]): boolean {
  for (const item of items) {
    if (item.notes) return true;
    if (item.type !== 'block' && planHasNotes(item.children)) return true;
  }
  return false;
}
