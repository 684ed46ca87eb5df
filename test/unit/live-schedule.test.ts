// The live view's arithmetic: the day placed from its start, +5 min and Done moving later items, fixed start times
// held (and the overlaps they make), groups, breakouts and their lanes, a day past midnight, an empty plan.
import { describe, expect, it } from 'vitest';
import { laneMoments, liveMoment, liveSchedule, type LiveAction } from '../../src/live/schedule.js';
import type { PlanItem } from '../../src/plan-view/plan.js';

const block = (id: string, duration: number, extra: Partial<Record<string, unknown>> = {}): PlanItem => ({
  type: 'block', id, title: id, duration, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0, ...extra,
} as PlanItem);
const group = (id: string, duration: number, children: PlanItem[], extra: Partial<Record<string, unknown>> = {}): PlanItem => ({
  type: 'group', id, title: id, duration, description: '', notes: '', fixedStartTime: null, children, ...extra,
} as PlanItem);
const breakout = (id: string, duration: number, lanes: number, children: PlanItem[], same = false): PlanItem => ({
  type: 'breakout', id, title: id, duration, description: '', notes: '', fixedStartTime: null, lanes, sameInAllBreakouts: same, lanePersons: {}, children,
} as PlanItem);

/** "id start–end" per entry, in minutes from midnight. */
const times = (items: PlanItem[], origin: number, actions: LiveAction[] = []) =>
  liveSchedule(items, origin, actions).entries.map((entry) => `${entry.item.id} ${entry.start}–${entry.end}${entry.overlap > 0 ? ` overlap ${entry.overlap}` : ''}`);

const NINE = 540;

