// The workshop's calendar day: what a calendar export needs from a plan, and what is missing when it cannot be made.
import type { Plan } from './plan.js';
import { parseClockTime } from './schedule.js';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day. */
export interface CalendarDay {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** The day of a "YYYY-MM-DD" date, or null when absent or not a real date (tolerant documents may hold anything). */
export function calendarDay(date: string | null | undefined): CalendarDay | null {
  const match = typeof date === 'string' ? ISO_DATE.exec(date) : null;
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? { year, month, day } : null;
}

/** Why a plan cannot go into a calendar: it has no (real) date, or no start time to place its items; null when it can. */
export function calendarBlocker(plan: Plan): 'date' | 'startTime' | null {
  if (calendarDay(plan.workshop.date) === null) return 'date';
  if (parseClockTime(plan.workshop.startTime) === null) return 'startTime';
  return null;
}

/** The wall-clock moment `minutes` after midnight of `day` (past 24:00 runs into the next days), as UTC fields. */
export function momentOf(day: CalendarDay, minutes: number): Date {
  return new Date(Date.UTC(day.year, day.month - 1, day.day, 0, Math.round(minutes)));
}
