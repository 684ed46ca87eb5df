// Nesting read from the text agrees with nesting read from the parsed value; ID checks as loops agree with their regex.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafAccepts } from '../src/session/leaf.js';
import { countOpeners, nestsDeeperThan, textNestsDeeperThan } from '../src/session/limits.js';
import { blockSchema, ID_PATTERN } from '../src/session/schema.js';

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

describe('ID and length regexes as loops', () => {
  it('the ID check agrees with ID_PATTERN for every code unit, at the length bounds', () => {
    const accepts = leafAccepts(blockSchema.shape.id)!;
    for (let c = 0; c <= 0xffff; c++) {
      const text = `a${String.fromCharCode(c)}`;
      expect(accepts(text)).toBe(ID_PATTERN.test(text));
    }
    for (const text of ['', 'x'.repeat(128), 'x'.repeat(129), '\ud800', 7, null]) expect(accepts(text)).toBe(typeof text === 'string' && ID_PATTERN.test(text));
  });

  it('a bounded text is a length check', () => {
    const accepts = leafAccepts(blockSchema.shape.title)!;
    for (const text of ['', 'a', '\n', 'x'.repeat(200), 'x'.repeat(201), 5]) expect(accepts(text)).toBe(typeof text === 'string' && /^[\s\S]{1,200}$/.test(text));
  });
});
