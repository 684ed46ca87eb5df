// The benchmark's plan corpus (test/fixtures/plan-corpus.ts): valid session documents, trimmed by the budgets, identical to lz-string.

import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { CodecError, loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';
import { validateForCreate } from '../../src/session/validate.js';
import { CORPUS_SHAPES } from '../fixtures/plan-corpus.js';
import { trimToFit } from '../fixtures/plans.js';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const fits = (json: string): boolean => {
  try {
    codec.compress(json);
    return true;
  } catch (error) {
    if (error instanceof CodecError) return false;
    throw error;
  }
};

describe('plan corpus', () => {
  it('has at least six shapes with distinct names', () => {
    expect(CORPUS_SHAPES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(CORPUS_SHAPES.map((shape) => shape.name)).size).toBe(CORPUS_SHAPES.length);
  });

  for (const shape of CORPUS_SHAPES) {
    describe(shape.name, () => {
      it('is deterministic, valid and canonical at its largest in-budget size, and trimmed by a budget of the codec', () => {
        const plan = shape.plan();
        expect(JSON.stringify(shape.plan())).toBe(JSON.stringify(plan));
        const json = trimToFit(plan, fits);
        const items = (JSON.parse(json) as { items: unknown[] }).items.length;
        const allItems = (plan.items as unknown[]).length;
        // A budget trims it, not the generator: the whole plan does not fit, one more item does not either (the
        // dictionary's; the copied items' text, long and cheap to compress, meets the output's first).
        expect(items).toBeGreaterThan(10);
        expect(items).toBeLessThan(allItems);
        const oneMore = JSON.stringify({ ...plan, items: (plan.items as unknown[]).slice(0, items + 1) });
        expect(() => codec.compress(oneMore)).toThrow(expect.objectContaining({ code: shape.name === 'copied-items' ? 'OUTPUT_BUDGET' : 'DICTIONARY_BUDGET' }) as Error);
        // A document create accepts as it is (normalized key order, every rule kept).
        expect(validateForCreate(JSON.parse(json)).json).toBe(json);
        // Bit-identical to lz-string, and both decoders give it back.
        const payload = codec.compress(json);
        expect(payload).toBe(lz.compressToEncodedURIComponent(json));
        expect(codec.decompress(payload)).toBe(json);
        expect(lz.decompressFromEncodedURIComponent(payload)).toBe(json);
      });
    });
  }

  it('spans the scripts and code-unit kinds the codec treats differently', () => {
    const plans = Object.fromEntries(CORPUS_SHAPES.map((shape) => [shape.name, JSON.stringify(shape.plan()).slice(0, 200_000)]));
    const share = (text: string, test: (unit: number) => boolean): number => {
      let count = 0;
      for (let index = 0; index < text.length; index++) if (test(text.charCodeAt(index))) count++;
      return count / text.length;
    };
    const surrogate = (unit: number): boolean => unit >= 0xd800 && unit < 0xe000;
    expect(share(plans['cjk-prose'] ?? '', (unit) => unit >= 0x4e00 && unit <= 0x9fff)).toBeGreaterThan(0.3);
    expect(share(plans['emoji-heavy'] ?? '', surrogate)).toBeGreaterThan(0.1);
    // Only the person names are not ASCII there.
    expect(share(plans['base36-words'] ?? '', (unit) => unit >= 0x80)).toBeLessThan(0.001);
  });
});
