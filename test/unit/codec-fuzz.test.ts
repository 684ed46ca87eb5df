// Mutation fuzz: ≥ 20,000 damaged payloads per run give a CodecError or exactly what lz-string decodes.
//
// The format has no checksum, so a damaged payload can be another valid stream (docs/codec.md); the
// codec cannot tell. What it guarantees: it never crashes or hangs, never returns something lz-string
// would not, and refuses every truncation, extension and foreign character (our stricter policy).

import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { CodecError, loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';
import { createRandom, planJsonOfSize } from '../fixtures/plans.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const FOREIGN = ['%', '=', '/', '.', 'é', '\u0000', '\ud83d', '😀', '\n', 'Ａ'];
const random = createRandom(20_261_202);
const below = (limit: number): number => Math.floor(random() * limit);
const alphabetChar = (): string => ALPHABET.charAt(below(64));

let codec: Codec;
let sources: string[];
beforeAll(async () => {
  codec = await loadCodec();
  const texts: string[] = [];
  for (let index = 0; index < 60; index++) {
    const plan = planJsonOfSize(400 + below(3_000), index + 100);
    texts.push(index % 3 === 0 ? plan.replace(/"title":/g, '"__proto__":') : plan);
  }
  texts.push('', 'a', 'ab', '\ufeff', 'a'.repeat(300), '\ud800\udc00\ud800');
  sources = texts.map((text) => lz.compressToEncodedURIComponent(text));
});

type Outcome = { kind: 'text'; text: string } | { kind: 'error'; error: CodecError };

function ours(payload: string): Outcome {
  try {
    return { kind: 'text', text: codec.decompress(payload) };
  } catch (error) {
    if (error instanceof CodecError) return { kind: 'error', error };
    throw error;
  }
}

function oracle(payload: string): string | null | 'threw' {
  try {
    return lz.decompressFromEncodedURIComponent(payload);
  } catch {
    return 'threw';
  }
}

function source(): string {
  return sources[below(sources.length)] ?? 'Q';
}

const replaceAt = (text: string, at: number, by: string): string => text.slice(0, at) + by + text.slice(at + 1);

describe('mutation fuzz', () => {
  it('substitutions, insertions, deletions and swaps: CodecError or exactly lz-string’s result (12,000 cases)', () => {
    let refused = 0;
    for (let round = 0; round < 12_000; round++) {
      const payload = source();
      const at = below(payload.length);
      const kind = round % 4;
      const mutated =
        kind === 0 ? replaceAt(payload, at, alphabetChar())
        : kind === 1 ? payload.slice(0, at) + alphabetChar() + payload.slice(at)
        : kind === 2 ? payload.slice(0, at) + payload.slice(at + 1)
        : payload.slice(0, at) + payload.charAt(at + 1) + payload.charAt(at) + payload.slice(at + 2);
      const outcome = ours(mutated);
      if (outcome.kind === 'error') {
        refused++;
        continue;
      }
      const expected = oracle(mutated);
      if (outcome.text !== expected) {
        throw new Error(`decoded ${JSON.stringify(outcome.text.slice(0, 80))} where lz-string gives ${JSON.stringify(expected)} for ${JSON.stringify(mutated)}`);
      }
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('every truncation and every appended character is refused (4,000 cases)', () => {
    for (let round = 0; round < 4_000; round++) {
      const payload = source();
      const mutated = round % 2 === 0 ? payload.slice(0, below(payload.length)) : payload + Array.from({ length: 1 + below(3) }, alphabetChar).join('');
      const outcome = ours(mutated);
      if (outcome.kind === 'text') throw new Error(`accepted the damaged payload ${JSON.stringify(mutated)}`);
      expect(outcome.error.code).toBe('INVALID_PAYLOAD');
    }
  });

  it('every foreign character is refused, naming its position (2,000 cases)', () => {
    for (let round = 0; round < 2_000; round++) {
      const payload = source();
      const at = below(payload.length);
      const outcome = ours(replaceAt(payload, at, FOREIGN[round % FOREIGN.length] ?? '%'));
      if (outcome.kind === 'text') throw new Error('accepted a foreign character');
      expect(outcome.error.code).toBe('INVALID_PAYLOAD');
    }
  });

  it('a space instead of "+" (form-encoding damage) still gives the exact original (2,000 cases)', () => {
    let checked = 0;
    for (let round = 0; round < 2_000; round++) {
      const payload = source();
      const original = codec.decompress(payload);
      const spaced = payload.replace(/\+/g, () => (random() < 0.5 ? ' ' : '+'));
      expect(codec.decompress(spaced)).toBe(original);
      checked++;
    }
    expect(checked).toBe(2_000);
  });

  it('random alphabet strings: CodecError or exactly lz-string’s result (3,000 cases)', () => {
    for (let round = 0; round < 3_000; round++) {
      const garbage = Array.from({ length: 1 + below(round < 2_000 ? 12 : 400) }, alphabetChar).join('');
      const outcome = ours(garbage);
      if (outcome.kind === 'text') expect(outcome.text).toBe(oracle(garbage));
    }
  });

  it('the codec keeps working after all of that', () => {
    const text = planJsonOfSize(20_000, 9);
    expect(codec.decompress(codec.compress(text))).toBe(text);
  });
});
