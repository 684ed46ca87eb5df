// JSON in pieces: joined, exactly JSON.stringify (and its string literal exactly JSON.stringify of that), for any JSON data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatText, joinText, jsonStringLiteral, jsonText, PIECE_CHARS, textLength } from '../../src/session/json-pieces.js';
import { hostileCases, maximalDocument } from '../fixtures/hostile-cases.js';
import { arbitrarySession, planOfSize } from '../fixtures/sessions.js';

/** Characters that JSON treats specially: quotes, backslashes, controls, non-ASCII, pairs and lone surrogates. */
const tricky = fc.constantFrom('a', 'Z', ' ', '"', '\\', '/', '\n', '\u0000', '\u001f', '\u007f', 'ä', '€', '😀', '\ud800', '\udbff', '\udc00', '\u2028', '\ufeff');
const trickyString = fc.array(tricky, { maxLength: 40 }).map((chars) => chars.join(''));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.double({ noNaN: false }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 12 }),
    fc.dictionary(fc.oneof(trickyString, fc.constantFrom('__proto__', 'constructor', '0', '10', '-1')), tie('value'), { maxKeys: 8 }),
  ),
})).value;

/** No boundary between two pieces falls between the halves of a surrogate pair. */
function pairsWhole(pieces: readonly string[]): boolean {
  for (let i = 1; i < pieces.length; i++) {
    const before = pieces[i - 1]!.charCodeAt(pieces[i - 1]!.length - 1);
    const after = pieces[i]!.charCodeAt(0);
    if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) return false;
  }
  return true;
}

function expectExact(value: unknown, pieceChars: number): void {
  const expected = JSON.stringify(value);
  const text = jsonText(value, true, pieceChars);
  expect(joinText(text) === expected).toBe(true);
  expect(textLength(text)).toBe(expected.length);
  const literal = jsonStringLiteral(text);
  expect(joinText(literal) === JSON.stringify(expected)).toBe(true);
  if (typeof text !== 'string') {
    expect(pairsWhole(text)).toBe(true);
    expect(text.every((piece) => piece.length > 0)).toBe(true);
  }
}

describe('jsonText', () => {
  it('is JSON.stringify for any JSON data, split at any piece size (fast-check)', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(1, 2, 3, 5, 8, 13, 64, 1024), (value, pieceChars) => expectExact(value, pieceChars)),
      { numRuns: 2000 },
    );
  });

  it('is JSON.stringify for session documents, and for values JSON.parse made (own __proto__ keys, sparse-free arrays)', () => {
    fc.assert(fc.property(arbitrarySession(), fc.constantFrom(7, 50, 400), (session, pieceChars) => expectExact(session, pieceChars)), { numRuns: 200 });
    const parsed = JSON.parse('{"__proto__":{"a":[1,"\\ud83d\\ude00",null]},"constructor":{"prototype":1},"b":[{"__proto__":2}]}') as unknown;
    for (const pieceChars of [1, 4, 16]) expectExact(parsed, pieceChars);
  });

  it('leaves out what JSON.stringify leaves out, and writes null where it does', () => {
    const value = { a: undefined, b: () => 1, c: Symbol('c'), d: [undefined, () => 1, Symbol('d'), 1], e: 'x' };
    for (const pieceChars of [1, 3, 100]) expectExact(value, pieceChars);
  });

  it('keeps pieces near their size on real documents: a large plan, the largest valid plan, hostile shapes', () => {
    const documents = [planOfSize(1_900_000), maximalDocument(), ...hostileCases().filter((c) => c.operation === 'create' && c.argumentJson.length > 1_000_000 && !c.name.includes('nested')).map((c) => JSON.parse(c.argumentJson) as unknown)];
    for (const document of documents) {
      const text = jsonText(document, true);
      expect(typeof text).not.toBe('string');
      const pieces = text as readonly string[];
      expect(pieces.join('') === JSON.stringify(document)).toBe(true);
      // Gathered writes stay under the size; only a member name is never split (hostile keys of 90,000 characters).
      const long = pieces.filter((piece) => piece.length > 4 * PIECE_CHARS);
      expect(long.every((piece) => /^,?"[^"]*":$/.test(piece))).toBe(true);
    }
  });

  it('is one string when not asked for pieces, or when the text is short', () => {
    const small = { title: 'short' };
    expect(jsonText(small, true)).toBe(JSON.stringify(small));
    const large = { items: Array.from({ length: 5_000 }, (_, i) => ({ id: `b${i}` })) };
    expect(jsonText(large, false)).toBe(JSON.stringify(large));
    expect(Array.isArray(jsonText(large, true))).toBe(true);
  });

  it('a string longer than a piece is cut between code units, never inside a surrogate pair', () => {
    const long = `${'a'.repeat(PIECE_CHARS - 1)}😀${'😀'.repeat(PIECE_CHARS)}\ud800`;
    expectExact(long, PIECE_CHARS);
    expectExact([long, { long }], PIECE_CHARS);
    for (let offset = 0; offset < 4; offset++) expectExact(`${'b'.repeat(offset)}${'😀'.repeat(40)}`, 7);
  });
});

describe('concatText', () => {
  it('joins strings into a string and anything with pieces into pieces, in order', () => {
    expect(concatText(['{"a":', '1', '}'])).toBe('{"a":1}');
    const mixed = concatText(['{"a":', ['[1', ',2]'], '}']);
    expect(mixed).toEqual(['{"a":', '[1', ',2]', '}']);
    expect(joinText(mixed)).toBe('{"a":[1,2]}');
  });
});
