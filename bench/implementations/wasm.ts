// The WASM codec (Node entry, Buffer string transfer) on its own instance, so its memory can be inspected.

import { bufferStrings, createCodec, loadCodecModule } from '../../src/codec/node.js';
import type { CodecImplementation } from './types.js';

export interface WasmImplementation extends CodecImplementation {
  /** The whole decompression in WASM without reading the text out (Codec.decompressedLength): the decoder's own cost. */
  decodeOnly(payload: string): number;
  /** Current size of the instance's linear memory. */
  memoryBytes(): number;
}

export async function loadWasm(): Promise<WasmImplementation> {
  const module = await loadCodecModule();
  const instance = new WebAssembly.Instance(module, {});
  const codec = createCodec(module, { instance, strings: bufferStrings });
  const memory = instance.exports.memory as WebAssembly.Memory;
  return {
    name: 'wasm',
    compress: (text) => codec.compress(text),
    decompress: (payload) => codec.decompress(payload),
    decodeOnly: (payload) => codec.decompressedLength(payload),
    memoryBytes: () => memory.buffer.byteLength,
  };
}
