// A/B profiler: two codec.wasm builds (and lz-string) on the plan corpus in one process, interleaved, as ratios.
//
// Usage: npx tsx bench/codec-ab.ts A.wasm B.wasm [--samples 41] [--only compress|decompress] [--no-lz]
// Build a variant with `npx asc assembly/index.ts --target release -o /tmp/b.wasm`. On a shared 2-core machine
// absolute times move with the load from second to second, so A, B and lz-string are timed call by call in
// rotating order and the report gives ratios of their medians (and of their minima), plus the share of each call spent
// inside WASM (the rest is moving the strings in and out, which a change to assembly/ cannot speed up).

import { readFile } from 'node:fs/promises';
import lz from 'lz-string';
import { bufferStrings, createCodec } from '../src/codec/node.js';
import type { Codec, CodecExports } from '../src/codec/types.js';
import { buildCorpus } from './codec-cases.js';

interface Build {
  readonly name: string;
  readonly codec: Codec;
  readonly exports: CodecExports;
}

async function load(path: string): Promise<Build> {
  const module = await WebAssembly.compile(await readFile(path));
  const instance = new WebAssembly.Instance(module, {});
  return { name: path, codec: createCodec(module, { instance, strings: bufferStrings }), exports: instance.exports as unknown as CodecExports };
}

const argument = (flag: string, fallback: string): string => {
  const index = process.argv.indexOf(flag);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const [pathA = 'build/codec.wasm', pathB = 'build/codec.wasm'] = process.argv.slice(2).filter((value, index, all) => !value.startsWith('--') && !all[index - 1]?.startsWith('--'));
const samples = Number(argument('--samples', '41'));
/** lz-string takes 10–40× as long as a WASM call: --no-lz leaves it out of a quick A/B. */
const withLz = !process.argv.includes('--no-lz');
const only = argument('--only', '');

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/**
 * Times the calls call by call in rotating order (A B C, B C A, …), so a change in the machine's load hits all
 * of them alike; returns each call's sample times in ms (after two warm-up calls each).
 */
function timeInterleaved(calls: readonly (() => unknown)[], samples: number): number[][] {
  for (const call of calls) {
    call();
    call();
  }
  const times = calls.map((): number[] => []);
  for (let sample = 0; sample < samples; sample++) {
    for (let step = 0; step < calls.length; step++) {
      const index = (sample + step) % calls.length;
      const start = performance.now();
      calls[index]?.();
      times[index]?.push(performance.now() - start);
    }
  }
  return times;
}

/** The WASM part of a call alone: the exports, with the input written (decompress packs it in place) but no string read out. */
function wasmOnly(build: Build, direction: 'compress' | 'decompress', input: string): () => unknown {
  const { exports } = build;
  if (direction === 'compress') {
    const pointer = exports.compressBegin(input.length);
    bufferStrings.writeUtf16(exports.memory.buffer, pointer, input);
    return () => {
      exports.compressBegin(input.length);
      return exports.compress(input.length);
    };
  }
  return () => {
    const pointer = exports.decompressBegin(input.length);
    bufferStrings.writeUtf16(exports.memory.buffer, pointer, input);
    return exports.decompress(input.length);
  };
}

const a = await load(pathA);
const b = await load(pathB);
const corpus = buildCorpus(a.codec);
for (const shape of corpus) {
  // An A/B of two builds is only meaningful when both are the same codec.
  if (b.codec.compress(shape.plan) !== shape.payload || lz.compressToEncodedURIComponent(shape.plan) !== shape.payload) {
    throw new Error(`${shape.name}: the builds or lz-string disagree on the payload`);
  }
  if (b.codec.decompress(shape.payload) !== shape.plan) throw new Error(`${shape.name}: B does not decode its payload`);
}

console.log(`A = ${pathA}, B = ${pathB}; ${samples} samples per call, interleaved; ${new Date().toISOString()}`);
console.log('| direction | shape | A ns/unit | B ns/unit | B speed-up (medians) | (minima) | in WASM: B speed-up | A × lz | B × lz | A in WASM | B in WASM |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const direction of ['compress', 'decompress'] as const) {
  if (only !== '' && only !== direction) continue;
  for (const shape of corpus) {
    const input = direction === 'compress' ? shape.plan : shape.payload;
    const lzCall = direction === 'compress' ? () => lz.compressToEncodedURIComponent(input) : () => lz.decompressFromEncodedURIComponent(input);
    const calls = [() => a.codec[direction](input), () => b.codec[direction](input), wasmOnly(a, direction, input), wasmOnly(b, direction, input)];
    if (withLz) calls.push(lzCall);
    const [timesA = [], timesB = [], wasmA = [], wasmB = [], timesLz = []] = timeInterleaved(calls, samples);
    const ns = (times: number[]): string => ((median(times) * 1e6) / shape.plan.length).toFixed(1);
    const share = (part: number[], whole: number[]): string => `${Math.round((median(part) / median(whole)) * 100)} %`;
    const vsLz = (times: number[]): string => (withLz ? `${(median(timesLz) / median(times)).toFixed(1)}×` : '—');
    const speedUp = `${(median(timesA) / median(timesB)).toFixed(3)}×`;
    const speedUpMin = `${(Math.min(...timesA) / Math.min(...timesB)).toFixed(3)}×`;
    const wasmSpeedUp = `${(median(wasmA) / median(wasmB)).toFixed(3)}×`;
    console.log(`| ${direction} | ${shape.name} | ${ns(timesA)} | ${ns(timesB)} | ${speedUp} | ${speedUpMin} | ${wasmSpeedUp} | ${vsLz(timesA)} | ${vsLz(timesB)} | ${share(wasmA, timesA)} | ${share(wasmB, timesB)} |`);
  }
}
