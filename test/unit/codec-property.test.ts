// Property tests: ≥ 10,000 random strings per run compress bit-identically to lz-string and round-trip.

import fc from 'fast-check';
import lz from 'lz-string';
import { beforeAll, describe, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';

const RUNS_PER_SHAPE = 2_500;

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

function sameAsLzString(text: string): boolean {
  const payload = codec.compress(text);
  return payload === lz.compressToEncodedURIComponent(text) && codec.decompress(payload) === text;
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Few distinct pieces, so phrases repeat, chains grow (KwKwK) and "__proto__" gets assembled. */
const repetitivePiece = fc.constantFrom('a', 'b', '_', '__', 'proto', '__proto__', 'p', 'r', 'o', 't', '\u00ff', '\u0100', '\ud800', ' ');

describe('random strings against lz-string (4 shapes × 2,500 runs)', () => {
  it('arbitrary UTF-16 code units, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: anyCodeUnit, maxLength: 400 }), sameAsLzString), { numRuns: RUNS_PER_SHAPE });
  });

  it('repetitive text from a tiny alphabet, including __proto__ pieces', () => {
    fc.assert(fc.property(fc.string({ unit: repetitivePiece, maxLength: 1_500 }), sameAsLzString), { numRuns: RUNS_PER_SHAPE });
  });

  it('well-formed Unicode (astral characters as surrogate pairs)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), sameAsLzString), { numRuns: RUNS_PER_SHAPE });
  });

  it('JSON documents', () => {
    fc.assert(fc.property(fc.json({ maxDepth: 4 }), sameAsLzString), { numRuns: RUNS_PER_SHAPE });
  });
});
