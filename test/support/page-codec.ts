// Runs inside Chromium (bundled by esbuild in the test): the shipped browser codec beside lz-string, compared and timed in one page.
import LZString from 'lz-string';
import { loadCodec } from '../../src/codec/browser.js';
import { differentialCases } from './codec-cases.js';

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