describe('live schedule', () => {
  it('places top-level items one after another from the start, as planned without actions', () => {
    expect(times([block('a', 20), block('b', 30)], NINE)).toEqual(['a 540–560', 'b 560–590']);
    const schedule = liveSchedule([block('a', 20), block('b', 30)], NINE, []);
    expect([schedule.end, schedule.plannedEnd]).toEqual([590, 590]);
  });

  it('+5 min lengthens the item and moves every later one; Done ends it at that minute; the last action is undone by leaving it out', () => {
    const items = [block('a', 20), block('b', 30), block('c', 10)];
    const extended: LiveAction[] = [{ kind: 'extend', id: 'a', minutes: 5 }];
    expect(times(items, NINE, extended)).toEqual(['a 540–565', 'b 565–595', 'c 595–605']);
    expect(times(items, NINE, [...extended, { kind: 'extend', id: 'a', minutes: 5 }])).toEqual(['a 540–570', 'b 570–600', 'c 600–610']);
    // Done after +5: Done wins, the item ends when it was pressed.
    expect(times(items, NINE, [...extended, { kind: 'done', id: 'a', at: 552 }])).toEqual(['a 540–552', 'b 552–582', 'c 582–592']);
    // Done at the very start leaves nothing of the item, never a negative length.
    expect(times(items, NINE, [{ kind: 'done', id: 'b', at: 500 }])).toEqual(['a 540–560', 'b 560–560', 'c 560–570']);
    const schedule = liveSchedule(items, NINE, extended);
    expect([schedule.end, schedule.plannedEnd]).toEqual([605, 600]);
  });

  it('holds fixed start times: a late day overlaps them (said as minutes), an early one leaves a gap', () => {
    const items = [block('a', 60), block('lunch', 60, { fixedStartTime: '10:00' }), block('after', 30)];
    expect(times(items, NINE)).toEqual(['a 540–600', 'lunch 600–660', 'after 660–690']);
    expect(times(items, NINE, [{ kind: 'extend', id: 'a', minutes: 15 }])).toEqual(['a 540–615', 'lunch 600–660 overlap 15', 'after 660–690']);
    expect(times(items, NINE, [{ kind: 'done', id: 'a', at: 580 }])).toEqual(['a 540–580', 'lunch 600–660', 'after 660–690']);
    const late = liveSchedule(items, NINE, [{ kind: 'extend', id: 'a', minutes: 15 }]);
    expect(late.end).toBe(late.plannedEnd);
  });

  it('runs a group item by item under the group, and the group ends as planned plus what its items ran over or under', () => {
    const items = [group('g', 60, [block('g1', 20), block('g2', 20)]), block('after', 10)];
    expect(times(items, NINE)).toEqual(['g1 540–560', 'g2 560–580', 'after 600–610']);
    const entries = liveSchedule(items, NINE, []).entries;
    expect(entries.map((entry) => entry.group?.id ?? null)).toEqual(['g', 'g', null]);
    expect(times(items, NINE, [{ kind: 'extend', id: 'g1', minutes: 5 }])).toEqual(['g1 540–565', 'g2 565–585', 'after 605–615']);
    expect(times(items, NINE, [{ kind: 'done', id: 'g2', at: 570 }])).toEqual(['g1 540–560', 'g2 560–570', 'after 590–600']);
    // A group without items runs as one entry.
    expect(times([group('empty', 15, []), block('b', 5)], NINE)).toEqual(['empty 540–555', 'b 555–560']);
  });

  it('runs a breakout as one entry whose lanes each show their own block, the same programme in every lane when it says so', () => {
    const items = [breakout('x', 45, 2, [block('x1', 20, { laneIndex: 0 }), block('x2', 25, { laneIndex: 0 }), block('y1', 45, { laneIndex: 1 })])];
    const [entry] = liveSchedule(items, NINE, []).entries;
    const at = (now: number) => laneMoments(entry!, now).map((lane) => `${lane.current?.item.id ?? '-'}/${lane.next?.item.id ?? '-'}`);
    expect(at(545)).toEqual(['x1/x2', 'y1/-']);
    expect(at(565)).toEqual(['x2/-', 'y1/-']);
    const same = liveSchedule([breakout('s', 30, 3, [block('s1', 10), block('s2', 20)], true)], NINE, []).entries[0]!;
    expect(laneMoments(same, 555).map((lane) => lane.current?.item.id)).toEqual(['s2', 's2', 's2']);
    // Done on the breakout cuts every lane at that minute.
    const cut = liveSchedule(items, NINE, [{ kind: 'done', id: 'x', at: 550 }]).entries[0]!;
    expect(cut.end).toBe(550);
    expect(laneMoments(cut, 549).map((lane) => lane.next?.item.id ?? '-')).toEqual(['-', '-']);
    // A lane index outside the lanes runs in the last lane.
    const stray = liveSchedule([breakout('z', 10, 2, [block('z9', 10, { laneIndex: 9 })])], NINE, []).entries[0]!;
    expect(laneMoments(stray, 545).map((lane) => lane.current?.item.id ?? '-')).toEqual(['-', 'z9']);
  });

  it('finds what runs now, what comes next, and how far behind the day is', () => {
    const items = [block('a', 20), block('b', 30, { fixedStartTime: '09:30' }), block('c', 10)];
    const schedule = liveSchedule(items, NINE, []);
    expect(liveMoment(schedule, 530)).toMatchObject({ current: null, next: { item: { id: 'a' } }, index: 0, behind: 0 });
    expect(liveMoment(schedule, 545)).toMatchObject({ current: { item: { id: 'a' } }, next: { item: { id: 'b' } }, index: 0 });
    // Between a and the fixed b: nothing runs, b is next.
    expect(liveMoment(schedule, 565)).toMatchObject({ current: null, next: { item: { id: 'b' } }, index: 1 });
    expect(liveMoment(schedule, 700)).toMatchObject({ current: null, next: null, index: 3 });
    const late = liveSchedule(items, NINE, [{ kind: 'extend', id: 'a', minutes: 5 }]);
    expect(liveMoment(late, 545).behind).toBe(5);
    const early = liveSchedule([block('a', 20), block('b', 30)], NINE, [{ kind: 'done', id: 'a', at: 550 }]);
    expect(liveMoment(early, 551).behind).toBe(-10);
  });

  it('keeps counting past midnight, fixed times on the next day', () => {
    const items = [block('late', 90), block('night', 30, { fixedStartTime: '00:30' }), block('end', 15)];
    expect(times(items, 23 * 60)).toEqual(['late 1380–1470', 'night 1470–1500', 'end 1500–1515']);
    expect(liveMoment(liveSchedule(items, 23 * 60, []), 1480).current?.item.id).toBe('night');
  });

  it('has nothing to run in an empty plan', () => {
    const schedule = liveSchedule([], NINE, [{ kind: 'extend', id: 'nobody', minutes: 5 }]);
    expect(schedule).toMatchObject({ entries: [], end: NINE, plannedEnd: NINE });
    expect(liveMoment(schedule, 600)).toMatchObject({ current: null, next: null, index: 0, behind: 0 });
  });
});
