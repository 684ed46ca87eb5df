// Spreadsheets in and out: the CSV download read back by Papa Parse and by the planner's import (the same plan, the
// same times), a table pasted from a spreadsheet in German, and every refusal named at its row and column.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { planSchedule } from '../../src/plan-view/agenda.js';
import { createViewerLocale } from '../../src/plan-view/i18n/locale.js';
import type { Plan } from '../../src/plan-view/plan.js';
import { encodeDraft } from '../../src/planner/encode.js';
import { emptyDraft } from '../../src/planner/factory.js';
import { plannerStrings } from '../../src/planner/i18n/index.js';
import { parseClock, parseDuration, splitPeople } from '../../src/planner/table/cells.js';
import { previewTable, type ImportMode } from '../../src/planner/table/preview.js';
import { fileTable, pastedTable } from '../../src/planner/table/read.js';
import type { Draft } from '../../src/planner/tree.js';
import { planTableCsv, planTableRows } from '../../src/viewer/export/table-csv.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';

const codec = await loadCodec();
const encode = (draft: Draft) => encodeDraft(codec, 'https://sessionplan.de/', draft);
const blank = (): Draft => emptyDraft(plannerStrings('de').newParts);
const preview = (text: string, draft: Draft = blank(), mode: ImportMode = 'replace') => previewTable(text, draft, mode, encode);

/** What a reader sees of a plan: every item's kind, title, times and texts, people and category by name. */
function shown(plan: Plan): string[] {
  const people = new Map(plan.persons.map((person) => [person.id, person.name]));
  const categories = new Map(plan.blockTypes.map((type) => [type.id, type.name]));
  return planSchedule(plan).entries.flatMap((entry) => {
    if (entry.kind === 'lane') return [`lane ${entry.lane.key} ${entry.start}–${entry.end}`];
    const { item } = entry;
    const block = item.type === 'block' ? ` [${item.personIds.map((id) => people.get(id)).join('+')}] {${item.blockTypeId === null ? '' : categories.get(item.blockTypeId)}} ${item.material} lane ${item.laneIndex}` : '';
    const breakout = item.type === 'breakout' ? ` lanes ${item.lanes}${item.sameInAllBreakouts ? ' same' : ''}` : '';
    return [`${'  '.repeat(entry.depth)}${item.type} ${item.title} ${entry.start}–${entry.end}${entry.pinned ? ' pinned' : ''} «${item.description}» «${item.notes}»${block}${breakout}`];
  });
}

describe('the CSV download', () => {
  it('is read back by the import as the same plan at the same times, in German and in English', () => {
    for (const [language, source] of [['de', germanWorkshopPlan()], ['en', workshopPlan()]] as const) {
      const plan = source as unknown as Plan;
      const csv = planTableCsv(plan, createViewerLocale(language), { notes: true });
      const result = preview(csv);
      expect(result.problems).toEqual([]);
      expect(result.planProblems).toEqual([]);
      const read = result.draft as unknown as Plan;
      expect(read.workshop.startTime).toBe(plan.workshop.startTime);
      // Lane people are not columns of the table; everything else a reader sees is the same.
      expect(shown(read)).toEqual(shown({ ...plan, items: plan.items.map((item) => (item.type === 'breakout' ? { ...item, lanePersons: {} } : item)) }));
    }
  });

  it('opens in a spreadsheet: BOM, ";" in German and "," in English, umlauts intact, formulas neutralised', () => {
    const plan = germanWorkshopPlan() as unknown as Plan;
    plan.items.push({ type: 'block', id: 'x', title: '=HYPERLINK("http://x","klick")', duration: 5, blockTypeId: null, personIds: [], description: '+49 170 1234', notes: '-', material: '@home', fixedStartTime: null, laneIndex: 0 });
    const german = planTableCsv(plan, createViewerLocale('de'), { notes: true });
    expect(german.startsWith('\uFEFFStartzeit;Titel;Dauer (Min.);Beschreibung;Notizen;Material;Personen;Kategorie;Breakout\r\n')).toBe(true);
    const rows = Papa.parse<string[]>(german.slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    expect(rows).toEqual(planTableRows(plan, createViewerLocale('de'), { notes: true }).map((row) => row.map((cell) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell))));
    expect(rows[1]).toEqual(['09:00', 'Ankommen & Check-in', '20', 'Kaffee, Namensschilder, eine Runde „Wie geht’s?“', 'Pünktlich anfangen, Nachzügler später abholen.', 'Namensschilder, Stifte', 'Jana Größer', 'Impuls', '']);
    expect(rows.at(-1)!.slice(1, 6)).toEqual([`'=HYPERLINK("http://x","klick")`, '5', `'+49 170 1234`, `'-`, `'@home`]);
    // Read back, the apostrophes go again.
    const back = preview(german).draft!;
    expect(back.items.at(-1)).toMatchObject({ title: '=HYPERLINK("http://x","klick")', description: '+49 170 1234', notes: '-', material: '@home' });
    const english = planTableCsv(plan, createViewerLocale('en'), { notes: false });
    expect(english.startsWith('\uFEFFStart time,Title,Duration (min),Description,Material,People,Category,Breakout\r\n')).toBe(true);
    expect(english).not.toContain('Pünktlich');
  });
});

