// Browser entry of the codec: fetches codec.wasm (next to this file by default) and streams it in.

import { createCodec } from './core.js';
import { prepareStringBuiltins } from './string-builtins.js';
import type { Codec } from './types.js';

export { CodecError, CODEC_BUDGETS, CODEC_MEMORY_LIMIT_BYTES } from './errors.js';
export type { CodecErrorCode } from './errors.js';
export type { Codec, CompressCounts, DecompressOptions, JsonSpan, StringTransfer } from './types.js';
export { createCodec } from './core.js';
export type { CodecOptions } from './core.js';

const loaded = new Map<string, Promise<Codec>>();

async function instantiateFrom(url: URL | string): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`codec.wasm could not be loaded from ${String(url)}: HTTP ${response.status}.`);
  const fallback = response.clone();
  try {
    return await WebAssembly.instantiateStreaming(response, {});
  } catch {
    // Served without Content-Type: application/wasm, streaming compilation refuses it; compile the bytes.
    return await WebAssembly.instantiate(await fallback.arrayBuffer(), {});
  }
}

/** Loads the codec once per URL; the default is the codec.wasm shipped beside this module. */
export function loadCodec(url: URL | string = new URL('./codec.wasm', import.meta.url)): Promise<Codec> {
  const key = String(url);
  let codec = loaded.get(key);
  if (codec === undefined) {
    // The string reader's module (strings.ts) compiles meanwhile, so the first decompress does not wait for it.
    codec = Promise.all([instantiateFrom(url), prepareStringBuiltins()]).then(([{ module, instance }]) => createCodec(module, { instance }));
    codec.catch(() => loaded.delete(key));
    loaded.set(key, codec);
  }
  return codec;
}
