// Budget tests: bombs, floods, over-long payloads and over-budget plans are refused at once, in bounded memory.

import { readFile } from 'node:fs/promises';
import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODEC_BUDGETS, CODEC_MEMORY_LIMIT_BYTES, CodecError, createCodec, loadCodecModule } from '../../src/codec/node.js';
import type { Codec, CodecErrorCode } from '../../src/codec/node.js';
import { bufferStrings } from '../../src/codec/node.js';
import { entryFlood, kwkwkBomb, literalFlood, newestEntryBomb } from '../fixtures/codec-stream.js';
import { planJsonOfSize } from '../fixtures/plans.js';

/** "Immediate" with a wide margin for a busy 2-core CI box; the benchmark measures the real figure. */
const IMMEDIATE_MS = 250;
const SIXTEEN_MB = 16 * 1024 * 1024;

let codec: Codec;
let memory: WebAssembly.Memory;
beforeAll(async () => {
  const module = await loadCodecModule();
  const instance = new WebAssembly.Instance(module, {});
  memory = instance.exports.memory as WebAssembly.Memory;
  codec = createCodec(module, { instance, strings: bufferStrings });
  codec.decompress(codec.compress('warm-up'.repeat(1000)));
});

function refusal(call: () => unknown): { error: CodecError; milliseconds: number } {
  const started = performance.now();
  try {
    call();
  } catch (error) {
    const milliseconds = performance.now() - started;
    if (!(error instanceof CodecError)) throw error;
    return { error, milliseconds };
  }
  throw new Error('the call was expected to throw a CodecError but returned normally');
}

function expectRefusedAtOnce(call: () => unknown, code: CodecErrorCode, mention: RegExp): CodecError {
  const { error, milliseconds } = refusal(call);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(mention);
  expect(error.message.split(/[.!?](\s|$)/).filter((part) => part.trim().length > 1)).toHaveLength(1);
  expect(milliseconds).toBeLessThan(IMMEDIATE_MS);
  expect(memory.buffer.byteLength).toBeLessThanOrEqual(CODEC_MEMORY_LIMIT_BYTES);
  return error;
}

describe('decompression bombs', () => {
  it('the 3,336-character link that lz-string expands to 2,003,001 units hits the output budget', () => {
    const bomb = kwkwkBomb(2000);
    expect(bomb).toHaveLength(3336);
    expect(lz.decompressFromEncodedURIComponent(bomb)).toHaveLength(2_003_001);
    const error = expectRefusedAtOnce(() => codec.decompress(bomb), 'OUTPUT_BUDGET', /limit of 4,000,000 bytes/);
    expect(error.message).toMatch(/more than the limit/);
  });

  for (const codes of [2_000, 20_000, 32_000, 40_000]) {
    it(`KwKwK bomb with ${codes.toLocaleString('en-US')} codes is refused at once`, () => {
      const bomb = kwkwkBomb(codes);
      expectRefusedAtOnce(() => codec.decompress(bomb), 'OUTPUT_BUDGET', /output budget/i);
    });
  }

  it('KwKwK bomb on a 16-bit literal and the newest-entry bomb are refused too', () => {
    const wide = kwkwkBomb(5_000, 0x20ac);
    const newest = newestEntryBomb(5_000);
    expectRefusedAtOnce(() => codec.decompress(wide), 'OUTPUT_BUDGET', /4,000,000/);
    expectRefusedAtOnce(() => codec.decompress(newest), 'OUTPUT_BUDGET', /4,000,000/);
  });

  it('a KwKwK chain that stays within the output budget decodes exactly like lz-string', () => {
    const payload = kwkwkBomb(1_990);
    const text = codec.decompress(payload);
    expect(text.length * 2).toBeLessThanOrEqual(CODEC_BUDGETS.outputBytes);
    expect(text).toBe(lz.decompressFromEncodedURIComponent(payload));
  });

  it('floods of entries hit the dictionary budget at entry 65,537', () => {
    const entries = entryFlood(70_000);
    const literals = literalFlood(40_000);
    expectRefusedAtOnce(() => codec.decompress(entries), 'DICTIONARY_BUDGET', /65,536 dictionary entries/);
    expectRefusedAtOnce(() => codec.decompress(literals), 'DICTIONARY_BUDGET', /65,536 dictionary entries/);
  });

  it('a flood of exactly 65,536 entries is still accepted', () => {
    // First literal = 1 entry; each repeated code adds one phrase entry.
    const payload = entryFlood(65_535);
    expect(codec.decompress(payload)).toBe(lz.decompressFromEncodedURIComponent(payload));
    expect(() => codec.decompress(entryFlood(65_536))).toThrow(CodecError);
  });
});

describe('payload length', () => {
  it('750,001 characters are refused before decoding, whatever they are', () => {
    expectRefusedAtOnce(() => codec.decompress('A'.repeat(750_001)), 'PAYLOAD_TOO_LONG', /750,001 characters, 1 more than the limit of 750,000/);
    expectRefusedAtOnce(() => codec.decompress('%'.repeat(750_001)), 'PAYLOAD_TOO_LONG', /750,000/);
    expectRefusedAtOnce(() => codec.decompress('x'.repeat(5_000_000)), 'PAYLOAD_TOO_LONG', /4,250,000 more/);
  });

  it('750,000 characters are decoded (and here refused for another reason)', () => {
    const { error } = refusal(() => codec.decompress('A'.repeat(750_000)));
    expect(error.code).not.toBe('PAYLOAD_TOO_LONG');
  });
});

