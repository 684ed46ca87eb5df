// Published lz-string vectors (test/fixtures/lz-string-vectors.ts): the oracle and our codec agree with each, both directions.

import lz from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { CodecError, loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';
import { LEGACY_PAYLOADS, PUBLISHED_VECTORS, vectorPayload } from '../fixtures/lz-string-vectors.js';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

describe('published lz-string vectors', () => {
  it('come from lz-string itself and from ports in several languages', () => {
    expect(PUBLISHED_VECTORS.length).toBeGreaterThanOrEqual(25);
    const ports = new Set(PUBLISHED_VECTORS.map((vector) => vector.source.split(' ')[0]));
    expect(ports.size).toBeGreaterThanOrEqual(6);
  });

  PUBLISHED_VECTORS.forEach((vector, index) => {
    const label = `#${index + 1} ${JSON.stringify(vector.text.slice(0, 30))} (${vector.source})`;
    it(label, () => {
      const payload = vectorPayload(vector);
      // The oracle: lz-string 1.5.0 writes exactly the published payload and reads it back.
      if (vector.base64 !== undefined) expect(lz.compressToBase64(vector.text)).toBe(vector.base64);
      expect(lz.compressToEncodedURIComponent(vector.text)).toBe(payload);
      expect(lz.decompressFromEncodedURIComponent(payload)).toBe(vector.text);
      // Our codec, both directions.
      expect(codec.compress(vector.text)).toBe(payload);
      expect(codec.decompress(payload)).toBe(vector.text);
    });
  });
});

describe('legacy spellings lz-string still reads', () => {
  for (const legacy of LEGACY_PAYLOADS) {
    it(`are refused as trailing data, while lz-string 1.5.0's own spelling decodes (${legacy.source})`, () => {
      const payload = vectorPayload(legacy);
      if (legacy.base64 !== undefined) expect(lz.decompressFromBase64(legacy.base64)).toBe(legacy.text);
      expect(lz.decompressFromEncodedURIComponent(payload)).toBe(legacy.text);
      // 1.5.0 writes a shorter spelling of the same stream, which our codec writes and reads too.
      const current = lz.compressToEncodedURIComponent(legacy.text);
      expect(payload.replace(/ /g, '+').startsWith(current)).toBe(true);
      expect(codec.compress(legacy.text)).toBe(current);
      expect(codec.decompress(current)).toBe(legacy.text);
      // Our decoder accepts only lz-string's own zero flush after the end code (docs/codec.md, decoder policy).
      let refusal: unknown;
      try {
        codec.decompress(payload);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(CodecError);
      expect((refusal as CodecError).code).toBe('INVALID_PAYLOAD');
      expect((refusal as CodecError).message).toMatch(/extra characters? follows? the end of the data/);
    });
  }
});