describe('a table pasted from a spreadsheet', () => {
  it('reads German headers, hours with a decimal comma, durations from the next start, people and categories by name', () => {
    const draft = { ...blank(), blockTypes: [{ id: 'pause', name: 'Pause', color: '#8bc34a' }], persons: [{ id: 'jana', name: 'Jana Größer', role: 'Moderation' }] };
    const text = [
      'Uhrzeit\tThema\tDauer (h)\tWer\tArt\tRaum',
      '9:00\tBegrüßung\t0,5\tjana größer\t\tSaal',
      '9.30 Uhr\tInput Strategie\t\tTimo Weiß und Özlem Yılmaz (Co-Moderation)\tVortrag\tSaal',
      '10:15\tKaffeepause\t0,25\t\tPause\tFoyer',
      '11:00\tWorkshop\t1,5\tJana Größer\tÜbung\tRaum 2',
    ].join('\n');
    const result = preview(text, draft);
    expect(result.columns.map(({ column }) => column)).toEqual(['start', 'title', 'duration', 'people', 'category']);
    expect(result.ignored).toEqual(['Raum']);
    expect(result.problems).toEqual([]);
    const plan = result.draft!;
    expect(plan.workshop.startTime).toBe('09:00');
    expect(plan.items.map((item) => [item.title, item.duration, item.fixedStartTime])).toEqual([
      ['Begrüßung', 30, null],
      ['Input Strategie', 45, null],
      ['Kaffeepause', 15, null],
      // 10:30 by the durations; the table says 11:00, so the time is pinned.
      ['Workshop', 90, '11:00'],
    ]);
    expect(plan.persons.map((person) => [person.id, person.name, person.role])).toEqual([['jana', 'Jana Größer', 'Moderation'], ['person-1', 'Timo Weiß', ''], ['person-2', 'Özlem Yılmaz', 'Co-Moderation']]);
    expect(plan.blockTypes.map((type) => type.name)).toEqual(['Pause', 'Vortrag', 'Übung']);
    expect(plan.items.map((item) => (item.type === 'block' ? [item.personIds, item.blockTypeId] : null))).toEqual([[['jana'], null], [['person-1', 'person-2'], 'type-1'], [[], 'pause'], [['jana'], 'type-2']]);
    expect(result.rows.map((row) => [row.row, row.start, row.end])).toEqual([[2, 540, 570], [3, 570, 615], [4, 615, 630], [5, 660, 750]]);
  });

  it('appends after the agenda, with new IDs and its start pinned where the agenda does not end', () => {
    const draft = encode(germanWorkshopPlan() as unknown as Draft) as { session: Draft };
    const result = preview('Start,Title,Duration\n15:30,Feedback,20\n,Ende,10', draft.session, 'append');
    expect(result.problems).toEqual([]);
    const items = result.draft!.items;
    expect(items.length).toBe(draft.session.items.length + 2);
    expect(items.slice(-2).map((item) => [item.id, item.title, item.fixedStartTime])).toEqual([['block-1', 'Feedback', '15:30'], ['block-2', 'Ende', null]]);
  });

  it('reads durations, times and people as people write them', () => {
    expect([parseDuration('30', false), parseDuration('1:30', false), parseDuration('1,5 h', false), parseDuration('90 Min.', false), parseDuration('1 h 15 min', false), parseDuration('1,5', true), parseDuration('1,5', false), parseDuration('abc', false)]).toEqual([30, 90, 90, 90, 75, 90, null, null]);
    expect([parseClock('9:00'), parseClock('09.30'), parseClock('9 Uhr'), parseClock('14:05:00'), parseClock('24:00'), parseClock('9'), parseClock('morgens')]).toEqual(['09:00', '09:30', '09:00', '14:05', null, null, null]);
    expect(splitPeople('Jana; Timo / Özlem & Kim and Lee (Host)')).toEqual([{ name: 'Jana', role: '' }, { name: 'Timo', role: '' }, { name: 'Özlem', role: '' }, { name: 'Kim', role: '' }, { name: 'Lee', role: 'Host' }]);
  });
});

