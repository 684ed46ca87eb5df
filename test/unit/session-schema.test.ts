// The canonical schema and rules: one valid/invalid case per rule, each asserting the exact field path; ajv 2020 agrees with zod.
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/session/errors.js';
import { sessionJsonSchema } from '../../src/session/json-schema.js';
import { sessionSchema } from '../../src/session/schema.js';
import { validateForCreate } from '../../src/session/validate.js';
import { block, breakout, group, minimalSession, richSession } from '../fixtures/sessions.js';

type Json = Record<string, unknown>;

/** A minimal document with these items (and declared type `t` / person `p`). */
function withItems(items: Json[], extra: Json = {}): Json {
  return {
    ...minimalSession(),
    blockTypes: [{ id: 't', name: 'Type', color: '#112233' }],
    persons: [{ id: 'p', name: 'Pat', role: '' }],
    items,
    ...extra,
  };
}

function failureOf(input: unknown): SessionError {
  try {
    validateForCreate(input);
  } catch (error) {
    if (error instanceof SessionError) return error;
    throw error;
  }
  throw new Error('expected SESSION_VALIDATION_FAILED, but the document was accepted');
}

const valid: [string, Json][] = [
  ['minimal document', minimalSession()],
  ['every feature', richSession()],
  ['defaults omitted (laneIndex, lanes, sameInAllBreakouts, date, startTime)', withItems([
    (({ laneIndex: _l, ...b }) => b)(block('a')),
    (({ lanes: _n, sameInAllBreakouts: _s, ...b }) => b)(breakout('br', [block('c', { laneIndex: 1 })])),
  ])],
  ['leap day and last minute', { ...minimalSession(), workshop: { title: 'W', description: '', date: '2028-02-29', startTime: '23:59' } }],
  ['ID of 128 characters, unicode ID', withItems([block('x'.repeat(128)), block('Übung 1 ✓')])],
  ['durations 0 and 1440', withItems([block('a', { duration: 0 }), block('b', { duration: 1440 })])],
  ['lanes 1 and 10', withItems([breakout('one', [block('a')], { lanes: 1 }), breakout('ten', [block('b', { laneIndex: 9 })], { lanes: 10, lanePersons: { '9': ['p'] } })])],
  ['upper-case color', { ...minimalSession(), blockTypes: [{ id: 't', name: 'T', color: '#ABCDEF' }] }],
  ['exactly 500 items in the tree', withItems([group('g', Array.from({ length: 499 }, (_, i) => block(`b${i}`)))])],
];

const tooLongText = 'x'.repeat(2_000_001);
let deeplyNested: unknown = [];
for (let i = 0; i < 100_000; i++) deeplyNested = [deeplyNested];
const cyclic = withItems([group('g', [])]);
((cyclic.items as Json[])[0] as Json).children = cyclic.items;

