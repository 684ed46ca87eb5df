// The viewer's clock (src/plan-view/schedule.ts), a plan's length (plan-length.ts) and HTML escaping, as plain functions: no browser needed for the arithmetic.
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/plan-view/html.js';
import { createViewerLocale } from '../../src/plan-view/i18n/locale.js';
import type { Plan } from '../../src/plan-view/plan.js';
import { plannedMinutes, planLengthParts } from '../../src/plan-view/plan-length.js';
import { formatMinutes, formatRange, overrunMinutes, parseClockTime, placeSequence, workshopClock } from '../../src/plan-view/schedule.js';

const item = (duration: number, fixedStartTime: string | null = null) => ({ duration, fixedStartTime });

describe('viewer clock', () => {
  it('reads only real clock times', () => {
    expect(parseClockTime('09:05')).toBe(545);
    expect(parseClockTime('23:59')).toBe(1439);
    for (const bad of ['24:00', '9:05', '12:60', '', null, undefined, '12:00 ']) expect(parseClockTime(bad)).toBeNull();
  });

  it('adds durations from the workshop start, a pinned item leaves a gap, an early pin is an overlap', () => {
    const slots = placeSequence([item(30), item(15), item(60, '11:00'), item(45, '11:30')], 540, false);
    expect(slots.map((slot) => [slot.start, slot.end, slot.gapBefore, slot.pinned])).toEqual([
      [540, 570, 0, false],
      [570, 585, 0, false],
      [660, 720, 75, true],
      [690, 735, -30, true],
    ]);
  });

  it('keeps counting past midnight and pins on the current day', () => {
    const slots = placeSequence([item(120), item(30, '00:30')], 23 * 60, false);
    expect(slots.map((slot) => formatMinutes(slot.start, false))).toEqual(['23:00', '00:30 (+1d)']);
    expect(slots[1]!.gapBefore).toBe(-30);
  });

  it('without a workshop start time counts offsets and ignores pins it cannot place', () => {
    expect(workshopClock(null)).toEqual({ origin: 0, relative: true });
    const slots = placeSequence([item(20), item(10, '14:00'), item(90)], 0, true);
    expect(slots.map((slot) => formatMinutes(slot.start, true))).toEqual(['+0:00', '+0:20', '+0:30']);
    expect(formatMinutes(135, true)).toBe('+2:15');
  });

  it('treats a negative or non-finite duration (older documents) as zero', () => {
    const slots = placeSequence([item(-5), item(Number.NaN), item(10)], 600, false);
    expect(slots.map((slot) => slot.end)).toEqual([600, 600, 610]);
  });

  it('writes a slot as one range with an en dash, on the clock or as offsets', () => {
    expect(formatRange(540, 560, false)).toBe('09:00–09:20');
    expect(formatRange(1410, 1470, false)).toBe('23:30–00:30 (+1d)');
    expect(formatRange(0, 90, true)).toBe('+0:00–+1:30');
  });

  it('escapes every character that could open markup or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});

describe("a plan's length, named two ways", () => {
  const plan = (items: Array<{ duration: number; fixedStartTime: string | null }>) => ({ items }) as unknown as Plan;
  const lengthOf = (items: Array<{ duration: number; fixedStartTime: string | null }>, start: string | null, language: 'en' | 'de') => {
    const clock = workshopClock(start);
    const slots = placeSequence(items, clock.origin, clock.relative);
    const end = slots.length > 0 ? slots[slots.length - 1]!.end : clock.origin;
    return planLengthParts(plan(items), clock.origin, end, clock.relative, createViewerLocale(language));
  };

  it('says the planned sum (what the API reports) and the span on the clock apart, with the gaps that lengthen it', () => {
    const items = [item(180), item(215, '12:15')];
    expect(plannedMinutes(plan(items))).toBe(395);
    expect(lengthOf(items, '09:00', 'de')).toEqual({ planned: 'Dauer 6 Std. 35 Min.', span: '09:00–15:50 (mit Lücken)' });
    expect(lengthOf(items, '09:00', 'en')).toEqual({ planned: 'Duration 6 hrs 35 mins', span: '09:00–15:50 (with gaps)' });
  });

  it('names overlaps that shorten the span, and says nothing more when the two agree', () => {
    expect(lengthOf([item(60), item(60, '09:30')], '09:00', 'en').span).toBe('09:00–10:30 (with overlaps)');
    expect(lengthOf([item(60), item(30)], '09:00', 'de')).toEqual({ planned: 'Dauer 1 Std. 30 Min.', span: '09:00–10:30' });
  });

  it('without a start time counts from the start, and an empty plan has no span', () => {
    expect(lengthOf([item(20), item(10)], null, 'en')).toEqual({ start: 'No start time set: times count from the start', planned: 'Duration 30 mins', span: '+0:00–+0:30' });
    expect(lengthOf([], '09:00', 'en')).toEqual({ planned: 'Duration 0 mins' });
  });
});

describe("a group's overrun", () => {
  it('places the children from the group\'s start, so a fixed start time inside counts from the day, not from midnight', () => {
    // A 60-minute group at 09:00 holding 15 minutes, a block fixed at 09:15 of 25, then 30: they end at 10:10.
    const children = [item(15), item(25, '09:15'), item(30)];
    expect(overrunMinutes(children, 540, 60, false)).toBe(10);
    expect(overrunMinutes(children, 540, 70, false)).toBe(0);
    expect(overrunMinutes([item(30), item(45)], 600, 60, false)).toBe(15);
    // Without a start time fixed times cannot be placed: nothing is said.
    expect(overrunMinutes([item(30), item(45)], 0, 60, true)).toBe(0);
  });
});
