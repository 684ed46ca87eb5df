// The viewer's calendar (.ics) and Markdown agenda exports as plain functions, read back with real parsers (ical.js, marked).
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { planSchedule } from '../../src/plan-view/agenda.js';
import { agendaMarkdown, markdownText } from '../../src/viewer/export/agenda-markdown.js';
import { CALENDAR_DESIGN, calendarJCal, calendarText, eventUid, planKey } from '../../src/viewer/export/calendar.js';
import { downloadName } from '../../src/viewer/export/file-name.js';
import { createViewerLocale } from '../../src/plan-view/i18n/locale.js';
import type { Plan } from '../../src/plan-view/plan.js';
import { formatMinutes } from '../../src/plan-view/schedule.js';
import { calendarBlocker } from '../../src/plan-view/workshop-day.js';
import { linksIn, readAgenda, readCalendar } from '../support/export-readers.js';
import { generatePlan } from '../fixtures/plans.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';

const english = createViewerLocale('en');
const german = createViewerLocale('de');
const plan = (value: Record<string, unknown>): Plan => value as unknown as Plan;

/** Blocks with their schedule times as "YYYY-MM-DDTHH:MM:00", from the shared schedule (the page renders the same). */
/** Start and end of every item (blocks, groups and breakouts) as the calendar writes them. */
function itemTimes(value: Plan): Map<string, { start: string; end: string }> {
  const date = value.workshop.date!;
  const at = (minutes: number): string => {
    const moment = new Date(`${date}T00:00:00Z`);
    moment.setUTCMinutes(minutes);
    return moment.toISOString().slice(0, 19);
  };
  const times = new Map<string, { start: string; end: string }>();
  for (const entry of planSchedule(value).entries) if (entry.kind === 'item') times.set(entry.item.id, { start: at(entry.start), end: at(entry.end) });
  return times;
}

/**
 * The whole calendar as ICAL.stringify.component writes it in one piece (every line through ical.js's fold), DTSTAMP
 * blanked: calendarText writes event by event and folds only lines that can be too long, and must give this text.
 */
function wholeCalendarByIcalJs(value: Plan, locale: typeof english, notes: boolean): string {
  const { properties, events } = calendarJCal(value, locale, { notes });
  ICAL.foldLength = 74;
  return withoutStamp(`${ICAL.stringify.component(['vcalendar', properties, [...events]], CALENDAR_DESIGN)}\r\n`);
}
const withoutStamp = (text: string): string => text.replace(/^DTSTAMP:\d{8}T\d{6}Z$/gm, 'DTSTAMP:');

/** The item id of each UID a plan's calendar gives its items. */
function idsByUid(value: Plan): (uid: string) => string {
  const ids = new Map([...itemTimes(value).keys()].map((id) => [eventUid(planKey(value), id), id]));
  return (uid) => ids.get(uid) ?? `unknown UID ${uid}`;
}