/** [rule, document, exact path of the single problem, a phrase the sentence must contain] */
const invalid: [string, unknown, string, string][] = [
  ['session is not an object', 42, 'session', 'not an integer'],
  ['session is an array', [], 'session', 'not an array'],
  ['version missing', (({ version: _v, ...d }) => d)(minimalSession()), 'version', 'is missing'],
  ['version unknown', { ...minimalSession(), version: '2.0' }, 'version', '"1.0"'],
  ['unknown top-level field', { ...minimalSession(), theme: 'dark' }, 'theme', 'not a field'],
  ['workshop title missing', { ...minimalSession(), workshop: { description: '' } }, 'workshop.title', 'is missing'],
  ['workshop title empty', { ...minimalSession(), workshop: { title: '', description: '' } }, 'workshop.title', 'must not be empty'],
  ['workshop title too long', { ...minimalSession(), workshop: { title: 'x'.repeat(201), description: '' } }, 'workshop.title', 'at most 200'],
  ['date not real', { ...minimalSession(), workshop: { title: 'W', description: '', date: '2026-02-30' } }, 'workshop.date', 'real calendar date'],
  ['date month 13', { ...minimalSession(), workshop: { title: 'W', description: '', date: '2026-13-01' } }, 'workshop.date', 'real calendar date'],
  ['startTime 24:00', { ...minimalSession(), workshop: { title: 'W', description: '', startTime: '24:00' } }, 'workshop.startTime', 'HH:MM'],
  ['startTime without leading zero', { ...minimalSession(), workshop: { title: 'W', description: '', startTime: '9:00' } }, 'workshop.startTime', 'HH:MM'],
  ['color not #rrggbb', { ...minimalSession(), blockTypes: [{ id: 't', name: 'T', color: 'red' }] }, 'blockTypes[0].color', '#rrggbb'],
  ['block type name too long', { ...minimalSession(), blockTypes: [{ id: 't', name: 'n'.repeat(101), color: '#000000' }] }, 'blockTypes[0].name', 'at most 100'],
  ['duplicate block type ID', { ...minimalSession(), blockTypes: [{ id: 't', name: 'A', color: '#000000' }, { id: 't', name: 'B', color: '#000000' }] }, 'blockTypes[1].id', 'duplicate block type ID "t"'],
  ['duplicate person ID', { ...minimalSession(), persons: [{ id: 'p', name: 'A', role: '' }, { id: 'p', name: 'B', role: '' }] }, 'persons[1].id', 'duplicate person ID "p"'],
  ['ID with a control character', withItems([block('a\nb')]), 'items[0].id', 'control characters'],
  ['ID empty', withItems([block('')]), 'items[0].id', 'must not be empty'],
  ['ID too long', withItems([block('x'.repeat(129))]), 'items[0].id', 'at most 128'],
  ['duration over 1440', withItems([block('a', { duration: 1441 })]), 'items[0].duration', 'at most 1440'],
  ['duration negative', withItems([block('a', { duration: -1 })]), 'items[0].duration', 'at least 0'],
  ['duration not an integer', withItems([block('a', { duration: 1.5 })]), 'items[0].duration', 'an integer'],
  ['block field missing', withItems([(({ material: _m, ...b }) => b)(block('a'))]), 'items[0].material', 'is missing'],
  ['blockTypeId missing (null when unset)', withItems([(({ blockTypeId: _b, ...b }) => b)(block('a'))]), 'items[0].blockTypeId', 'use null'],
  ['personIds not an array', withItems([block('a', { personIds: 'p' })]), 'items[0].personIds', 'an array'],
  ['fixedStartTime not real', withItems([block('a', { fixedStartTime: '12:60' })]), 'items[0].fixedStartTime', 'HH:MM'],
  ['unknown item type', withItems([{ ...block('a'), type: 'session' }]), 'items[0].type', '"block", "group", "breakout"'],
  ['block with children', withItems([{ ...block('a'), children: [] }]), 'items[0].children', 'not a field'],
  ['group inside a group', withItems([group('g', [group('h', [])])]), 'items[0].children[0].type', '"block", "breakout"'],
  ['group inside a breakout', withItems([breakout('br', [group('h', [])])]), 'items[0].children[0].type', '"block"'],
  ['breakout inside a breakout', withItems([breakout('br', [breakout('h', [])])]), 'items[0].children[0].type', '"block"'],
  ['sameInAllBreakouts not a boolean', withItems([breakout('br', [], { sameInAllBreakouts: 'yes' })]), 'items[0].sameInAllBreakouts', 'true or false'],
  ['lanes 0', withItems([breakout('br', [], { lanes: 0 })]), 'items[0].lanes', 'at least 1'],
  ['lanes 11', withItems([breakout('br', [], { lanes: 11 })]), 'items[0].lanes', 'at most 10'],
  ['lanePersons not an object', withItems([breakout('br', [], { lanePersons: [] })]), 'items[0].lanePersons', 'an object'],
  ['lanePersons key not a lane index', withItems([breakout('br', [], { lanePersons: { a: ['p'] } })]), 'items[0].lanePersons.a', 'not a lane index'],
  ['lanePersons key beyond lanes', withItems([breakout('br', [], { lanePersons: { '2': ['p'] } })]), 'items[0].lanePersons["2"]', 'lane 2 does not exist'],
  ['duplicate item ID across the tree', withItems([block('a'), group('g', [block('a')])]), 'items[1].children[0].id', 'duplicate item ID "a" (also used at items[0].id)'],
  ['undeclared block type', withItems([block('a', { blockTypeId: 'nope' })]), 'items[0].blockTypeId', 'not declared in blockTypes'],
  ['undeclared person', withItems([block('a', { personIds: ['p', 'nobody'] })]), 'items[0].personIds[1]', 'not declared in persons'],
  ['undeclared person in lanePersons', withItems([breakout('br', [], { lanePersons: { '1': ['ghost'] } })]), 'items[0].lanePersons["1"][0]', 'person "ghost" is not declared'],
  ['laneIndex outside a breakout', withItems([block('a', { laneIndex: 1 })]), 'items[0].laneIndex', 'must be 0 outside a breakout'],
  ['laneIndex in a group (not a breakout)', withItems([group('g', [block('a', { laneIndex: 1 })])]), 'items[0].children[0].laneIndex', 'must be 0 outside a breakout'],
  ['laneIndex beyond lanes', withItems([group('g', [breakout('br', [block('a', { laneIndex: 2 })])])]), 'items[0].children[0].children[0].laneIndex', 'below the breakout\'s lanes (2'],
  ['sameInAllBreakouts with lane 1', withItems([breakout('br', [block('a'), block('b', { laneIndex: 1 })], { sameInAllBreakouts: true })]), 'items[0].children[1].laneIndex', 'sameInAllBreakouts: true'],
  ['1,001 person IDs in one list', withItems([block('a', { personIds: Array.from({ length: 1001 }, () => 'p') })]), 'items[0].personIds', 'has 1,001 entries but at most 1,000 are allowed'],
  ['1,001 persons', { ...minimalSession(), persons: Array.from({ length: 1001 }, (_, i) => ({ id: `p${i}`, name: 'P', role: '' })) }, 'persons', 'at most 1,000'],
  ['1,001 block types', { ...minimalSession(), blockTypes: Array.from({ length: 1001 }, (_, i) => ({ id: `t${i}`, name: 'T', color: '#000000' })) }, 'blockTypes', 'at most 1,000'],
  ['1,001 person IDs in one lane', withItems([breakout('br', [], { lanePersons: { '0': Array.from({ length: 1001 }, () => 'p') } })]), 'items[0].lanePersons["0"]', 'at most 1,000'],
  ['lanePersons with 11 keys', withItems([breakout('br', [], { lanePersons: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i), []])) })]), 'items[0].lanePersons', 'at most 10 lanes'],
  ['501 items in the tree', withItems([group('g', Array.from({ length: 500 }, (_, i) => block(`b${i}`)))]), 'items', 'at most 500'],
  ['JSON over 2,000,000 bytes', { ...minimalSession(), workshop: { title: 'W', description: tooLongText } }, 'session', '2,000,000 bytes'],
  ['JSON over 2,000,000 bytes in UTF-8 (700,000 × €, 3 bytes each)', { ...minimalSession(), workshop: { title: 'W', description: '€'.repeat(700_000) } }, 'session', 'more than 2,000,000 bytes'],
  ['value that is not JSON', { ...minimalSession(), workshop: { title: 'W', description: 10n } }, 'workshop.description', 'not a bigint (not JSON)'],
  ['cyclic items', cyclic, 'items', 'at most 500'],
  ['a value nested 100,000 levels deep', { ...minimalSession(), workshop: { title: 'W', description: deeplyNested } }, 'workshop.description', 'must be a string, not an array'],
];

