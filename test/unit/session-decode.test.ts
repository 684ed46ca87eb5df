// Tolerant reading of decoded documents: defaults filled, unknown fields kept, rule violations as warnings, wrong types fail.
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/session/errors.js';
import { readDecodedSession } from '../../src/session/validate.js';
import { block, group, richSession } from '../fixtures/sessions.js';

function decodeFailure(text: string): SessionError {
  try {
    readDecodedSession(text);
  } catch (error) {
    if (error instanceof SessionError) return error;
    throw error;
  }
  throw new Error('expected SESSION_DECODE_FAILED');
}

describe('tolerant decoding of older documents', () => {
  it('returns a canonical document unchanged and without warnings', () => {
    const json = JSON.stringify(richSession());
    const { session, warnings } = readDecodedSession(json);
    expect(JSON.stringify(session)).toBe(json);
    expect(warnings).toEqual([]);
  });

  it('fills every missing field with its default, in canonical key order', () => {
    const old = { workshop: { title: 'Old plan' }, items: [{ type: 'block', id: 'a', title: 'A', duration: 10 }, { type: 'breakout', id: 'b', title: 'B', duration: 20 }] };
    const { session, warnings } = readDecodedSession(JSON.stringify(old));
    expect(session).toEqual({
      version: '1.0',
      workshop: { title: 'Old plan', description: '', date: null, startTime: null },
      blockTypes: [],
      persons: [],
      items: [
        { type: 'block', id: 'a', title: 'A', duration: 10, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
        { type: 'breakout', id: 'b', title: 'B', duration: 20, description: '', notes: '', fixedStartTime: null, lanes: 2, sameInAllBreakouts: false, lanePersons: {}, children: [] },
      ],
    });
    expect(Object.keys(session.items[0]!)).toEqual(['type', 'id', 'title', 'duration', 'blockTypeId', 'personIds', 'description', 'notes', 'material', 'fixedStartTime', 'laneIndex']);
    expect(warnings).toEqual([]);
  });

  it('keeps unknown fields as they are and names them in warnings', () => {
    const doc: Record<string, unknown> = { ...richSession(), theme: { dark: true } };
    (doc.items as Record<string, unknown>[])[0]!.color = 'red';
    const { session, warnings } = readDecodedSession(JSON.stringify(doc));
    expect(session.theme).toEqual({ dark: true });
    expect(session.items[0]!.color).toBe('red');
    // zod reports an object's unknown keys after its fields, so the nested one comes first.
    expect(warnings).toEqual([
      'items[0].color: is not a field of the current format; it was kept as is',
      'theme: is not a field of the current format; it was kept as is',
    ]);
  });

  it('reports dangling references, duplicate IDs and bad lanes as warnings with field paths', () => {
    const doc = richSession();
    const items = doc.items as Record<string, unknown>[];
    items.push(block('welcome', { blockTypeId: 'gone', personIds: ['nobody'] }));
    items.push(group('late', [block('child', { laneIndex: 3 })]));
    const { session, warnings } = readDecodedSession(JSON.stringify(doc));
    expect(session.items).toHaveLength(5);
    expect(warnings).toEqual([
      'items[3].id: duplicate item ID "welcome" (also used at items[0].id); item IDs must be unique across the whole tree',
      'items[3].blockTypeId: block type "gone" is not declared in blockTypes',
      'items[3].personIds[0]: person "nobody" is not declared in persons',
      'items[4].children[0].laneIndex: must be 0 outside a breakout, not 3',
    ]);
  });

  it('reads other nesting and too many items, with warnings', () => {
    const doc = richSession();
    doc.items = [group('outer', [group('inner', Array.from({ length: 500 }, (_, i) => block(`b${i}`)))])];
    const { session, warnings } = readDecodedSession(JSON.stringify(doc));
    expect(session.items[0]!.type).toBe('group');
    expect(warnings[0]).toMatch(/^items\[0\]\.children\[0\]\.type: must be one of "block", "breakout" here/);
    expect(warnings).toContain('items: the plan has 502 items in the whole tree (containers and all children count) but at most 500 are allowed, so the plan must be made smaller');
  });

  it('keeps nested unknown data, but refuses nesting no JSON writer could serialize again', () => {
    const nested = { workshop: { title: 'W' }, extra: { a: [[[{ b: [1, { c: 'deep' }] }]]] } };
    expect(readDecodedSession(JSON.stringify(nested)).session.extra).toEqual(nested.extra);
    const deep = `{"workshop":{"title":"W"},"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const error = decodeFailure(deep);
    expect(error.message).toBe('SESSION_DECODE_FAILED: link: the snapshot data nests deeper than 64 levels, which no session document does.');
  });

  it('reports a lanePersons key that is no lane index once, and one beyond the lanes', () => {
    const old = { workshop: { title: 'W' }, items: [{ type: 'breakout', id: 'b', title: 'B', lanes: 2, lanePersons: { x: [], '3': [] } }] };
    expect(readDecodedSession(JSON.stringify(old)).warnings).toEqual([
      'items[0].lanePersons.x: is not a lane index; keys must be lane numbers "0" to "9" below the breakout\'s lanes',
      'items[0].lanePersons["3"]: lane 3 does not exist; the breakout has 2 lanes (0 to 1)',
    ]);
  });

  it('reads lists over the limits with a warning, and refuses more than twice the limits outright', () => {
    const persons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}`, name: 'P', role: '' }));
    const { warnings } = readDecodedSession(JSON.stringify({ ...richSession(), persons: persons(1500) }));
    expect(warnings).toContain('persons: must have at most 1000 entries');
    const error = decodeFailure(JSON.stringify({ ...richSession(), persons: persons(2_001) }));
    expect(error.message).toBe('SESSION_DECODE_FAILED: persons: has 2,001 entries but at most 1,000 are allowed.');
    const items = Array.from({ length: 1001 }, (_, i) => block(`b${i}`));
    expect(decodeFailure(JSON.stringify({ ...richSession(), items })).message).toMatch(/^SESSION_DECODE_FAILED: items: the plan has at least 1001 items/);
  });

  it('caps the warning list', () => {
    const doc = richSession();
    doc.items = Array.from({ length: 40 }, (_, i) => block(`b${i}`, { blockTypeId: 'missing' }));
    const { warnings } = readDecodedSession(JSON.stringify(doc));
    expect(warnings).toHaveLength(21);
    expect(warnings[20]).toBe('(and 20 more warnings)');
  });

  it.each([
    ['title of the wrong type', { workshop: { title: 5 } }, 'workshop.title', 'must be a string, not an integer'],
    ['items not an array', { items: {} }, 'items', 'must be an array, not an object'],
    ['lanes of the wrong type', { items: [{ type: 'breakout', id: 'b', lanes: '2' }] }, 'items[0].lanes', 'must be a number, not a string'],
    ['nested wrong type', { items: [{ type: 'group', id: 'g', children: [{ type: 'block', id: 'x', personIds: [1] }] }] }, 'items[0].children[0].personIds[0]', 'must be a string, not an integer'],
    ['unknown item type', { items: [{ type: 'note', id: 'n' }] }, 'items[0].type', 'must be one of "block", "group", "breakout"'],
  ])('a field of the wrong type still fails: %s', (_name, doc, path, phrase) => {
    const error = decodeFailure(JSON.stringify(doc));
    expect(error.code).toBe('SESSION_DECODE_FAILED');
    expect(error.problems.map((p) => p.path)).toEqual([path]);
    expect(error.message).toBe(`SESSION_DECODE_FAILED: ${path}: ${error.problems[0]!.message}.`);
    expect(error.message).toContain(phrase);
  });

  it.each([
    ['text that is not JSON', '{"version":"1.0",', 'not valid JSON'],
    ['JSON that is not an object', '[1,2]', 'is an array, not a session document'],
    ['a JSON string', '"hello"', 'is a string, not a session document'],
  ])('refuses %s', (_name, text, phrase) => {
    const error = decodeFailure(text);
    expect(error.message.startsWith('SESSION_DECODE_FAILED: link: ')).toBe(true);
    expect(error.message).toContain(phrase);
  });
});