describe('calendar export', () => {
  it('has one floating VEVENT per block, group and breakout at its computed start and end, lanes named, with stable unique UIDs', () => {
    const source = plan(germanWorkshopPlan());
    const text = calendarText(source, german, { notes: false });
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    // RFC 5545 3.1: lines of at most 75 octets.
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length, line).toBeLessThanOrEqual(75);
    const calendar = readCalendar(text);
    expect(calendar.name).toBe('Strategietag Team Süd');
    const expected = itemTimes(source);
    const idOfUid = idsByUid(source);
    expect(calendar.events.map((event) => idOfUid(event.uid)).sort()).toEqual([...expected.keys()].sort());
    for (const event of calendar.events) {
      expect({ start: event.start, end: event.end }, event.uid).toEqual(expected.get(idOfUid(event.uid)));
      expect(event.floating, event.uid).toBe(true);
    }
    expect(new Set(calendar.events.map((event) => event.uid)).size).toBe(calendar.events.length);
    const byId = new Map(calendar.events.map((event) => [idOfUid(event.uid), event]));
    expect(byId.get('station-a')!.summary).toBe('Was lief gut? (Stationen, Breakout 1)');
    expect(byId.get('sammeln')!.summary).toBe('Ideen sammeln (Ideenwerkstatt, Gleiches Programm in allen 3 Breakouts)');
    expect(byId.get('zahlen')!.summary).toBe('Zahlen und Meilensteine (Rückblick auf das Jahr)');
    expect(byId.get('ankommen')!.description).toBe('Kaffee, Namensschilder, eine Runde „Wie geht’s?“\n\nMaterial: Namensschilder, Stifte\n\nPersonen: Jana Größer (Moderation)');
    expect(byId.get('ankommen')!.categories).toEqual(['Impuls']);
    // The same plan gives the same UIDs (a second import updates instead of duplicating).
    expect(readCalendar(calendarText(source, german, { notes: false })).events.map((event) => event.uid)).toEqual(calendar.events.map((event) => event.uid));
    // Notes only when the page shows them.
    expect(byId.get('ankommen')!.description).not.toContain('Pünktlich');
    const withNotes = readCalendar(calendarText(source, german, { notes: true })).events.find((event) => idOfUid(event.uid) === 'ankommen')!;
    expect(withNotes.description).toContain('Notizen: Pünktlich anfangen, Nachzügler später abholen.');
  });

  it('keeps text exact through escaping and folding, runs past midnight into the next day, and makes repeated ids unique', () => {
    const tricky = 'Kommas, Semikola; Backslash \\ und\nZeilenumbruch — ✅ Ünïcödé '.repeat(4);
    const source = plan({
      ...workshopPlan(),
      workshop: { title: 'Nachtschicht', description: '', date: '2026-12-31', startTime: '23:00' },
      items: [
        { type: 'block', id: 'late', title: tricky, duration: 90, blockTypeId: null, personIds: ['ghost'], description: tricky, notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
        { type: 'block', id: 'late', title: 'Same id again', duration: 30, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
      ],
    });
    const text = calendarText(source, english, { notes: false });
    // RFC 5545 3.1: at most 75 octets a line, a folded line's leading space included; the long text folds many times.
    const lines = text.split('\r\n');
    expect(lines.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(5);
    for (const line of lines) expect(new TextEncoder().encode(line).length, line).toBeLessThanOrEqual(75);
    const calendar = readCalendar(text);
    expect(calendar.events.map((event) => [event.summary, event.start, event.end])).toEqual([
      [tricky, '2026-12-31T23:00:00', '2027-01-01T00:30:00'],
      ['Same id again', '2027-01-01T00:30:00', '2027-01-01T01:00:00'],
    ]);
    expect(calendar.events[0]!.description).toBe(`${tricky}\n\nPeople: ghost (not in the people list)`);
    const uid = eventUid(planKey(source), 'late');
    expect(calendar.events.map((event) => event.uid)).toEqual([uid, uid.replace('@', '-2@')]);
  });

  it('is byte for byte the text ical.js writes for the whole calendar at once, on a large plan with lanes and groups', () => {
    const large = plan(generatePlan({ seed: 7, items: 120, textPerItem: 700 }));
    for (const [source, locale, notes] of [[large, german, true], [large, english, false], [plan(germanWorkshopPlan()), german, true]] as const) {
      const text = calendarText(source, locale, { notes });
      expect(text.split('\r\n').filter((line) => line.startsWith(' ')).length).toBeGreaterThan(source === large ? 500 : 5);
      expect(withoutStamp(text)).toBe(wholeCalendarByIcalJs(source, locale, notes));
    }
  });

  it('folds exactly where ical.js folds every line, whatever the characters and lengths around 24 and 74 octets', () => {
    const block = (id: string, title: string, description: string) =>
      ({ type: 'block', id, title, duration: 15, blockTypeId: 'type', personIds: [], description, notes: '', material: '', fixedStartTime: null, laneIndex: 0 });
    const same = (title: string, id: string, description: string, category: string): void => {
      const source = plan({ ...workshopPlan(), blockTypes: [{ id: 'type', name: category, color: '#123456' }], items: [block(id, title, description), block('b', description, title)] });
      expect(withoutStamp(calendarText(source, english, { notes: false }))).toBe(wholeCalendarByIcalJs(source, english, false));
    };
    // Each width of character at every length across both limits ("SUMMARY:" is 8 octets, so 16–17 and 66–67 matter).
    for (const character of ['a', ',', 'ü', '€', '🎯']) {
      for (let count = 1; count <= 80; count += 1) same(character.repeat(count), character.repeat(count), `x${character.repeat(count)}`, character.repeat(count));
    }
    // Mixtures: runs of one character each, so long lines of wide characters come up as often as short ASCII ones.
    const run = fc.tuple(fc.constantFrom('a', 'Z', ' ', ',', ';', '\\', '\n', 'ü', 'ß', 'Ş', '€', '—', '🎯'), fc.integer({ min: 1, max: 40 }));
    const text = fc.array(run, { maxLength: 4 }).map((runs) => runs.map(([character, count]) => character.repeat(count)).join(''));
    fc.assert(fc.property(text, text, text, text, same), { numRuns: 300 });
  });

  it('holds hostile text and ids: no property of its own, no raw line separator or control, every value read back', () => {
    const separators = ['\r\n', '\r', '\n', '\u0085', '\u2028', '\u2029', '\u000b', '\u000c', '\u0000', '\u001b', '\u007f', '\u009b'];
    const injected = (n: number) => `x${separators.join('')}ATTENDEE:mailto:evil@example.com\r\nURL:https://evil.example/${n}\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM`;
    const source = plan({
      ...workshopPlan(),
      blockTypes: [{ id: 't', name: injected(0), color: '#336699' }],
      persons: [{ id: 'p', name: injected(1), role: injected(2) }],
      workshop: { title: injected(3), description: '', date: '2026-03-14', startTime: '09:00' },
      items: [0, 1, 2].map((n) => ({ type: 'block', id: injected(10 + n), title: injected(20 + n), duration: 30, blockTypeId: 't', personIds: ['p'], description: injected(30 + n), notes: injected(40 + n), material: injected(50 + n), fixedStartTime: null, laneIndex: 0 })),
    });
    const text = calendarText(source, english, { notes: true });
    // Lines end in CRLF and nothing else separates them; no control but the tab is left in the file.
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.slice(0, -2).split('\r\n')) expect(line, JSON.stringify(line)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/);
    const parsed = new ICAL.Component(ICAL.parse(text));
    const events = parsed.getAllSubcomponents('vevent');
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event.getAllSubcomponents()).toEqual([]);
      expect(event.getAllProperties().map((property) => property.name).sort()).toEqual(['categories', 'description', 'dtend', 'dtstamp', 'dtstart', 'summary', 'uid']);
      expect(event.getFirstPropertyValue('uid')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{16}@sessionplan$/);
    }
    expect(parsed.getAllProperties().map((property) => property.name).sort()).toEqual(['name', 'prodid', 'version', 'x-wr-calname']);
    // What was a line break is one (the CR before the LF makes one CRLF of two separators); the other controls are
    // spaces; the words stay.
    expect(events[0]!.getFirstPropertyValue('summary')).toBe('x\n\n\n\n\n      ATTENDEE:mailto:evil@example.com\nURL:https://evil.example/20\nBEGIN:VALARM\nTRIGGER:-PT5M\nEND:VALARM');
  });

  it('cannot be made without a date or a start time, and says which is missing', () => {
    const base = workshopPlan() as { workshop: Record<string, unknown> };
    expect(calendarBlocker(plan({ ...base, workshop: { ...base.workshop, date: null } }))).toBe('date');
    expect(calendarBlocker(plan({ ...base, workshop: { ...base.workshop, date: '2026-02-30' } }))).toBe('date');
    expect(calendarBlocker(plan({ ...base, workshop: { ...base.workshop, startTime: null } }))).toBe('startTime');
    expect(calendarBlocker(plan(base))).toBeNull();
    expect(() => calendarText(plan({ ...base, workshop: { ...base.workshop, date: null } }), english, { notes: false })).toThrow(/no date/);
  });
});