describe('a table that cannot be imported', () => {
  it('names each problem at its row and column, and makes no plan', () => {
    const text = [
      'Titel;Dauer;Startzeit;Beschreibung;Breakout',
      'Start;15;09:00;=HYPERLINK("https://example.org","hier");',
      'Mitte;eine Stunde;;;',
      'Ende;10;halb zehn;GrÃ¶ÃŸer;',
      '↳ ↳ ↳ Zu tief;5;;;',
      'Lanes;30;;;zwölf',
      ';5;;;',
      'Text;5;;kaputt \uFFFD;',
    ].join('\r\n');
    const result = preview(text);
    expect(result.draft).toBeNull();
    const byRow = [...result.problems].sort((a, b) => ('row' in a ? a.row : 0) - ('row' in b ? b.row : 0) || a.kind.localeCompare(b.kind));
    expect(byRow).toEqual([
      { kind: 'formula', row: 2, column: 'Beschreibung', text: '=HYPERLINK("https://example.org","hier")' },
      { kind: 'duration', row: 3, column: 'Dauer', text: 'eine Stunde' },
      { kind: 'mojibake', row: 4, column: 'Beschreibung', text: 'GrÃ¶ÃŸer' },
      { kind: 'time', row: 4, column: 'Startzeit', text: 'halb zehn' },
      { kind: 'tooDeep', row: 5 },
      { kind: 'lane', row: 6, column: 'Breakout', text: 'zwölf' },
      { kind: 'noTitle', row: 7 },
      { kind: 'replacement', row: 8, column: 'Beschreibung', text: 'kaputt \uFFFD' },
    ]);
    const words = plannerStrings('de').table;
    expect(words.problem(byRow[0]!, String)).toBe('Zeile 2, Beschreibung: „=HYPERLINK("https://example.org","hier")“ ist eine Formel. Kopieren Sie die Werte (Inhalte einfügen → Werte) oder nehmen Sie das „=“ heraus.');
  });

  it('refuses 10,000 rows, a table without a title column, and an empty one, before building anything', () => {
    const many = ['Title,Duration', ...Array.from({ length: 10_000 }, (_, index) => `Row ${index},5`)].join('\n');
    expect(preview(many).problems).toEqual([{ kind: 'tooManyRows', rows: 10_000, limit: 500 }]);
    expect(preview('Room,When\nx,y').problems).toEqual([{ kind: 'noTitleColumn', headers: ['Room', 'When'] }]);
    expect(preview('Title,Duration\n').problems).toEqual([{ kind: 'empty' }]);
  });

  it('refuses a 50 MB file unread, a file that is not UTF-8, and pasted text longer than a plan', async () => {
    expect(await fileTable(new Blob([new Uint8Array(50 * 1024 * 1024)]))).toEqual({ ok: false, problem: { kind: 'tooLarge', size: 52_428_800, limit: 2_000_000 } });
    expect(await fileTable(new Blob([Uint8Array.from([0x54, 0x69, 0x74, 0x6c, 0x65, 0x0a, 0xc4, 0x70, 0x66, 0x65, 0x6c])]))).toEqual({ ok: false, problem: { kind: 'notUtf8' } });
    expect(await fileTable(new Blob([Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Titel;Dauer\nÄpfel;5')])]))).toEqual({ ok: true, text: 'Titel;Dauer\nÄpfel;5' });
    expect(pastedTable('x'.repeat(2_000_001))).toEqual({ ok: false, problem: { kind: 'tooLarge', size: 2_000_001, limit: 2_000_000 } });
  });

  it('says which row breaks a rule of the plan (create\'s own check)', () => {
    const result = preview(`Title,Duration\nFine,10\n${'x'.repeat(201)},10\nLong,2000`);
    expect(result.problems).toEqual([]);
    expect(result.draft).toBeNull();
    expect(result.planProblems.map(({ row, problem }) => [row, problem.path])).toEqual([[3, 'items[1].title'], [4, 'items[2].duration']]);
  });
});
