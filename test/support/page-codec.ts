// Runs inside Chromium (bundled by esbuild in the test): the shipped browser codec beside lz-string, compared and timed in one page.
import LZString from 'lz-string';
import { CodecError, createCodec, loadCodec } from '../../src/codec/browser.js';
import { hasStringBuiltins, memoryUtf16Reader } from '../../src/codec/string-builtins.js';
import { isomorphicStrings } from '../../src/codec/strings.js';
import { differentialCases } from './codec-cases.js';
import { parseLink } from '../../src/session/link.js';

export interface DifferentialResult {
  cases: number;
  mismatches: string[];
  /** The browser codec's payloads, so the Node side can compare them with Node's (payloads are ASCII: safe to transfer). */
  payloads: string[];
}

/** Every case: WASM compress == lz-string compress, and WASM decompress of lz-string's payload == the original text. */
export async function runDifferential(wasmUrl: string, seed: number, count: number): Promise<DifferentialResult> {
  const codec = await loadCodec(wasmUrl);
  const cases = differentialCases(seed, count);
  const mismatches: string[] = [];
  const payloads: string[] = [];
  cases.forEach((text, index) => {
    const expected = LZString.compressToEncodedURIComponent(text);
    try {
      const payload = codec.compress(text);
      payloads.push(payload);
      if (payload !== expected) mismatches.push(`case ${index} (${text.length} units): compress differs from lz-string`);
      if (codec.decompress(expected) !== text) mismatches.push(`case ${index} (${text.length} units): decompress of lz-string's payload differs`);
      if (LZString.decompressFromEncodedURIComponent(payload) !== text) mismatches.push(`case ${index}: lz-string cannot read the WASM payload back`);
    } catch (error) {
      payloads.push('');
      mismatches.push(`case ${index} (${text.length} units): ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { cases: cases.length, mismatches, payloads };
}

export interface Timing {
  /** Median milliseconds per operation. */
  wasmCompress: number;
  lzCompress: number;
  wasmDecompress: number;
  lzDecompress: number;
  rounds: number;
}

/** Median time per call of `operation`, each sample running it enough times to last ≥ 20 ms (timer resolution is coarse). */
function sampler(operation: () => void): () => number {
  let repeat = 1;
  return () => {
    for (;;) {
      const start = performance.now();
      for (let index = 0; index < repeat; index += 1) operation();
      const elapsed = performance.now() - start;
      if (elapsed >= 20) return elapsed / repeat;
      repeat *= 2;
    }
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Interleaved rounds of WASM and lz-string on the same text in the same page, so both see the same machine state. */
export async function timeCodecs(wasmUrl: string, text: string, rounds: number): Promise<Timing> {
  const codec = await loadCodec(wasmUrl);
  const payload = LZString.compressToEncodedURIComponent(text);
  if (codec.compress(text) !== payload || codec.decompress(payload) !== text) throw new Error('codec and lz-string disagree on the timed text');
  const samplers = {
    wasmCompress: sampler(() => codec.compress(text)),
    lzCompress: sampler(() => LZString.compressToEncodedURIComponent(text)),
    wasmDecompress: sampler(() => codec.decompress(payload)),
    lzDecompress: sampler(() => LZString.decompressFromEncodedURIComponent(payload)),
  };
  const samples = { wasmCompress: [] as number[], lzCompress: [] as number[], wasmDecompress: [] as number[], lzDecompress: [] as number[] };
  for (const take of Object.values(samplers)) take(); // warm-up: JIT tiers, WASM tier-up, calibration
  for (let round = 0; round < rounds; round += 1) {
    for (const key of Object.keys(samplers) as Array<keyof typeof samplers>) samples[key].push(samplers[key]());
  }
  return {
    wasmCompress: median(samples.wasmCompress),
    lzCompress: median(samples.lzCompress),
    wasmDecompress: median(samples.wasmDecompress),
    lzDecompress: median(samples.lzDecompress),
    rounds,
  };
}

export interface StringTransferCheck {
  /** Whether this engine runs the wasm:js-string reader (strings.ts); false means the fromCharCode fallback. */
  builtins: boolean;
  /** Texts read back from linear memory by the codec's reader that differ from what was written there. */
  readMismatches: string[];
  /** Texts compressed by lz-string and decoded by the codec in the page. */
  roundTrips: number;
  /** Payloads the codec sent as bytes (writeAscii answered true) / as UTF-16. */
  asciiWrites: number;
  utf16Writes: number;
  /** Per refused payload: the CodecError code and message (compared with Node's in the test). */
  refusals: string[];
}

/** Texts that stress an exact transfer: every code unit in one string, BOM first, lone surrogates at the ends, nothing. */
function transferTexts(): string[] {
  let everyUnit = '';
  for (let unit = 0; unit < 0x10000; unit += 1) everyUnit += String.fromCharCode(unit);
  return ['', '\uFEFF', '\uFEFFbom first', '\uD800', 'tail \uDBFF', '\uDC00 head', '😀', 'ASCII only {"a":1}', everyUnit,
    `\uFEFF${everyUnit}\uD800`, 'Grüße – ½ € ✓ 😀 '.repeat(20_000)];
}

/** The browser string transfer on its own (memory → string) and inside the shipped codec (payload bytes in, text out). */
export async function checkStringTransfer(wasmUrl: string, refused: string[]): Promise<StringTransferCheck> {
  // As in the product: loadCodec compiles the reader module (asynchronously) while it loads codec.wasm.
  await loadCodec(wasmUrl);
  const readMismatches: string[] = [];
  const memory = new WebAssembly.Memory({ initial: 64 });
  const read = memoryUtf16Reader(memory);
  for (const [index, text] of transferTexts().entries()) {
    const pointer = 64 + index * 2; // also at addresses that are not 4- or 8-byte aligned
    const units = new Uint16Array(memory.buffer, pointer, text.length);
    for (let unit = 0; unit < text.length; unit += 1) units[unit] = text.charCodeAt(unit);
    if (read(memory.buffer, pointer, text.length) !== text) readMismatches.push(`text ${index} (${text.length} units)`);
    // A length read for the first time goes through TextDecoder, the second time through the GC array: both exact.
    if (read(memory.buffer, pointer, text.length) !== text) readMismatches.push(`text ${index} (${text.length} units), read again`);
  }

  const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
  let asciiWrites = 0;
  let utf16Writes = 0;
  const codec = createCodec(module, {
    strings: {
      writeAscii(buffer, pointer, text) {
        const ascii = isomorphicStrings.writeAscii!(buffer, pointer, text);
        if (ascii) asciiWrites += 1;
        else utf16Writes += 1;
        return ascii;
      },
    },
  });
  let roundTrips = 0;
  for (const [index, text] of transferTexts().entries()) {
    // The empty payload is refused by design; every-unit texts overflow the dictionary budget (the reader check covers them).
    if (text.length === 0 || text.length > 60_000) continue;
    roundTrips += 1;
    if (codec.decompress(LZString.compressToEncodedURIComponent(text)) !== text) readMismatches.push(`codec, text ${index}`);
  }
  const refusals = refused.map((payload) => {
    try {
      codec.decompress(payload);
      return 'accepted';
    } catch (error) {
      return error instanceof CodecError ? `${error.code}: ${error.message}` : `not a CodecError: ${String(error)}`;
    }
  });
  return { builtins: hasStringBuiltins(), readMismatches, roundTrips, asciiWrites, utf16Writes, refusals };
}

/** One reading of a link: the payload the shared reader found, or its refusal. */
export type LinkReading = { payload: string } | { refused: string };

export interface LinkReadings {
  /** parseLink of the whole text, as the server reads what a client sends. */
  whole: LinkReading;
  /** parseLink of the fragment this engine's URL parser finds (what the page reads from location.hash); null for texts that are not URLs. */
  fromHash: LinkReading | null;
}

function reading(text: string): LinkReading {
  try {
    return { payload: parseLink(text) };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/** Texts a browser can open as a link (test/fixtures/link-corpus.ts has the same rule). */
const isBrowserLink = (link: string): boolean => /^\s*https?:\/\//.test(link);

/** Both readings of every link, with this engine's URL parser (the same function runs in Node for comparison). */
export function readLinks(links: readonly string[]): LinkReadings[] {
  return links.map((link) => ({ whole: reading(link), fromHash: isBrowserLink(link) ? reading(new URL(link).hash) : null }));
}
