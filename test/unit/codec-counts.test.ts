// lastCompressCounts: the dictionary entries and content bytes a compress reports equal what lz-string's LZW builds.
import fc from 'fast-check';
import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODEC_BUDGETS, CodecError, loadCodec, type Codec } from '../../src/codec/node.js';
import { planOfSize } from '../fixtures/sessions.js';

/**
 * The oracle: lz-string 1.5.0's compression loop, reduced to its dictionary. Every distinct unit is an entry of length
 * 1 and every phrase written adds `w + c`; the entries the decoder rebuilds are these (docs/codec.md, "Budgets").
 * Texts here never contain "__proto__", the one phrase lz-string's object dictionary cannot hold.
 */
function lzwCounts(text: string): { dictionaryEntries: number; contentBytes: number } {
  const dictionary = new Set<string>();
  let entries = 0;
  let content = 0;
  let w = '';
  for (const c of text) {
    for (const unit of c.length === 1 ? [c] : [c[0]!, c[1]!]) {
      if (!dictionary.has(unit)) {
        dictionary.add(unit);
        entries++;
        content += 1;
      }
      const wc = w + unit;
      if (dictionary.has(wc)) w = wc;
      else {
        dictionary.add(wc);
        entries++;
        content += wc.length;
        w = unit;
      }
    }
  }
  return { dictionaryEntries: entries, contentBytes: content * 2 };
}

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

describe('lastCompressCounts', () => {
  it('equals the LZW dictionary of lz-string for a realistic plan', () => {
    const text = JSON.stringify(planOfSize(60_000));
    const payload = codec.compress(text);
    expect(payload).toBe(lz.compressToEncodedURIComponent(text));
    const counts = codec.lastCompressCounts();
    expect(counts).toEqual(lzwCounts(text));
    expect(counts.dictionaryEntries).toBeGreaterThan(1000);
  });

  it('equals the oracle for arbitrary texts, astral and lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: fc.constantFrom('a', 'b', 'ä', '😀', '\ud800', '{', '"', ' ') }), (text) => {
        codec.compress(text);
        expect(codec.lastCompressCounts()).toEqual(lzwCounts(text));
      }),
      { numRuns: 300 },
    );
  });

  it('reports 0 for the empty text', () => {
    codec.compress('');
    expect(codec.lastCompressCounts()).toEqual({ dictionaryEntries: 0, contentBytes: 0 });
  });

  it('is not changed by a refused compress: it keeps describing the last payload made', () => {
    const text = JSON.stringify(planOfSize(5_000));
    codec.compress(text);
    const before = codec.lastCompressCounts();
    // Text that makes a new entry almost every unit crosses the dictionary budget long before the output budget.
    let noise = '';
    for (let i = 0; noise.length < 300_000; i++) noise += String.fromCharCode(0x4e00 + ((i * 7919) % 20_000));
    expect(() => codec.compress(noise)).toThrow(CodecError);
    expect(codec.lastCompressCounts()).toEqual(before);
    expect(before.dictionaryEntries).toBeLessThanOrEqual(CODEC_BUDGETS.dictionaryEntries);
  });
});
