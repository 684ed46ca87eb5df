// Node entry of the codec: reads codec.wasm from disk, compiles it once, moves strings with Buffer.

import { readFile } from 'node:fs/promises';
import { createCodec } from './core.js';
import type { Codec, StringTransfer } from './types.js';

export { CodecError, CODEC_BUDGETS, CODEC_MEMORY_LIMIT_BYTES } from './errors.js';
export type { CodecErrorCode } from './errors.js';
export type { Codec, CompressCounts, DecompressOptions, JsonSpan, StringTransfer } from './types.js';
export { createCodec } from './core.js';
export type { CodecOptions } from './core.js';

/** dist/codec/codec.wasm sits next to the built file; under src/ (tests, tsx) use the build output. */
const WASM_LOCATIONS = [new URL('./codec.wasm', import.meta.url), new URL('../../build/codec.wasm', import.meta.url)];

/** Buffer copies code units verbatim (BOM and lone surrogates included) and is far faster than a JS loop. */
export const bufferStrings: StringTransfer = {
  writeUtf16(memory, pointer, text) {
    Buffer.from(memory, pointer, text.length * 2).write(text, 0, text.length * 2, 'utf16le');
  },
  readUtf16(memory, pointer, units) {
    return Buffer.from(memory, pointer, units * 2).toString('utf16le');
  },
  readAscii(memory, pointer, length) {
    return Buffer.from(memory, pointer, length).toString('latin1');
  },
  readLatin1(memory, pointer, length) {
    return Buffer.from(memory, pointer, length).toString('latin1');
  },
};

let compiled: Promise<WebAssembly.Module> | undefined;
let shared: Promise<Codec> | undefined;

async function readWasm(): Promise<Uint8Array<ArrayBuffer>> {
  for (const location of WASM_LOCATIONS) {
    try {
      return new Uint8Array(await readFile(location));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error('codec.wasm was not found next to the codec or in build/; run `npm run build` first.');
}

/** The compiled codec module, compiled once per process. */
export function loadCodecModule(): Promise<WebAssembly.Module> {
  compiled ??= readWasm().then((bytes) => WebAssembly.compile(bytes));
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

/** The process-wide codec (one WASM instance; calls are synchronous, so sharing is safe). */
export function loadCodec(): Promise<Codec> {
  shared ??= loadCodecModule().then((module) => createCodec(module, { strings: bufferStrings }));
  shared.catch(() => {
    shared = undefined;
  });
  return shared;
}
