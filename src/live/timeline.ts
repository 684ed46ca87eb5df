// Where a run stands at a moment: its day and origin, and the schedule with its actions replayed. The presenter and the
// projector both derive what they show from it, so the two windows cannot disagree.
import type { Plan } from '../plan-view/plan.js';
import { workshopClock } from '../plan-view/schedule.js';
import { runOf, type LiveRun } from './run.js';
import { liveSchedule, type LiveSchedule } from './schedule.js';
import type { LiveState } from './state.js';

export interface Timeline {
  /** The run, or null before "Start now" on a plan not dated today with a start time. */
  readonly run: LiveRun | null;
  readonly schedule: LiveSchedule;
  /** The plan's own times are offsets from its start (no start time, not started). */
  readonly relative: boolean;
}

export function timelineOf(plan: Plan, state: LiveState, now: Date): Timeline {
  const run = runOf(plan.workshop, state.startedAt, now);
  if (run !== null) return { run, schedule: liveSchedule(plan.items, run.origin, state.actions), relative: false };
  // Before "Start now": the plan's own times, as offsets when it has no start time.
  const workshop = workshopClock(plan.workshop.startTime);
  return { run: null, schedule: liveSchedule(plan.items, workshop.origin, []), relative: workshop.relative };
}
