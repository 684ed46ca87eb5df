// The plan as an iCalendar file (RFC 5545): one VEVENT per block, group and breakout at its computed start and end, in floating local time
// on the workshop's day (a calendar shows 09:00 as 09:00 wherever it is opened). The calendar is built as jCal (RFC 7265,
// iCalendar as JSON) and ical.js writes each content line: escaping, value formats, folding at 75 octets.
import ICAL from 'ical.js';
import { planSchedule } from '../../plan-view/agenda.js';
import type { ViewerLocale } from '../../plan-view/i18n/locale.js';
import { fnv1a } from '../../plan-view/hash.js';
import { breakoutLanes, laneCount, laneTitle } from '../../plan-view/lanes.js';
import type { Plan, PlanBlock } from '../../plan-view/plan.js';
import { calendarBlocker, calendarDay, momentOf, type CalendarDay } from '../../plan-view/workshop-day.js';
import { peopleText, personNames } from './people.js';

export interface CalendarOptions {
  /** Put the facilitator's notes into the events (the page shows them). */
  notes: boolean;
}

/** A jCal property: name, parameters, value type, value(s). */
export type JCalProperty = [name: string, parameters: Readonly<Record<string, string>>, type: string, ...values: string[]];
/** A jCal component: name, properties, subcomponents. */
export type JCalComponent = [name: string, properties: JCalProperty[], components: JCalComponent[]];

/** The calendar as jCal: its own properties, and its VEVENTs made one at a time as they are read. */
export interface CalendarJCal {
  properties: JCalProperty[];
  events: Iterable<JCalComponent>;
}

/**
 * ical.js folds a line after `foldLength` octets and puts the continuation's leading space in front of the next
 * `foldLength`: 74 keeps every line, space included, within RFC 5545's 75 octets (3.1).
 */
const FOLD_OCTETS = 74;

const MINUTES_PER_DAY = 1440;
/** iCalendar writes four-digit years: times are kept within 0000-01-01T00:00 and 9999-12-31T23:59. */
const FIRST_WRITABLE_MS = new Date(0).setUTCFullYear(0, 0, 1);
const LAST_WRITABLE_MS = Date.UTC(9999, 11, 31, 23, 59);

/** Only ASCII: one octet per UTF-16 unit. */
const ASCII = /^[\x00-\x7f]*$/;

/** No property here has parameters; one shared object instead of one per property. */
const NO_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * ical.js's iCalendar design plus the calendar's name (RFC 7986 NAME, and X-WR-CALNAME, which calendars read) as TEXT:
 * a property the design does not know would be written unescaped.
 */
export const CALENDAR_DESIGN = {
  ...ICAL.design.icalendar,
  property: { ...ICAL.design.icalendar.property, name: { defaultType: 'text' }, 'x-wr-calname': { defaultType: 'text' } },
};

/**
 * A UID part that stays the same for the same plan, so importing the file again updates its events instead of adding
 * them twice: a hash of the workshop's title and date.
 */
export function planKey(plan: Plan): string {
  return fnv1a(`${plan.workshop.title}\u0000${plan.workshop.date ?? ''}`);
}

/**
 * A block's UID: a hash of the plan's key and the block's id (64 bits, two FNV-1a), never the id's own text, which a
 * link may fill with line breaks and property names that a calendar would read as properties of their own.
 */
export function eventUid(key: string, id: string): string {
  const text = `${key}\u0000${id}`;
  return `${key}-${fnv1a(text)}${fnv1a(text, 0x01000193)}@sessionplan`;
}

/**
 * jCal's DATE-TIME, "2027-01-20T09:00:00", floating, for minutes after midnight of the workshop's day (past 24:00 runs
 * into the next days). The day part comes from Date once per day the plan touches; the time of day is arithmetic, so a
 * 400-block plan makes a handful of Dates instead of two per event.
 */
