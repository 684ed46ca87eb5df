// Live times for the editor: each item's start and end as the viewer places them (plan-view/schedule.ts), and the plan's total.
import { placeSequence, workshopClock, type Clock } from '../../plan-view/schedule.js';
import { isContainer, type Draft, type Item } from '../tree.js';

export interface ItemTimes {
  /** Start and end minutes by item (keyed by the item object: IDs may repeat in older documents). */
  readonly slots: ReadonlyMap<Item, { readonly start: number; readonly end: number }>;
  readonly clock: Clock;
  /** Where the last top-level item ends, and the minutes from the start to there. */
  readonly end: number;
  readonly total: number;
}

/** Places every item: containers' children from the container's start, each breakout lane on its own, as the view does. */
export function computeTimes(draft: Draft): ItemTimes {
  const clock = workshopClock(draft.workshop.startTime);
  const slots = new Map<Item, { start: number; end: number }>();
  const place = (items: readonly Item[], origin: number): number => {
    let end = origin;
    for (const slot of placeSequence(items, origin, clock.relative)) {
      slots.set(slot.item, { start: slot.start, end: slot.end });
      end = slot.end;
      const item = slot.item;
      if (!isContainer(item)) continue;
      const children = item.children as readonly Item[];
      if (item.type === 'breakout' && !item.sameInAllBreakouts) {
        const lanes = new Map<number, Item[]>();
        for (const child of children) {
          const lane = child.type === 'block' && Number.isInteger(child.laneIndex) ? child.laneIndex : 0;
          lanes.set(lane, [...(lanes.get(lane) ?? []), child]);
        }
        for (const lane of lanes.values()) place(lane, slot.start);
      } else place(children, slot.start);
    }
    return end;
  };
  const end = place(draft.items, clock.origin);
  return { slots, clock, end, total: end - clock.origin };
}
