// How a breakout's children divide into its lanes: one rule for the page, the exports and every view that reuses them.
import type { Strings } from './i18n/strings.js';
import type { PlanBreakout, PlanItem } from './plan.js';

/** The canonical maximum; a tolerant document with more lanes is shown with this many. */
export const MAX_LANES = 10;

/** One column of a breakout: a numbered lane, the programme run in all lanes, or children outside the declared lanes. */
export interface BreakoutLane {
  /** `"0"`…`"9"`, `"all"` or `"stray"` (the page's `data-lane`). */
  key: string;
  kind: 'lane' | 'all' | 'stray';
  /** 1-based lane number for `lane`, else 0. */
  number: number;
  /** People of this lane (from `lanePersons`); empty for `all` and `stray`. */
  personIds: readonly string[];
  /** The items run in this lane, in document order. */
  children: PlanItem[];
  /**
   * False for the numbered lanes of a same-in-all breakout: they show only their people, the shared programme is the
   * `all` lane after them.
   */
  hasProgramme: boolean;
}

/** Lanes shown for a breakout (1 to MAX_LANES; an invalid count reads as 1). */
export function laneCount(breakout: PlanBreakout): number {
  return Number.isInteger(breakout.lanes) ? Math.min(Math.max(breakout.lanes, 1), MAX_LANES) : 1;
}

/** The lane an item sits in; only blocks carry a laneIndex (older documents may nest other items). */
export function laneOf(item: PlanItem): number {
  return item.type === 'block' && Number.isInteger(item.laneIndex) && item.laneIndex >= 0 ? item.laneIndex : 0;
}

/**
 * The lanes in display order. Same programme in all: the numbered lanes (people only), then one `all` lane holding
 * every child. Otherwise each numbered lane holds its children, and children of lanes the breakout does not declare
 * (older documents) follow in a `stray` lane rather than being hidden.
 */
export function breakoutLanes(breakout: PlanBreakout): BreakoutLane[] {
  const count = laneCount(breakout);
  const same = breakout.sameInAllBreakouts;
  const lanes: BreakoutLane[] = [];
  for (let lane = 0; lane < count; lane += 1) {
    const key = String(lane);
    lanes.push({
      key,
      kind: 'lane',
      number: lane + 1,
      personIds: breakout.lanePersons[key] ?? [],
      children: same ? [] : breakout.children.filter((child) => laneOf(child) === lane),
      hasProgramme: !same,
    });
  }
  if (same) {
    lanes.push({ key: 'all', kind: 'all', number: 0, personIds: [], children: breakout.children, hasProgramme: true });
  } else {
    const stray = breakout.children.filter((child) => laneOf(child) >= count);
    if (stray.length > 0) lanes.push({ key: 'stray', kind: 'stray', number: 0, personIds: [], children: stray, hasProgramme: true });
  }
  return lanes;
}

/** "Breakout 2", "Same programme in all 3 breakouts" or "Outside the declared breakouts" (`count`: laneCount of its breakout). */
export function laneTitle(lane: BreakoutLane, count: number, strings: Strings): string {
  return lane.kind === 'lane' ? strings.lane(lane.number) : lane.kind === 'all' ? strings.sameInAllLanes(count) : strings.outsideLanes;
}