describe('Markdown agenda', () => {
  it('is a table of time range, title, duration, people and material, groups and breakouts marked, lanes indented', () => {
    const source = plan(workshopPlan());
    const agenda = readAgenda(agendaMarkdown(source, english, { notes: false }));
    expect(agenda.heading).toBe('Design Sprint Kickoff');
    // Node's and Chromium's ICU differ on the comma after the weekday in en-GB.
    expect(agenda.paragraphs).toEqual([expect.stringMatching(/^Saturday,? 14 March 2026 · Duration 4 hrs 30 mins · 09:00–14:45 \(with gaps\)$/), 'Two teams, one problem, one day.']);
    expect(agenda.header).toEqual(['Time', 'Title', 'Duration', 'People', 'Material']);
    expect(agenda.rows.slice(0, 9)).toEqual([
      ['09:00–09:30', 'Welcome and goals\nWhy we are here.', '30 mins', 'Alice Archer (Facilitator)', ''],
      ['09:30–09:45', 'Warm-up', '15 mins', '', ''],
      ['09:45–11:15', 'Group: Understand the problem', '1 hr 30 mins', '', ''],
      ['09:45–10:30', '↳ Expert interviews', '45 mins', 'Bob Brandt (Expert)', ''],
      ['10:30–11:15', '↳ Breakout: Interview pairs (2 parallel breakouts)', '45 mins', '', ''],
      ['10:30–11:15', '↳ ↳ Breakout 1', '', 'Alice Archer (Facilitator)', ''],
      ['10:30–11:15', '↳ ↳ ↳ Pair A: users', '45 mins', '', ''],
      ['10:30–11:15', '↳ ↳ Breakout 2', '', 'Carol Chen (Co-facilitator)', ''],
      ['10:30–11:15', '↳ ↳ ↳ Pair B: operators', '45 mins', '', ''],
    ]);
    expect(agenda.rows).toContainEqual(['12:30–13:30 (fixed)', 'Lunch', '1 hr', '', '']);
    expect(agenda.rows.at(-1)).toEqual(['14:30–14:45', 'Wrap-up', '15 mins', 'Alice Archer (Facilitator), Bob Brandt (Expert)', 'Sticky notes']);
    // Every item of the schedule has its row, in the same order, with the same range.
    const items = planSchedule(source).entries.filter((entry) => entry.kind === 'item');
    const itemRows = agenda.rows.filter((row) => !/^(↳ )*Breakout \d$/.test(row[1]!));
    expect(itemRows.map((row) => row[0]!.replace(' (fixed)', ''))).toEqual(items.map((entry) => `${formatMinutes(entry.start, false)}–${formatMinutes(entry.end, false)}`));
  });

  it('keeps any text literal: markup, pipes and line breaks in plan text cannot change the table', () => {
    const hostile = '| not | a | column | *not bold* _no_ `code` [link](x) <b>html</b> &amp; \\ ~~strike~~\nsecond line';
    const source = plan({ ...workshopPlan(), workshop: { title: hostile, description: '# not a heading\n- not a list', date: null, startTime: null },
      items: [{ type: 'block', id: 'x', title: hostile, duration: 10, blockTypeId: null, personIds: [], description: '', notes: 'n | b', material: hostile, fixedStartTime: null, laneIndex: 0 }] });
    const agenda = readAgenda(agendaMarkdown(source, german, { notes: true }));
    expect(agenda.heading).toBe(hostile);
    expect(agenda.header).toEqual(['Zeit', 'Titel', 'Dauer', 'Personen', 'Material', 'Notizen']);
    expect(agenda.rows).toEqual([['+0:00–+0:10', hostile, '10 Min.', '', hostile, 'n | b']]);
    expect(agenda.paragraphs[1]).toBe('# not a heading\n- not a list');
    expect(markdownText('a|b')).toBe('a\\|b');
  });

  it('shows addresses in plan text as text: no autolink of a URL, www., an e-mail address or mailto:', () => {
    const addresses = 'See https://evil.example/x?a=1, www.evil.example, me@evil.example and mailto:me@evil.example or xmpp:me@evil.example';
    const source = plan({ ...workshopPlan(), workshop: { title: addresses, description: addresses, date: '2026-03-14', startTime: '09:00' },
      items: [{ type: 'block', id: 'x', title: addresses, duration: 10, blockTypeId: null, personIds: [], description: addresses, notes: addresses, material: addresses, fixedStartTime: null, laneIndex: 0 }] });
    const markdown = agendaMarkdown(source, english, { notes: true });
    expect(linksIn(markdown)).toEqual([]);
    const agenda = readAgenda(markdown);
    expect(agenda.heading).toBe(addresses);
    expect(agenda.paragraphs[1]).toBe(addresses);
    expect(agenda.rows[0]![1]).toBe(`${addresses}\n${addresses}`);
  });

  it('accepts every value the tolerant schema does: durations of 1e15, negative or fractional minutes, in both exports', () => {
    for (const duration of [1e15, -1e15, -30, 0.5, 1e300]) {
      const source = plan({ ...workshopPlan(), workshop: { title: 'T', description: '', date: '2026-03-14', startTime: '09:00' },
        items: [
          { type: 'block', id: 'a', title: 'A', duration, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
          { type: 'block', id: 'b', title: 'B', duration: 30, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
        ] });
      const calendar = readCalendar(calendarText(source, english, { notes: false }));
      expect(calendar.events).toHaveLength(2);
      for (const event of calendar.events) {
        expect(event.start >= '0000-01-01T00:00:00' && event.start <= '9999-12-31T23:59:00', `${duration}: ${event.start}`).toBe(true);
        expect(event.end >= '0000-01-01T00:00:00' && event.end <= '9999-12-31T23:59:00', `${duration}: ${event.end}`).toBe(true);
      }
      expect(readAgenda(agendaMarkdown(source, german, { notes: false })).rows).toHaveLength(2);
    }
  });
});

describe('download names', () => {
  it('are readable, portable lower-case ASCII: umlauts and ß spelled out, nothing a file system or shell reads specially', () => {
    expect(downloadName('Design Sprint Kickoff', '', 'ics')).toBe('design-sprint-kickoff.ics');
    expect(downloadName('Team-Offsite Q1/2027 – Strategie & Zusammenarbeit', '', 'ics')).toBe('team-offsite-q1-2027-strategie-zusammenarbeit.ics');
    expect(downloadName('Strategietag Team Süd, Größe', 'ablauf', 'md')).toBe('strategietag-team-sued-groesse-ablauf.md');
    expect(downloadName('Café Crème à Łódź', '', 'md')).toBe('cafe-creme-a-lodz.md');
    expect(downloadName('../a/b:c*?"<>|\u0000', '', 'ics')).toBe('a-b-c.ics');
    // A right-to-left override that would show "plan.exe" as "plan.ics", and a title that ends in half an emoji.
    expect(downloadName('plan\u202esci.exe', '', 'ics')).toBe('plan-sci-exe.ics');
    expect(downloadName(`Retro ${'😀'.repeat(3)}\ud83d`, '', 'ics')).toBe('retro.ics');
    expect(downloadName('   ', 'agenda', 'md')).toBe('sessionplan-agenda.md');
    expect(downloadName('日本語', '', 'ics')).toBe('sessionplan.ics');
    const long = downloadName('word '.repeat(60), '', 'ics');
    expect(long.length).toBeLessThanOrEqual(84);
    expect(long).toMatch(/^(word-)*word\.ics$/);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (title) => /^[a-z0-9]+(-[a-z0-9]+)*\.ics$/.test(downloadName(title, '', 'ics'))));
  });
});