describe('canonical session documents', () => {
  it.each(valid)('accepts: %s', (_name, doc) => {
    const { session, json } = validateForCreate(doc);
    expect(JSON.parse(json)).toEqual(session);
    expect(session.version).toBe('1.0');
  });

  it.each(invalid)('refuses: %s', (_name, doc, path, phrase) => {
    const error = failureOf(doc);
    expect(error.code).toBe('SESSION_VALIDATION_FAILED');
    expect(error.problems.map((p) => p.path)).toEqual([path]);
    expect(error.message.startsWith(`SESSION_VALIDATION_FAILED: ${path}: `)).toBe(true);
    expect(error.message).toContain(phrase);
    expect(error.message.length).toBeLessThanOrEqual(800);
    expect(error.message).not.toMatch(/\s{2}|\n/);
  });

  it('lists several problems, a few in the message, each with its path, capped at 800 characters', () => {
    const items = Array.from({ length: 30 }, (_, i) => block(`b${i}`, { blockTypeId: `missing-type-with-a-long-name-${'x'.repeat(30)}-${i}` }));
    const error = failureOf(withItems(items));
    expect(error.problems).toHaveLength(30);
    expect(error.problems[29]?.path).toBe('items[29].blockTypeId');
    expect(error.message).toMatch(/^SESSION_VALIDATION_FAILED: items\[0\]\.blockTypeId: block type ".*" is not declared in blockTypes\. items\[1\]\.blockTypeId/);
    expect(error.message.length).toBeLessThanOrEqual(800);
  });

  it('lists 100 rule problems and counts the rest', () => {
    const doc = withItems(Array.from({ length: 300 }, (_, i) => block(`b${i}`, { personIds: ['ghost'], blockTypeId: 'nope' })));
    const error = failureOf(doc);
    expect(error.problems).toHaveLength(101);
    expect(error.problems[99]).toEqual({ path: 'items[49].personIds[0]', message: 'person "ghost" is not declared in persons', rule: { kind: 'undeclaredPerson' } });
    expect(error.problems[100]).toEqual({ path: 'session', message: '500 further problems of the kinds above are not listed', rule: { kind: 'moreProblems', count: 500 } });
  });

  it('refuses floods of invalid entries at once, before any schema pass (a generous bound, not a timing figure)', () => {
    for (const entry of [1, '', 'ghost']) {
      const doc = withItems([block('a', { personIds: Array.from({ length: 300_000 }, () => entry) })]);
      const started = performance.now();
      const error = failureOf(doc);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(error.message).toBe('SESSION_VALIDATION_FAILED: items[0].personIds: has 300,000 entries but at most 1,000 are allowed.');
    }
  });

  it('lists five schema problems and stops there, unknown fields included (the message says there are more)', () => {
    const doc = { ...minimalSession(), workshop: { title: 'W', description: '', ...Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`extra${i}`, 1])) } };
    const error = failureOf(doc);
    expect(error.problems.map((p) => p.path)).toEqual(['workshop.extra0', 'workshop.extra1', 'workshop.extra2', 'workshop.extra3', 'workshop.extra4']);
    expect(error.more).toBe(true);
    expect(error.message).toMatch(/workshop\.extra4: is not a field of this object; remove it \(only documented fields are allowed\)\. \(and more problems\)$/);
  });

  it('an exact count when the walk found no more than it lists', () => {
    const doc = { ...minimalSession(), workshop: { title: 'W', description: '', extra0: 1, extra1: 2 } };
    const error = failureOf(doc);
    expect(error.problems).toHaveLength(2);
    expect(error.more).toBe(false);
    expect(error.message).not.toContain('more problems');
  });

  it('checks the size of the normalized JSON: a document that passes 2,000,000 bytes only with its defaults filled in', () => {
    const blocks = (notes: number): Json => withItems(Array.from({ length: 499 }, (_, i) => (({ laneIndex: _l, ...b }) => b)(block(`b${i}`, { notes: 'n'.repeat(notes) }))));
    const base = JSON.stringify(blocks(0)).length;
    const doc = blocks(Math.floor((1_996_000 - base) / 499));
    expect(JSON.stringify(doc).length).toBeLessThanOrEqual(2_000_000); // `"laneIndex":0` × 499 adds ~7,000 bytes
    const error = failureOf(doc);
    expect(error.problems.map((p) => p.path)).toEqual(['session']);
    const normalizedLength = JSON.stringify(doc).length + 499 * ',"laneIndex":0'.length + ',"date":null,"startTime":null'.length;
    expect(error.message).toContain(`is at least ${normalizedLength.toLocaleString('en-US')} bytes (UTF-8) but at most 2,000,000 bytes are allowed`);
  });

  it('normalizes: keys in the order of docs/import-guide.md and defaults filled, whatever the input order', () => {
    const shuffled = withItems([{ laneIndex: 0, fixedStartTime: null, material: '', notes: '', description: '', personIds: [], blockTypeId: null, duration: 5, title: 'T', id: 'a', type: 'block' }]);
    const reordered = { items: shuffled.items, persons: shuffled.persons, blockTypes: shuffled.blockTypes, workshop: { description: '', title: 'W' }, version: '1.0' };
    const { json } = validateForCreate(reordered);
    expect(json).toBe(validateForCreate(shuffled).json);
    expect(Object.keys(JSON.parse(json) as Json)).toEqual(['version', 'workshop', 'blockTypes', 'persons', 'items']);
    expect(json).toContain('"workshop":{"title":"W","description":"","date":null,"startTime":null}');
    expect(json).toContain('{"type":"block","id":"a","title":"T","duration":5,"blockTypeId":null,"personIds":[],"description":"","notes":"","material":"","fixedStartTime":null,"laneIndex":0}');
  });
});

