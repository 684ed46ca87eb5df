// Viewer clock: computes start/end minutes for a sequence of items (start + durations, fixedStartTime pins items and leaves gaps).
// Pure and locale-free: shared by the page, its exports and the MCP App view.

const MINUTES_PER_DAY = 1440;
const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Anything that occupies time in a plan: the fields the clock reads. */
export interface Timed {
  duration: number;
  fixedStartTime?: string | null;
}

/** One item placed on the clock. Minutes count from midnight of the workshop day (or from the start when `relative`). */
export interface Slot<T extends Timed> {
  item: T;
  start: number;
  end: number;
  /** Minutes between the previous item's end and this start: > 0 a gap, < 0 an overlap. */
  gapBefore: number;
  /** True when the item was pinned by its own fixedStartTime. */
  pinned: boolean;
}

/** How times are shown: against a real clock, or as offsets when the workshop has no start time. */
export interface Clock {
  origin: number;
  relative: boolean;
}

/** Reads "HH:MM" as minutes since midnight, or null when absent or not a real time. */
export function parseClockTime(value: string | null | undefined): number | null {
  if (typeof value !== 'string') return null;
  const match = CLOCK_TIME.exec(value);
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The clock of a workshop: its start time, or offsets from zero when it has none. */
export function workshopClock(startTime: string | null | undefined): Clock {
  const start = parseClockTime(startTime);
  return start === null ? { origin: 0, relative: true } : { origin: start, relative: false };
}

/**
 * Places items one after another from `origin`. A pinned item starts at its fixedStartTime on the current day
 * (in relative mode pins cannot be related to a clock, so items simply follow each other).
 */
export function placeSequence<T extends Timed>(items: readonly T[], origin: number, relative: boolean): Slot<T>[] {
  const slots: Slot<T>[] = [];
  let cursor = origin;
  for (const item of items) {
    const { start, pinned } = startAfter(item, cursor, relative);
    const duration = plannedDuration(item);
    slots.push({ item, start, end: start + duration, gapBefore: start - cursor, pinned });
    cursor = start + duration;
  }
  return slots;
}

/** Where an item starts when the one before it ends at `cursor`: then, or at its fixed start time on that day. */
export function startAfter(item: Timed, cursor: number, relative: boolean): { start: number; pinned: boolean } {
  const pin = relative ? null : parseClockTime(item.fixedStartTime);
  return pin === null ? { start: cursor, pinned: false } : { start: pinOnDayOf(cursor, pin), pinned: true };
}

/** An item's planned minutes; a tolerant document's negative or non-numeric duration counts as none. */
export function plannedDuration(item: Timed): number {
  return Number.isFinite(item.duration) && item.duration > 0 ? item.duration : 0;
}

/** A fixed clock time on the same day as `cursor` (plans that run past midnight keep counting upwards). */
function pinOnDayOf(cursor: number, pin: number): number {
  const day = Math.floor(cursor / MINUTES_PER_DAY);
  return day * MINUTES_PER_DAY + pin;
}

/**
 * How many minutes a group's children, placed from the group's `start` as the timeline places them (fixed start times
 * included), run past the group's own duration (0 when they fit). Without a start time fixed start times cannot be
 * placed, so nothing is said then. The view and the editor both say it from this.
 */
export function overrunMinutes(children: readonly Timed[], start: number, duration: number, relative: boolean): number {
  if (relative) return 0;
  let childEnd = start;
  for (const slot of placeSequence(children, start, false)) if (slot.end > childEnd) childEnd = slot.end;
  return childEnd - start > duration ? childEnd - start - duration : 0;
}

/** "09:05", or "+1:30" style offsets in relative mode; a "+1d" suffix past midnight. */
export function formatMinutes(minutes: number, relative: boolean): string {
  const whole = Math.round(minutes);
  if (relative) {
    const hours = Math.floor(whole / 60);
    return `+${hours}:${pad(whole % 60)}`;
  }
  const day = Math.floor(whole / MINUTES_PER_DAY);
  const ofDay = whole - day * MINUTES_PER_DAY;
  const text = `${pad(Math.floor(ofDay / 60))}:${pad(ofDay % 60)}`;
  return day > 0 ? `${text} (+${day}d)` : text;
}

/** "09:00–09:20" (en dash, no spaces): a slot's time range as the page, the agenda and the exports show it. */
export function formatRange(start: number, end: number, relative: boolean): string {
  return `${formatMinutes(start, relative)}–${formatMinutes(end, relative)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