function floatingDateTimes(day: CalendarDay): (minutes: number) => string {
  const dayParts = new Map<number, string>();
  // The tolerant schema takes any duration (1e15 minutes, say): times past what a calendar can write are held at its ends.
  const midnight = momentOf(day, 0).getTime();
  const earliest = Math.ceil((FIRST_WRITABLE_MS - midnight) / 60_000);
  const latest = Math.floor((LAST_WRITABLE_MS - midnight) / 60_000);
  return (minutes) => {
    const whole = Number.isNaN(minutes) ? 0 : Math.min(latest, Math.max(earliest, Math.round(minutes)));
    const dayIndex = Math.floor(whole / MINUTES_PER_DAY);
    let dayPart = dayParts.get(dayIndex);
    if (dayPart === undefined) {
      // "2027-01-20T" (years 0000–9999 only: toISOString writes others as "+010000-…", which iCalendar has no form for).
      dayPart = momentOf(day, dayIndex * MINUTES_PER_DAY).toISOString().slice(0, 11);
      dayParts.set(dayIndex, dayPart);
    }
    const ofDay = whole - dayIndex * MINUTES_PER_DAY;
    const hours = Math.floor(ofDay / 60);
    const rest = ofDay - hours * 60;
    return `${dayPart}${hours < 10 ? '0' : ''}${hours}:${rest < 10 ? '0' : ''}${rest}:00`;
  };
}

/** Line breaks of any kind (CR LF, CR, NEL, LINE and PARAGRAPH SEPARATOR): the one ical.js escapes is "\n". */
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;
/** Other C0 and C1 controls and DEL, which a calendar may read as separators or refuse: each becomes a space. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const NEEDS_CLEANUP = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/** A TEXT value as ical.js may escape it: every line break as "\n", other controls as spaces, tabs kept. */
export function calendarTextValue(value: string): string {
  return NEEDS_CLEANUP.test(value) ? value.replace(LINE_BREAKS, '\n').replace(CONTROLS, ' ') : value;
}

/**
 * One content line as ical.js writes it (ICAL.stringify.property), folded by ical.js when it can be longer than
 * FOLD_OCTETS. ICAL.stringify.component would fold every line, and its fold walks each line code point by code point:
 * on the largest plan 2,100 of its 2,800 lines are short (UID, DTSTART, …) and cannot need it. A line of at most 24
 * UTF-16 units (3 octets each at most) fits, and so does an ASCII line of at most FOLD_OCTETS units.
 */
function calendarLine(property: JCalProperty): string {
  const line = ICAL.stringify.property(property, CALENDAR_DESIGN, true);
  const fits = line.length * 3 <= FOLD_OCTETS || (line.length <= FOLD_OCTETS && ASCII.test(line));
  return fits ? line : ICAL.helpers.foldline(line);
}

/** A component's properties as content lines, each ending in CRLF. */
function propertyLines(properties: readonly JCalProperty[]): string {
  let lines = '';
  for (const property of properties) lines += `${calendarLine(property)}\r\n`;
  return lines;
}

/**
 * The .ics text of a plan; throws when calendarBlocker says it has no date or start time (the toolbar checks first).
 * The same text as ICAL.stringify.component of the whole jCal (the tests compare them), written event by event: each
 * event's jCal is garbage before the next is made, instead of the whole calendar staying alive until the end to be
 * copied by every scavenge.
 */
export function calendarText(plan: Plan, locale: ViewerLocale, options: CalendarOptions): string {
  const { properties, events } = calendarJCal(plan, locale, options);
  ICAL.foldLength = FOLD_OCTETS;
  let text = `BEGIN:VCALENDAR\r\n${propertyLines(properties)}`;
  for (const event of events) {
    const name = event[0].toUpperCase();
    text += `BEGIN:${name}\r\n${propertyLines(event[1])}END:${name}\r\n`;
  }
  return `${text}END:VCALENDAR\r\n`;
}

/** The calendar of a plan as jCal; throws as calendarText does. The events are made as they are iterated. */
export function calendarJCal(plan: Plan, locale: ViewerLocale, options: CalendarOptions): CalendarJCal {
  const blocker = calendarBlocker(plan);
  const day = calendarDay(plan.workshop.date);
  if (blocker !== null || day === null) throw new Error(`the plan has no ${blocker === 'startTime' ? 'start time' : 'date'} for a calendar`);
  const title = calendarTextValue(plan.workshop.title);
  return {
    properties: [
      ['version', NO_PARAMETERS, 'text', '2.0'],
      ['prodid', NO_PARAMETERS, 'text', `-//Sessionplan//Viewer//${locale.language.toUpperCase()}`],
      ['name', NO_PARAMETERS, 'text', title],
      ['x-wr-calname', NO_PARAMETERS, 'text', title],
    ],
    events: calendarEvents(plan, day, locale, options),
  };
}