describe('published JSON Schema (draft 2020-12) agrees with zod', () => {
  // `format: "date"` is RFC 3339 full-date (a real date); ajv needs an implementation of it: zod's own date regex.
  const ajv = new Ajv2020({ allErrors: true, strict: true }).addFormat('date', z.regexes.date);
  const validate = ajv.compile(sessionJsonSchema);

  // Documents that are JSON (no BigInt, no cycles) and not huge; the rule-only cases are shape-valid for both.
  const examples: [string, unknown][] = [
    ...valid,
    ...invalid.filter(([name]) => !['value that is not JSON', 'cyclic items', 'a value nested 100,000 levels deep'].includes(name) && !name.startsWith('JSON over')).map(([name, doc]) => [name, doc] as [string, unknown]),
  ];

  it('is draft 2020-12 and generated from the schema (not a hand-written copy)', () => {
    expect(sessionJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(sessionJsonSchema.additionalProperties).toBe(false);
    expect(sessionJsonSchema.required).toEqual(['version', 'workshop', 'blockTypes', 'persons', 'items']);
  });

  it.each(examples)('same verdict: %s', (_name, doc) => {
    const zodVerdict = sessionSchema.safeParse(doc).success;
    expect(validate(doc)).toBe(zodVerdict);
  });

  it('the shape cases really differ in verdict (the comparison is not vacuous)', () => {
    const verdicts = examples.map(([, doc]) => sessionSchema.safeParse(doc).success);
    expect(verdicts.filter((v) => v).length).toBeGreaterThan(10);
    expect(verdicts.filter((v) => !v).length).toBeGreaterThan(25);
  });
});
