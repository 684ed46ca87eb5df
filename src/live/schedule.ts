// The running day: the plan's items placed on the clock from the moment it runs, moved by what the facilitator did
// (+5 min, Done), with fixed start times held. Pure and DOM-free; minutes count from midnight of the day it runs.
import type { PlanGroup, PlanItem } from '../plan-view/plan.js';
import { laneCount, laneOf } from '../plan-view/lanes.js';
import { placeSequence, plannedDuration, startAfter, type Slot } from '../plan-view/schedule.js';

/** What the facilitator did to the item running then: longer by some minutes, or ended at a minute. */
export type LiveAction =
  | { readonly kind: 'extend'; readonly id: string; readonly minutes: number }
  | { readonly kind: 'done'; readonly id: string; readonly at: number };

/**
 * One thing that runs in the room: a top-level block or breakout, a group's block or breakout (with its group), or a
 * group without items. Times are after the actions; the planned ones are the plan's own from the same start.
 */
export interface LiveEntry {
  readonly item: PlanItem;
  readonly group: PlanGroup | null;
  readonly start: number;
  readonly end: number;
  readonly plannedStart: number;
  readonly plannedEnd: number;
  /** Minutes this entry starts before the previous one ends (a fixed start time it was moved onto); 0 when none. */
  readonly overlap: number;
  readonly pinned: boolean;
}

export interface LiveSchedule {
  readonly entries: readonly LiveEntry[];
  /** When the last entry ends, after the actions, and as planned. */
  readonly end: number;
  readonly plannedEnd: number;
}

/** Where the day is at a moment: the entry running (if any), the one after it, and how late the day runs. */
export interface LiveMoment {
  readonly current: LiveEntry | null;
  readonly next: LiveEntry | null;
  /** Index in entries of the current entry, or of the next one when nothing runs (entries.length after the end). */
  readonly index: number;
  /** Minutes behind the plan (negative: ahead): the current entry's end, else the next one's start, else the day's end. */
  readonly behind: number;
}

/** A lane of a running breakout: its block running now and the one after it. */
export interface LaneMoment {
  readonly current: Slot<PlanItem> | null;
  readonly next: Slot<PlanItem> | null;
}

interface Adjustment {
  extend: number;
  doneAt: number | null;
}

/** Places the plan's items from `origin` with the actions applied, and as planned. */
export function liveSchedule(items: readonly PlanItem[], origin: number, actions: readonly LiveAction[]): LiveSchedule {
  const adjustments = new Map<string, Adjustment>();
  for (const action of actions) {
    const adjustment = adjustments.get(action.id) ?? { extend: 0, doneAt: null };
    if (action.kind === 'extend') adjustment.extend += action.minutes;
    else adjustment.doneAt = action.at;
    adjustments.set(action.id, adjustment);
  }
  const planned = place(items, origin, new Map());
  const running = place(items, origin, adjustments);
  const entries = running.map((entry, index) => ({ ...entry, plannedStart: planned[index]!.start, plannedEnd: planned[index]!.end }));
  const last = entries[entries.length - 1];
  return { entries, end: last?.end ?? origin, plannedEnd: last?.plannedEnd ?? origin };
}

type Placed = Omit<LiveEntry, 'plannedStart' | 'plannedEnd'>;

/** An entry's length after its actions: Done ends it at that minute (never before it starts), +5 adds to it. */
function lengthOf(id: string, duration: number, start: number, adjustments: ReadonlyMap<string, Adjustment>): number {
  const adjustment = adjustments.get(id);
  if (adjustment === undefined) return duration;
  if (adjustment.doneAt !== null) return Math.max(0, adjustment.doneAt - start);
  return duration + adjustment.extend;
}

/**
 * The top level one after another as the viewer places it (fixed start times on the day's clock), each item as long
 * as it runs: a group as long as planned plus what its items ran over or under.
 */
function place(items: readonly PlanItem[], origin: number, adjustments: ReadonlyMap<string, Adjustment>): Placed[] {
  const entries: Placed[] = [];
  let cursor = origin;
  for (const item of items) {
    const { start, pinned } = startAfter(item, cursor, false);
    if (item.type === 'group' && item.children.length > 0) {
      // The group's items from its start; the first one's overlap is with whatever came before the group.
      let before = cursor;
      let inner = start;
      let moved = 0;
      for (const child of item.children) {
        const placed = startAfter(child, inner, false);
        const planned = plannedDuration(child);
        const length = lengthOf(child.id, planned, placed.start, adjustments);
        moved += length - planned;
        entries.push({ item: child, group: item, start: placed.start, end: placed.start + length, overlap: Math.max(0, before - placed.start), pinned: placed.pinned });
        inner = placed.start + length;
        before = inner;
      }
      cursor = Math.max(start + plannedDuration(item) + moved, start);
      continue;
    }
    const length = lengthOf(item.id, plannedDuration(item), start, adjustments);
    entries.push({ item, group: null, start, end: start + length, overlap: Math.max(0, cursor - start), pinned });
    cursor = start + length;
  }
  return entries;
}

/** The entry running at `now` (start ≤ now < end), the next to start, and how late the day runs. */
export function liveMoment(schedule: LiveSchedule, now: number): LiveMoment {
  const { entries } = schedule;
  let index = entries.findIndex((entry) => entry.start <= now && now < entry.end);
  const current = index === -1 ? null : entries[index]!;
  if (index === -1) {
    index = entries.findIndex((entry) => entry.start > now);
    if (index === -1) index = entries.length;
  }
  const next = entries[current === null ? index : index + 1] ?? null;
  const behind = current !== null ? current.end - current.plannedEnd : next !== null ? next.start - next.plannedStart : schedule.end - schedule.plannedEnd;
  return { current, next, index, behind };
}

/**
 * The lanes of a breakout running from `start`: each lane's blocks one after another (the same programme in every
 * lane when the breakout says so), cut at the breakout's end, with the block running at `now`.
 */
export function laneMoments(entry: LiveEntry, now: number): LaneMoment[] {
  const { item } = entry;
  if (item.type !== 'breakout') return [];
  const lanes = laneCount(item);
  const moments: LaneMoment[] = [];
  for (let lane = 0; lane < lanes; lane += 1) {
    // A child of a lane the breakout does not declare (an older document) runs in its last lane: the room has no other.
    const children = item.sameInAllBreakouts ? item.children : item.children.filter((child) => Math.min(laneOf(child), lanes - 1) === lane);
    const slots = placeSequence(children, entry.start, false).filter((slot) => slot.start < entry.end);
    const current = slots.find((slot) => slot.start <= now && now < Math.min(slot.end, entry.end)) ?? null;
    const next = slots.find((slot) => slot.start > now) ?? null;
    moments.push({ current, next });
  }
  return moments;
}
