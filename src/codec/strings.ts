// Isomorphic string transfer for core.ts (the browser entry's): exact UTF-16 both ways (BOM and lone surrogates kept).

import type { StringTransfer } from './types.js';

/**
 * Units per String.fromCharCode.apply call: as fast as larger chunks in Chromium, and under the size at which
 * Node 20's V8 falls off a cliff; engines also cap the argument count.
 */
const CHUNK_UNITS = 8192;

/**
 * Code units → string, exactly. The typed array goes to apply() directly (an Array.from copy is
 * slower); TextDecoder('utf-16le') is slower in Chromium and needs a fallback for lone surrogates anyway.
 */
function fromCharCodes(units: Uint16Array | Uint8Array): string {
  let text = '';
  for (let offset = 0; offset < units.length; offset += CHUNK_UNITS) {
    // apply() accepts any array-like; TypeScript's signature only admits number[].
    text += String.fromCharCode.apply(null, units.subarray(offset, offset + CHUNK_UNITS) as unknown as number[]);
  }
  return text;
}

const asciiDecoder = typeof TextDecoder === 'function' ? new TextDecoder('latin1') : undefined;
const asciiEncoder = typeof TextEncoder === 'function' ? new TextEncoder() : undefined;

export const isomorphicStrings: StringTransfer = {
  writeUtf16(memory, pointer, text) {
    const view = new Uint16Array(memory, pointer, text.length);
    for (let index = 0; index < text.length; index++) view[index] = text.charCodeAt(index);
  },
  readUtf16(memory, pointer, units) {
    return fromCharCodes(new Uint16Array(memory, pointer, units));
  },
  readAscii(memory, pointer, length) {
    const view = new Uint8Array(memory, pointer, length);
    return asciiDecoder !== undefined ? asciiDecoder.decode(view) : fromCharCodes(view);
  },
  writeAscii(memory, pointer, text) {
    if (asciiEncoder === undefined) return false;
    // UTF-8 of ASCII is the bytes themselves; any other character needs ≥ 2 bytes, so it cannot fit.
    const { read, written } = asciiEncoder.encodeInto(text, new Uint8Array(memory, pointer, text.length));
    return read === text.length && written === text.length;
  },
};
