// The plan as an iCalendar file (RFC 5545) by ical-generator: one VEVENT per block at its computed start and end, in
// floating local time on the workshop's day (a calendar shows 09:00 as 09:00 wherever it is opened).
import ical from 'ical-generator';
import { planSchedule } from '../agenda.js';
import type { ViewerLocale } from '../i18n/locale.js';
import { laneCount, laneTitle } from '../lanes.js';
import type { Plan, PlanBlock } from '../plan.js';
import { calendarBlocker, calendarDay, momentOf } from '../workshop-day.js';
import { peopleText, personNames } from './people.js';

export interface CalendarOptions {
  /** Put the facilitator's notes into the events (the page shows them). */
  notes: boolean;
}

/**
 * A UID part that stays the same for the same plan, so importing the file again updates its events instead of adding
 * them twice: FNV-1a of the workshop's title and date, as 8 hex digits.
 */
export function planKey(plan: Plan): string {
  const text = `${plan.workshop.title}\u0000${plan.workshop.date ?? ''}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The .ics text of a plan; throws when calendarBlocker says it has no date or start time (the toolbar checks first). */
export function calendarText(plan: Plan, locale: ViewerLocale, options: CalendarOptions): string {
  const blocker = calendarBlocker(plan);
  const day = calendarDay(plan.workshop.date);
  if (blocker !== null || day === null) throw new Error(`the plan has no ${blocker === 'startTime' ? 'start time' : 'date'} for a calendar`);
  const { strings } = locale;
  const names = personNames(plan);
  const categories = new Map(plan.blockTypes.map((type) => [type.id, type.name]));
  const key = planKey(plan);
  const usedIds = new Map<string, number>();
  const calendar = ical({
    name: plan.workshop.title,
    prodId: { company: 'Sessionplan', product: 'Viewer', language: locale.language.toUpperCase() },
  });

  for (const entry of planSchedule(plan).entries) {
    if (entry.kind !== 'item' || entry.item.type !== 'block') continue;
    const block: PlanBlock = entry.item;
    // Tolerant documents may repeat an id; the second gets "-2", so every UID stays unique and stable.
    const seen = (usedIds.get(block.id) ?? 0) + 1;
    usedIds.set(block.id, seen);
    const parent = entry.containers[entry.containers.length - 1];
    const where = entry.lane !== null && parent?.type === 'breakout'
      ? strings.calendarInLane(parent.title, laneTitle(entry.lane, laneCount(parent), strings))
      : parent !== undefined ? strings.calendarInGroup(parent.title) : '';
    const people = peopleText([...(entry.lane?.personIds ?? []), ...block.personIds], names, strings);
    const description = [
      block.description,
      block.material ? `${strings.materialLabel}: ${block.material}` : '',
      people ? `${strings.peopleLabel}: ${people}` : '',
      options.notes && block.notes ? `${strings.notesLabel}: ${block.notes}` : '',
    ].filter((part) => part !== '').join('\n\n');
    const category = block.blockTypeId === null ? undefined : categories.get(block.blockTypeId);
    calendar.createEvent({
      id: `${key}-${block.id}${seen > 1 ? `-${seen}` : ''}@sessionplan`,
      start: momentOf(day, entry.start),
      end: momentOf(day, entry.end),
      floating: true,
      summary: where ? `${block.title} (${where})` : block.title,
      description: description || null,
      categories: category ? [{ name: category }] : [],
    });
  }
  return calendar.toString();
}
