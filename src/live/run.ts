// When a live run's day starts and where its first item sits on that day's clock: the plan's own date and start time
// when that is today, or the minute "Start now" was pressed.
import { parseClockTime } from '../plan-view/schedule.js';

export interface LiveRun {
  /** Local midnight of the day the run counts its minutes from. */
  readonly day: Date;
  /** The first item's start, in minutes from that midnight. */
  readonly origin: number;
}

/** The run, or null when the plan has no date and start time for today and nobody pressed "Start now" yet. */
export function runOf(workshop: { date: string | null; startTime: string | null }, startedAt: number | null, now: Date): LiveRun | null {
  if (startedAt !== null) {
    const started = new Date(startedAt);
    return { day: midnightOf(started), origin: started.getHours() * 60 + started.getMinutes() };
  }
  const start = parseClockTime(workshop.startTime);
  if (start === null || workshop.date !== localDate(now)) return null;
  return { day: midnightOf(now), origin: start };
}

/** Minutes of `now` counted from the run's midnight, on the local clock (a day past midnight adds 1440). */
export function minutesOf(run: LiveRun, now: Date): number {
  const days = Math.round((midnightOf(now).getTime() - run.day.getTime()) / 86_400_000);
  return days * 1440 + now.getHours() * 60 + now.getMinutes() + now.getSeconds() / 60 + now.getMilliseconds() / 60_000;
}

/** "Start now": the current minute, whole, as the run's start. */
export function startNow(now: Date): number {
  const start = new Date(now);
  start.setSeconds(0, 0);
  return start.getTime();
}

/** "2027-01-20" for the local day of `date`, as a plan writes its date. */
export function localDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function midnightOf(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}
