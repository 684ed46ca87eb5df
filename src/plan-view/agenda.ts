// A plan's whole schedule as one flat list (every item and breakout lane with its start and end), for exports and views
// that need times without the page's DOM. It places items exactly as the page does (schedule.ts, lanes.ts).
import { breakoutLanes, type BreakoutLane } from './lanes.js';
import type { Plan, PlanBreakout, PlanGroup, PlanItem } from './plan.js';
import { placeSequence, workshopClock, type Clock } from './schedule.js';

/** An item at its computed time. */
export interface AgendaItemEntry {
  kind: 'item';
  item: PlanItem;
  /** Minutes from midnight of the workshop day (past midnight keeps counting), or from the start when relative. */
  start: number;
  end: number;
  pinned: boolean;
  /** 0 for the top level, +1 inside each group, breakout and lane. */
  depth: number;
  /** The groups and breakouts around the item, outermost first. */
  containers: readonly (PlanGroup | PlanBreakout)[];
  /** The breakout lane the item runs in (its breakout is the last container), or null outside breakouts. */
  lane: BreakoutLane | null;
}

/** A lane of a breakout: it spans the breakout's time. */
export interface AgendaLaneEntry {
  kind: 'lane';
  lane: BreakoutLane;
  breakout: PlanBreakout;
  start: number;
  end: number;
  depth: number;
}

export type AgendaEntry = AgendaItemEntry | AgendaLaneEntry;

export interface PlanSchedule {
  clock: Clock;
  /** Every item and lane in reading order: a container, then its children (a breakout: each lane, then its items). */
  entries: AgendaEntry[];
  /** When the last top-level item ends (the origin for an empty plan). */
  end: number;
}

/** The schedule of a whole plan, placed from the workshop's start time (relative offsets without one). */
export function planSchedule(plan: Plan): PlanSchedule {
  const clock = workshopClock(plan.workshop.startTime);
  const entries: AgendaEntry[] = [];
  const top = placeSequence(plan.items, clock.origin, clock.relative);

  const visit = (items: readonly PlanItem[], origin: number, depth: number, containers: readonly (PlanGroup | PlanBreakout)[], lane: BreakoutLane | null, slots = placeSequence(items, origin, clock.relative)): void => {
    for (const slot of slots) {
      const item = slot.item;
      entries.push({ kind: 'item', item, start: slot.start, end: slot.end, pinned: slot.pinned, depth, containers, lane });
      if (item.type === 'group') visit(item.children, slot.start, depth + 1, [...containers, item], null);
      else if (item.type === 'breakout') {
        const inside = [...containers, item];
        for (const breakoutLane of breakoutLanes(item)) {
          entries.push({ kind: 'lane', lane: breakoutLane, breakout: item, start: slot.start, end: slot.end, depth: depth + 1 });
          if (breakoutLane.hasProgramme) visit(breakoutLane.children, slot.start, depth + 2, inside, breakoutLane);
        }
      }
    }
  };
  visit(plan.items, clock.origin, 0, [], null, top);
  return { clock, entries, end: top.length > 0 ? top[top.length - 1]!.end : clock.origin };
}