/** An event's description: the parts that are there, each after its label, a blank line between them. */
function describedParts(parts: ReadonlyArray<readonly [label: string | null, text: string]>): string {
  let description = '';
  for (const [label, text] of parts) {
    if (!text) continue;
    description += `${description ? '\n\n' : ''}${label === null ? text : `${label}: ${text}`}`;
  }
  return description;
}

/**
 * One VEVENT per block, and one per group and breakout spanning its contents (its description, its notes while they
 * are shown, and for a breakout its lanes), in schedule order: everything the page shows of the plan's items.
 */
function* calendarEvents(plan: Plan, day: CalendarDay, locale: ViewerLocale, options: CalendarOptions): Generator<JCalComponent> {
  const { strings } = locale;
  const names = personNames(plan);
  const categories = new Map(plan.blockTypes.map((type) => [type.id, type.name]));
  const key = planKey(plan);
  const usedUids = new Map<string, number>();
  // DTSTAMP: when this file was made, in UTC.
  const stamp = `${new Date().toISOString().slice(0, 19)}Z`;
  const dateTime = floatingDateTimes(day);

  const uidOf = (id: string): string => {
    // Tolerant documents may repeat an id; the second gets "-2", so every UID stays unique and stable.
    const uid = eventUid(key, id);
    const seen = (usedUids.get(uid) ?? 0) + 1;
    usedUids.set(uid, seen);
    return seen > 1 ? uid.replace('@', `-${seen}@`) : uid;
  };

  for (const entry of planSchedule(plan).entries) {
    if (entry.kind !== 'item') continue;
    if (entry.item.type !== 'block') {
      const container = entry.item;
      const lanes = container.type === 'breakout'
        ? breakoutLanes(container).map((lane) => {
          const people = peopleText(lane.personIds, names, strings);
          return laneTitle(lane, laneCount(container), strings) + (people ? ` (${people})` : '');
        }).join(', ')
        : '';
      const description = describedParts([
        [null, container.description],
        [container.type === 'breakout' ? strings.parallelLanes(laneCount(container), container.sameInAllBreakouts) : null, lanes],
        [strings.notesLabel, options.notes ? container.notes : ''],
      ]);
      const summary = container.type === 'breakout' ? strings.agendaBreakout(container.title) : strings.agendaGroup(container.title);
      const properties: JCalProperty[] = [
        ['uid', NO_PARAMETERS, 'text', uidOf(container.id)],
        ['dtstamp', NO_PARAMETERS, 'date-time', stamp],
        ['dtstart', NO_PARAMETERS, 'date-time', dateTime(entry.start)],
        ['dtend', NO_PARAMETERS, 'date-time', dateTime(entry.end)],
        ['summary', NO_PARAMETERS, 'text', calendarTextValue(summary)],
      ];
      if (description) properties.push(['description', NO_PARAMETERS, 'text', calendarTextValue(description)]);
      yield ['vevent', properties, []];
      continue;
    }
    const block: PlanBlock = entry.item;
    const parent = entry.containers[entry.containers.length - 1];
    const where = entry.lane !== null && parent?.type === 'breakout'
      ? strings.calendarInLane(parent.title, laneTitle(entry.lane, laneCount(parent), strings))
      : parent !== undefined ? strings.calendarInGroup(parent.title) : '';
    const people = peopleText(entry.lane === null ? block.personIds : [...entry.lane.personIds, ...block.personIds], names, strings);
    const description = describedParts([
      [null, block.description],
      [strings.materialLabel, block.material],
      [strings.peopleLabel, people],
      [strings.notesLabel, options.notes ? block.notes : ''],
    ]);
    const category = block.blockTypeId === null ? undefined : categories.get(block.blockTypeId);
    const properties: JCalProperty[] = [
      ['uid', NO_PARAMETERS, 'text', uidOf(block.id)],
      ['dtstamp', NO_PARAMETERS, 'date-time', stamp],
      ['dtstart', NO_PARAMETERS, 'date-time', dateTime(entry.start)],
      ['dtend', NO_PARAMETERS, 'date-time', dateTime(entry.end)],
      ['summary', NO_PARAMETERS, 'text', calendarTextValue(where ? `${block.title} (${where})` : block.title)],
    ];
    if (description) properties.push(['description', NO_PARAMETERS, 'text', calendarTextValue(description)]);
    if (category) properties.push(['categories', NO_PARAMETERS, 'text', calendarTextValue(category)]);
    yield ['vevent', properties, []];
  }
}