describe('compression budgets', () => {
  it('a 2 MB realistic plan overflows the dictionary and is refused early; its lz-string payload is too long', () => {
    const plan = planJsonOfSize(2_000_000, 3);
    expect(plan.length).toBeGreaterThan(1_900_000);
    const error = expectRefusedAtOnce(() => codec.compress(plan), 'DICTIONARY_BUDGET', /65,536 dictionary entries/);
    expect(error.message).toMatch(/times too large/);
    const payload = lz.compressToEncodedURIComponent(plan);
    expect(payload.length).toBeGreaterThan(CODEC_BUDGETS.payloadChars);
    expectRefusedAtOnce(() => codec.decompress(payload), 'PAYLOAD_TOO_LONG', /limit of 750,000/);
    // Its first 400 KB still overflow the dictionary when decoding, at the same entry count.
    const prefix = lz.compressToEncodedURIComponent(plan.slice(0, 400_000));
    expectRefusedAtOnce(() => codec.decompress(prefix), 'DICTIONARY_BUDGET', /65,536 dictionary entries/);
    expectRefusedAtOnce(() => codec.compress(plan.slice(0, 400_000)), 'DICTIONARY_BUDGET', /65,536 dictionary entries/);
  });

  it('text over 2,000,000 UTF-16 units hits the output budget before any work', () => {
    expectRefusedAtOnce(() => codec.compress('a'.repeat(2_000_001)), 'OUTPUT_BUDGET', /4,000,002 bytes as UTF-16, 2 more than the limit of 4,000,000/);
    expectRefusedAtOnce(() => codec.compress('ab'.repeat(4_000_000)), 'OUTPUT_BUDGET', /16,000,000 bytes/);
  });

  it('exactly 2,000,000 units of repetitive text fit every budget and decode with lz-string', () => {
    const text = 'The quick brown fox jumps. '.repeat(74_074) + 'x'.repeat(2);
    expect(text).toHaveLength(2_000_000);
    const payload = codec.compress(text);
    expect(codec.decompress(payload)).toBe(text);
    // lz-string's compressor takes seconds here, so the oracle checks the other direction.
    expect(lz.decompressFromEncodedURIComponent(payload)).toBe(text);
  });

  /** The longest prefix of `text` that compresses, found by bisection on characters. */
  function longestCompressiblePrefix(text: string): number {
    let low = 0;
    let high = text.length;
    while (low + 1 < high) {
      const middle = (low + high) >> 1;
      try {
        codec.compress(text.slice(0, middle));
        low = middle;
      } catch {
        high = middle;
      }
    }
    return low;
  }

  const boundaryTexts: [string, () => string][] = [
    ['a realistic plan', () => planJsonOfSize(600_000, 4)],
    ['random wide code units', () => Array.from({ length: 40_000 }, (_, index) => String.fromCharCode(0x100 + ((index * 7_919) % 50_000))).join('')],
    ['__proto__-heavy text', () => Array.from({ length: 60_000 }, (_, index) => (index % 3 === 0 ? '__proto__' : String.fromCharCode(0x4e00 + ((index * 31) % 20_000)))).join('')],
  ];
  for (const [name, make] of boundaryTexts) {
    it(`compressor and decoder agree to the character where the dictionary budget starts (${name})`, () => {
      const text = make();
      const fits = longestCompressiblePrefix(text);
      expect(fits).toBeLessThan(text.length);
      const lastFitting = text.slice(0, fits);
      const firstOver = text.slice(0, fits + 1);
      // The last prefix that compresses: identical to lz-string, and decodes within every budget.
      const payload = codec.compress(lastFitting);
      expect(payload).toBe(lz.compressToEncodedURIComponent(lastFitting));
      expect(codec.decompress(payload)).toBe(lastFitting);
      // One character more: the compressor refuses, and so does the decoder on lz-string's payload.
      expect(() => codec.compress(firstOver)).toThrow(expect.objectContaining({ code: 'DICTIONARY_BUDGET' }) as Error);
      expect(() => codec.decompress(lz.compressToEncodedURIComponent(firstOver))).toThrow(expect.objectContaining({ code: 'DICTIONARY_BUDGET' }) as Error);
    });
  }
});

describe('WASM memory', () => {
  it('stays under the stated cap (≤ 16 MB) after every budget test, and cannot grow past it', async () => {
    expect(CODEC_MEMORY_LIMIT_BYTES).toBeLessThanOrEqual(SIXTEEN_MB);
    expect(memory.buffer.byteLength).toBeLessThanOrEqual(CODEC_MEMORY_LIMIT_BYTES);
    const asconfig = JSON.parse(await readFile(new URL('../../asconfig.json', import.meta.url), 'utf8')) as { options: { maximumMemory: number } };
    expect(asconfig.options.maximumMemory * 65_536).toBe(CODEC_MEMORY_LIMIT_BYTES);
    const pages = memory.buffer.byteLength / 65_536;
    expect(() => memory.grow(CODEC_MEMORY_LIMIT_BYTES / 65_536 - pages + 1)).toThrow(RangeError);
  });

  it('a fresh instance refuses every bomb while staying within 16 MB', async () => {
    const module = await loadCodecModule();
    const instance = new WebAssembly.Instance(module, {});
    const fresh = createCodec(module, { instance });
    for (const bomb of [kwkwkBomb(40_000), newestEntryBomb(5_000), entryFlood(70_000)]) {
      expect(() => fresh.decompress(bomb)).toThrow(CodecError);
    }
    expect((instance.exports.memory as WebAssembly.Memory).buffer.byteLength).toBeLessThanOrEqual(SIXTEEN_MB);
  });
});
