// Isomorphic string transfer for core.ts: exact UTF-16 both ways (BOM and lone surrogates kept).

import type { StringTransfer } from './types.js';

/** fromCharCode.apply takes this many arguments comfortably on every engine. */
const CHUNK_UNITS = 8192;

function fromCharCodes(units: Uint16Array | Uint8Array): string {
  let text = '';
  for (let offset = 0; offset < units.length; offset += CHUNK_UNITS) {
    text += String.fromCharCode.apply(null, Array.from(units.subarray(offset, offset + CHUNK_UNITS)));
  }
  return text;
}

// fatal: lone surrogates must not become U+FFFD (we fall back instead); ignoreBOM: keep a leading U+FEFF.
const utf16Decoder = typeof TextDecoder === 'function' ? new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }) : undefined;
const asciiDecoder = typeof TextDecoder === 'function' ? new TextDecoder('latin1') : undefined;

export const isomorphicStrings: StringTransfer = {
  writeUtf16(memory, pointer, text) {
    const view = new Uint16Array(memory, pointer, text.length);
    for (let index = 0; index < text.length; index++) view[index] = text.charCodeAt(index);
  },
  readUtf16(memory, pointer, units) {
    const view = new Uint16Array(memory, pointer, units);
    if (utf16Decoder !== undefined) {
      try {
        return utf16Decoder.decode(view);
      } catch {
        // Lone surrogates: the fatal decoder refuses them, the slow path keeps them.
      }
    }
    return fromCharCodes(view);
  },
  readAscii(memory, pointer, length) {
    const view = new Uint8Array(memory, pointer, length);
    return asciiDecoder !== undefined ? asciiDecoder.decode(view) : fromCharCodes(view);
  },
};
