// Differential tests: the WASM codec against lz-string 1.5.0 (the oracle) on fixed vectors.

import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';
import { planJsonOfSize } from '../fixtures/plans.js';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

/** Compress must equal lz-string bit for bit, and both decoders must give the text back. */
function expectCompatible(text: string): void {
  const expected = lz.compressToEncodedURIComponent(text);
  const payload = codec.compress(text);
  expect(payload).toBe(expected);
  expect(codec.decompress(payload)).toBe(text);
  expect(lz.decompressFromEncodedURIComponent(payload)).toBe(text);
}

const codeUnits = (from: number, to: number, step = 1): string => {
  let text = '';
  for (let unit = from; unit < to; unit += step) text += String.fromCharCode(unit);
  return text;
};

describe('codec matches lz-string on fixed vectors', () => {
  const vectors: Record<string, string> = {
    empty: '',
    'one char': 'a',
    'one wide char': 'Ж',
    'two chars': 'ab',
    'repeated char (KwKwK)': 'a'.repeat(1000),
    'classic LZW text': 'TOBEORNOTTOBEORTOBEORNOT',
    BOM: '\ufeff',
    'BOM then text': '\ufeff{"version":"1.0"}',
    'lone high surrogate': '\ud800',
    'lone low surrogate': '\udc00',
    'lone surrogates in text': 'ab\udfffcd\ud83dxy\ud83d',
    emoji: '🎯✅💡 Plan 🚀☕📌 😀😀😀',
    'NUL and controls': '\u0000\u0001\u001f\u007f\u0000\u0000',
    'byte boundary units': '\u00ff\u0100\u00ff\u0100',
    'last code unit': '\uffff\uffff\ufffe',
    umlauts: 'Jürgen Größer grüßt die Übungsgruppe: äöüÄÖÜß',
    '__proto__ once': '__proto__',
    '__proto__ repeated': '__proto__'.repeat(50),
    '__proto__ in JSON keys': JSON.stringify({ __proto__: 1, a: { ['__proto__']: '__proto__' } }) + '"__proto__":'.repeat(30),
    'prototype-like keys': 'constructor toString hasOwnProperty valueOf __defineGetter__ __proto__x_proto__'.repeat(20),
    'underscores': '_'.repeat(100) + '__proto_' + '_'.repeat(3),
  };
  for (const [name, text] of Object.entries(vectors)) {
    it(name, () => expectCompatible(text));
  }

  it('every one of the 65,536 code units (in four blocks that fit the dictionary budget)', () => {
    for (let block = 0; block < 4; block++) {
      expectCompatible(codeUnits(block * 16384, (block + 1) * 16384));
    }
  });

  it('every code unit twice, interleaved, and in reverse', () => {
    expectCompatible(codeUnits(0, 65536, 4) + codeUnits(1, 65536, 4));
    expectCompatible(codeUnits(0, 65536, 4).split('').reverse().join('').repeat(2));
  });

  it('realistic plans of 20 KB and 200 KB', () => {
    expectCompatible(planJsonOfSize(20_000, 1));
    expectCompatible(planJsonOfSize(200_000, 2));
  });
});

describe('compression tables reused from call to call', () => {
  // compress.ts keeps its tables between calls and tells calls apart by a generation (1..127) instead of clearing them:
  // this runs past several generation wraps with growing and shrinking inputs, decompressions in between (which overwrite
  // the tables) and texts that share phrases, so a stale entry from an earlier call would show as a wrong payload.
  it('300 calls of mixed sizes, interleaved with decompressions, each equal to lz-string', () => {
    const plans = [planJsonOfSize(2_000, 3), planJsonOfSize(60_000, 4), 'a', planJsonOfSize(9_000, 5), 'ab'.repeat(500)];
    for (let call = 0; call < 300; call += 1) {
      const text = plans[call % plans.length]!;
      const payload = codec.compress(text);
      expect(payload).toBe(lz.compressToEncodedURIComponent(text));
      if (call % 7 === 0) expect(codec.decompress(payload)).toBe(text);
    }
  });
});
