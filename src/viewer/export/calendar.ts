// The plan as an iCalendar file (RFC 5545): one VEVENT per block at its computed start and end, in floating local time
// on the workshop's day (a calendar shows 09:00 as 09:00 wherever it is opened). The calendar is built as jCal (RFC 7265,
// iCalendar as JSON) and ical.js writes the RFC 5545 text: escaping, value formats, folding at 75 octets.
import ICAL from 'ical.js';
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

/** A jCal property: name, parameters, value type, value(s). */
type JCalProperty = [name: string, parameters: Readonly<Record<string, string>>, type: string, ...values: string[]];
/** A jCal component: name, properties, subcomponents. */
type JCalComponent = [name: string, properties: JCalProperty[], components: JCalComponent[]];

/**
 * ical.js folds a line after `foldLength` octets and puts the continuation's leading space in front of the next
 * `foldLength`: 74 keeps every line, space included, within RFC 5545's 75 octets (3.1).
 */
const FOLD_OCTETS = 74;

/** No property here has parameters; one shared object instead of one per property. */
const NO_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * ical.js's iCalendar design plus the calendar's name (RFC 7986 NAME, and X-WR-CALNAME, which calendars read) as TEXT:
 * a property the design does not know would be written unescaped.
 */
const DESIGN = {
  ...ICAL.design.icalendar,
  property: { ...ICAL.design.icalendar.property, name: { defaultType: 'text' }, 'x-wr-calname': { defaultType: 'text' } },
};

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

/** jCal's DATE-TIME, "2027-01-20T09:00:00": floating, from a Date whose UTC fields hold the wall-clock time. */
function floatingDateTime(moment: Date): string {
  return moment.toISOString().slice(0, 19);
}

/** TEXT with each line break as "\n", the one ical.js escapes (a "\r" left in would reach the file raw). */
function text(value: string): string {
  return value.includes('\r') ? value.replace(/\r\n?/g, '\n') : value;
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
  // DTSTAMP: when this file was made, in UTC.
  const stamp = `${new Date().toISOString().slice(0, 19)}Z`;
  const events: JCalComponent[] = [];

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
    const people = peopleText(entry.lane === null ? block.personIds : [...entry.lane.personIds, ...block.personIds], names, strings);
    const description = [
      block.description,
      block.material ? `${strings.materialLabel}: ${block.material}` : '',
      people ? `${strings.peopleLabel}: ${people}` : '',
      options.notes && block.notes ? `${strings.notesLabel}: ${block.notes}` : '',
    ].filter((part) => part !== '').join('\n\n');
    const category = block.blockTypeId === null ? undefined : categories.get(block.blockTypeId);
    const properties: JCalProperty[] = [
      ['uid', NO_PARAMETERS, 'text', `${key}-${block.id}${seen > 1 ? `-${seen}` : ''}@sessionplan`],
      ['dtstamp', NO_PARAMETERS, 'date-time', stamp],
      ['dtstart', NO_PARAMETERS, 'date-time', floatingDateTime(momentOf(day, entry.start))],
      ['dtend', NO_PARAMETERS, 'date-time', floatingDateTime(momentOf(day, entry.end))],
      ['summary', NO_PARAMETERS, 'text', text(where ? `${block.title} (${where})` : block.title)],
    ];
    if (description) properties.push(['description', NO_PARAMETERS, 'text', text(description)]);
    if (category) properties.push(['categories', NO_PARAMETERS, 'text', text(category)]);
    events.push(['vevent', properties, []]);
  }

  const title = text(plan.workshop.title);
  const calendar: JCalComponent = ['vcalendar', [
    ['version', NO_PARAMETERS, 'text', '2.0'],
    ['prodid', NO_PARAMETERS, 'text', `-//Sessionplan//Viewer//${locale.language.toUpperCase()}`],
    ['name', NO_PARAMETERS, 'text', title],
    ['x-wr-calname', NO_PARAMETERS, 'text', title],
  ], events];
  ICAL.foldLength = FOLD_OCTETS;
  return `${ICAL.stringify.component(calendar, DESIGN)}\r\n`;
}
