// Nesting read from the text agrees with nesting read from the parsed value; the JSON size lower bound never exceeds
// the real size.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSessionOperations } from '../../src/session/operations.js';
import { countOpeners, nestsDeeperThan, textNestsDeeperThan } from '../../src/session/json-scan.js';
import { jsonBytes, MAX_JSON_BYTES } from '../../src/session/json-size.js';
import { loadCodec } from '../../src/codec/node.js';
import { arbitrarySession, minimalSession } from '../fixtures/sessions.js';

/** JSON values nested up to ~12 levels, with strings full of brackets, quotes and backslashes. */
const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ', '\u00e9') });
const nested = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 12 }, tricky, fc.integer(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(tricky, tie('value'), { maxKeys: 3 })),
})).value;

describe('textNestsDeeperThan', () => {
  it('says what nestsDeeperThan says of the parsed value, for every limit', () => {
    fc.assert(
      fc.property(nested, fc.integer({ min: 0, max: 8 }), fc.boolean(), (value, limit, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(textNestsDeeperThan(text, limit)).toBe(nestsDeeperThan(JSON.parse(text), limit));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads 900,000 levels without parsing them; containers at depth 63 are allowed with limit 64, at 64 not', () => {
    expect(textNestsDeeperThan(`{"a":${'['.repeat(900_000)}${']'.repeat(900_000)}}`, 64)).toBe(true);
    expect(textNestsDeeperThan(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`, 64)).toBe(false);
    expect(textNestsDeeperThan(`{"a":${'['.repeat(64)}${']'.repeat(64)}}`, 64)).toBe(true);
    expect(textNestsDeeperThan(`{"a":"${'['.repeat(1000)}\\"${'['.repeat(1000)}"}`, 64)).toBe(false);
  });

  it('countOpeners counts brackets and braces and stops past its bound', () => {
    expect(countOpeners('{"a":[1,{"b":"[{"}]}', 100)).toBe(5);
    expect(countOpeners('['.repeat(1000), 10)).toBe(11);
  });
});

describe('the lower bound of a walked document\'s JSON size', () => {
  it('is never more than the UTF-8 length of its JSON (any JSON value, any code unit, generated sessions)', () => {
    const anyUnit = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(anyUnit, fc.array(anyUnit)), arbitrarySession()), (value) => {
        expect(jsonBytes(value, 'at least')).toBeLessThanOrEqual(Buffer.byteLength(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
    // Exact for ASCII without escapes: numbers, literals, brackets, keys and separators are counted, not estimated.
    const ascii = { a: [1, 'xy', [], {}, -2.5e-7], b: { c: null, d: true, e: false, f: 1440 } };
    expect(jsonBytes(ascii, 'at least')).toBe(JSON.stringify(ascii).length);
  });

  it('leaves out undefined members and counts undefined entries as null, as JSON.stringify writes them, in both measures', () => {
    const holes = { a: undefined, b: [undefined, 1], c: { d: undefined }, e: 'x' };
    const written = JSON.stringify(holes).length;
    expect(jsonBytes(holes)).toBe(written);
    expect(jsonBytes(holes, 'at least')).toBe(written);
  });

  it('refuses a walked 2 MB document by the bound (the exact size, for ASCII) and one of 3-byte characters after serializing it', async () => {
    const operations = createSessionOperations(loadCodec);
    // Not canonical (no date, no startTime): the walk builds it, the bound refuses it before serializing.
    const long = { ...minimalSession(), workshop: { title: 'T', description: 'x'.repeat(MAX_JSON_BYTES) } };
    const exact = Buffer.byteLength(JSON.stringify({ ...long, workshop: { ...long.workshop, date: null, startTime: null } }));
    await expect(operations.createSessionLink(long)).rejects.toThrow(`SESSION_VALIDATION_FAILED: session: the JSON text of the document is at least ${exact.toLocaleString('en-US')} bytes`);
    // 700,000 code units of 3 bytes: under the bound, over the limit; the exact check after serializing refuses it.
    const wide = { ...minimalSession(), workshop: { title: 'T', description: '\u20ac'.repeat(700_000) } };
    await expect(operations.createSessionLink(wide)).rejects.toThrow(/^SESSION_VALIDATION_FAILED: session: the JSON text of the document is more than 2,000,000 bytes/);
  });
});
