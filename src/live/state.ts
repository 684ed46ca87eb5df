// What a live run remembers on the facilitator's device: when it started and what was done, in local storage under a
// key derived from the link's payload (the link itself never changes and never leaves the page).
import { fnv1a } from '../plan-view/hash.js';
import type { LiveAction } from './schedule.js';

export interface LiveState {
  /** When "Start now" was pressed (ms since the epoch, on a whole minute), or null while the plan's own date and time run it. */
  readonly startedAt: number | null;
  readonly actions: readonly LiveAction[];
}

export const EMPTY_STATE: LiveState = { startedAt: null, actions: [] };

const PREFIX = 'sessionplan:live:';
/** Runs kept on a device: the oldest go when more are saved, so storage does not fill with past days. */
const KEPT_RUNS = 20;
/** A run has at most this many actions: more than a day of presses, and a bound on what a stored value can hold. */
export const MAX_ACTIONS = 2000;

/**
 * The storage key of a link's run: two independent FNV-1a hashes of the link's fragment (64 bits in all), so one
 * device's plans do not share a run and the payload itself is not written down.
 */
export function storageKey(fragment: string): string {
  return `${PREFIX}${fnv1a(fragment)}${fnv1a(fragment, 0x01000193)}`;
}

/** The stored run, or the empty one when there is none or it is not one this page wrote (storage is the user's). */
export function readState(storage: Storage | null, key: string): LiveState {
  try {
    const text = storage?.getItem(key);
    if (!text) return EMPTY_STATE;
    return parseState(JSON.parse(text)) ?? EMPTY_STATE;
  } catch {
    return EMPTY_STATE;
  }
}

/** Saves the run; a storage that refuses (full, blocked) keeps the run for this tab only. */
export function writeState(storage: Storage | null, key: string, state: LiveState): void {
  if (storage === null) return;
  try {
    if (state.startedAt === null && state.actions.length === 0) {
      storage.removeItem(key);
      return;
    }
    storage.setItem(key, JSON.stringify({ ...state, savedAt: Date.now() }));
    pruneRuns(storage, key);
  } catch {
    // Only the next visit loses it.
  }
}

function parseState(value: unknown): LiveState | null {
  if (typeof value !== 'object' || value === null) return null;
  const { startedAt, actions } = value as Record<string, unknown>;
  if (startedAt !== null && !(typeof startedAt === 'number' && Number.isFinite(startedAt))) return null;
  if (!Array.isArray(actions) || actions.length > MAX_ACTIONS) return null;
  const parsed: LiveAction[] = [];
  for (const action of actions as unknown[]) {
    if (typeof action !== 'object' || action === null) return null;
    const { kind, id, minutes, at } = action as Record<string, unknown>;
    if (typeof id !== 'string') return null;
    if (kind === 'extend' && typeof minutes === 'number' && Number.isFinite(minutes) && Math.abs(minutes) <= 1440) parsed.push({ kind, id, minutes });
    else if (kind === 'done' && typeof at === 'number' && Number.isFinite(at)) parsed.push({ kind, id, at });
    else return null;
  }
  return { startedAt, actions: parsed };
}

/** Keeps the most recently saved runs, the one just saved first whatever the clock says. */
function pruneRuns(storage: Storage, saved: string): void {
  const runs: { key: string; savedAt: number }[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key === null || !key.startsWith(PREFIX)) continue;
    let savedAt = 0;
    try {
      const value = JSON.parse(storage.getItem(key) ?? '') as { savedAt?: unknown };
      if (typeof value.savedAt === 'number') savedAt = value.savedAt;
    } catch {
      // An unreadable run is the oldest.
    }
    runs.push({ key, savedAt: key === saved ? Infinity : savedAt });
  }
  if (runs.length <= KEPT_RUNS) return;
  runs.sort((a, b) => b.savedAt - a.savedAt);
  for (const run of runs.slice(KEPT_RUNS)) storage.removeItem(run.key);
}
