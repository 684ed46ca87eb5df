// Payload packing (assembly/payload.ts): foreign characters named exactly at every offset of the 16-character blocks, on both input paths.

import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { CodecError, bufferStrings, createCodec, loadCodecModule } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';
import { planJsonOfSize } from '../fixtures/plans.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-';

let utf16: Codec;
let bytes: Codec;
beforeAll(async () => {
  const module = await loadCodecModule();
  // The Node entry writes every payload as UTF-16; the isomorphic transfer writes ASCII payloads as bytes.
  utf16 = createCodec(module, { strings: bufferStrings });
  bytes = createCodec(module);
});

function refusal(codec: Codec, payload: string): string {
  try {
    codec.decompress(payload);
    return 'accepted';
  } catch (error) {
    if (error instanceof CodecError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

const hex = (unit: number): string => `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;

describe('foreign characters in a payload', () => {
  it('are named with their position at every offset of the first, middle and last blocks, on both paths', () => {
    const payload = lz.compressToEncodedURIComponent(planJsonOfSize(3_000, 5));
    expect(payload.length).toBeGreaterThan(200);
    const positions = new Set<number>();
    for (let at = 0; at < 48; at++) positions.add(at);
    for (let at = 96; at < 144; at++) positions.add(at);
    for (let at = payload.length - 40; at < payload.length; at++) positions.add(at);
    // ASCII outside the alphabet (the byte path), then units that narrow to 0 or 255 or keep a high bit in one byte.
    const foreign = ['%', '\u0000', '\u007f', '=', 'é', '\u00ff', '\u0100', '\u0141', '\u8041', '\uffff', '\ud83d'];
    for (const at of positions) {
      for (const [index, char] of foreign.entries()) {
        if ((at + index) % 3 !== 0 && at >= 16 && at < payload.length - 16) continue;
        const damaged = payload.slice(0, at) + char + payload.slice(at + 1);
        const expected = new RegExp(`^INVALID_PAYLOAD: Invalid payload: character (?:'.' \\()?${hex(char.charCodeAt(0)).replace('+', '\\+')}\\)? at position ${at.toLocaleString('en-US')} `);
        expect(refusal(utf16, damaged)).toMatch(expected);
        expect(refusal(bytes, damaged)).toBe(refusal(utf16, damaged));
      }
    }
  });

  it('every code unit outside the alphabet is refused, inside a block and in the last group', () => {
    const payload = lz.compressToEncodedURIComponent('a block of text long enough for two blocks of sixteen');
    const refused: number[] = [];
    for (let unit = 0; unit < 0x10000; unit++) {
      const char = String.fromCharCode(unit);
      if (ALPHABET.includes(char) || char === ' ') continue;
      for (const at of [5, payload.length - 2]) {
        const damaged = payload.slice(0, at) + char + payload.slice(at + 1);
        if (refusal(utf16, damaged).includes(`character `) && refusal(utf16, damaged).includes(` at position ${at} `)) refused.push(unit);
      }
    }
    // 65,536 units minus the 64 alphabet characters and the space, each at two positions.
    expect(refused.length).toBe((0x10000 - 65) * 2);
  });

  it('"$" (index 64 of lz-string’s alphabet string, never written) is refused; a space reads as "+"', () => {
    const text = 'space and plus: the payload of this text has a plus in it';
    const payload = lz.compressToEncodedURIComponent(text);
    const at = payload.indexOf('+');
    expect(at).toBeGreaterThanOrEqual(0);
    for (const codec of [utf16, bytes]) {
      expect(codec.decompress(payload.slice(0, at) + ' ' + payload.slice(at + 1))).toBe(text);
      expect(refusal(codec, payload.slice(0, at) + '$' + payload.slice(at + 1))).toMatch(/character '\$' \(U\+0024\) at position/);
    }
  });
});