describe('both exports carry everything the page shows of an item', () => {
  const block = (id: string, title: string, extra: Record<string, unknown> = {}) => ({ type: 'block', id, title, duration: 30, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0, ...extra });
  const source = plan({
    ...germanWorkshopPlan(),
    workshop: { title: 'Strategie & Zusammenarbeit', description: '', date: '2027-01-20', startTime: '09:00' },
    items: [
      block('start', 'Ankommen', { description: 'Kaffee & Kennenlernen', material: 'Namensschilder', notes: 'Pünktlich anfangen' }),
      { type: 'group', id: 'rueckblick', title: 'Rückblick', duration: 30, description: 'Was war 2026? snake_case & &amp; bleiben Text', notes: 'Zeit im Blick behalten', fixedStartTime: null, children: [block('zahlen', 'Zahlen')] },
      { type: 'breakout', id: 'stationen', title: 'Stationen', duration: 30, description: 'Räume: Seeblick, Bergblick', notes: 'Glocke zum Wechseln', fixedStartTime: null, lanes: 2, sameInAllBreakouts: false, lanePersons: { 0: ['jana'] }, children: [block('a', 'Station A'), block('b', 'Station B', { laneIndex: 1 })] },
    ],
  });

  it('the calendar: a group and a breakout are events of their own, with description, lanes and notes while shown', () => {
    const events = readCalendar(calendarText(source, german, { notes: true })).events;
    const group = events.find((event) => event.summary === 'Gruppe: Rückblick')!;
    expect(group.description).toBe('Was war 2026? snake_case & &amp; bleiben Text\n\nNotizen: Zeit im Blick behalten');
    const breakout = events.find((event) => event.summary === 'Breakout: Stationen')!;
    expect(breakout.description).toMatch(/^Räume: Seeblick, Bergblick\n\n2 parallele Breakouts: Breakout 1 \(Jana Größer \(Moderation\)\), Breakout 2\n\nNotizen: Glocke zum Wechseln$/);
    expect(events.find((event) => event.summary === 'Ankommen')!.description).toBe('Kaffee & Kennenlernen\n\nMaterial: Namensschilder\n\nNotizen: Pünktlich anfangen');
    // Notes only while the page shows them.
    const hidden = readCalendar(calendarText(source, german, { notes: false })).events;
    for (const event of hidden) expect(event.description ?? '').not.toContain('Notizen');
  });

  it('the Markdown agenda: every description under its title, notes of groups and breakouts too, & left as it is', () => {
    const markdown = agendaMarkdown(source, german, { notes: true });
    const agenda = readAgenda(markdown);
    expect(agenda.heading).toBe('Strategie & Zusammenarbeit');
    expect(agenda.rows.map((row) => [row[1], row.at(-1)])).toEqual([
      ['Ankommen\nKaffee & Kennenlernen', 'Pünktlich anfangen'],
      ['Gruppe: Rückblick\nWas war 2026? snake_case & &amp; bleiben Text', 'Zeit im Blick behalten'],
      ['↳ Zahlen', ''],
      ['Breakout: Stationen (2 parallele Breakouts)\nRäume: Seeblick, Bergblick', 'Glocke zum Wechseln'],
      ['↳ Breakout 1', ''],
      ['↳ ↳ Station A', ''],
      ['↳ Breakout 2', ''],
      ['↳ ↳ Station B', ''],
    ]);
    // Escaped only where the text would otherwise render differently: an entity, not a plain & or a word's underscore.
    expect(markdown).toContain('# Strategie & Zusammenarbeit');
    expect(markdown).toContain('Was war 2026? snake_case & \\&amp; bleiben Text');
  });
});
