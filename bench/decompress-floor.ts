// How fast decompress could be at best on each corpus shape: making its output string alone, against lz-string's whole call.
//
// Usage: npx tsx bench/decompress-floor.ts [--samples 15]
// A decompress returns one JavaScript string of the plan. Making that string from the decoded units (Buffer.toString,
// as src/codec/node.ts does; TextDecoder costs the same) is a fresh large object for V8, whose pages fault in on first
// touch, and on some virtual machines a fault costs ~10 µs. This times, call by call in rotating order: lz-string's
// decompress, the codec's decompress, and the string-making step alone from the codec's output (the decoder itself taken
// out), and prints the ratio lz-string ÷ string-making: no decoder can beat lz-string by more than that here. Last, it
// times first writes to fresh memory without V8 strings involved, which is what the string-making step pays for.

import { readFileSync } from 'node:fs';
import lz from 'lz-string';
import { readOutputText } from '../src/codec/core.js';
import { bufferStrings, createCodec, loadCodecModule } from '../src/codec/node.js';
import type { CodecExports } from '../src/codec/types.js';
import { buildCorpus } from './codec-cases.js';

const flagIndex = process.argv.indexOf('--samples');
const samples = flagIndex >= 0 ? Number(process.argv[flagIndex + 1]) : 15;

const module = await loadCodecModule();
const instance = new WebAssembly.Instance(module, {});
const exports = instance.exports as unknown as CodecExports;
const codec = createCodec(module, { instance, strings: bufferStrings });

/** Minor page faults of this process so far (field 10 of /proc/self/stat). */
function pageFaults(): number {
  return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[7] ?? NaN);
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[values.length >> 1] ?? NaN;

console.log(`${samples} samples per call, rotating order; Node ${process.version}; ${new Date().toISOString()}`);
console.log('| shape | output units | lz-string ms | codec ms | string alone ms | faults per string | lz ÷ codec | lz ÷ string alone (the ceiling) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const shape of buildCorpus(codec)) {
  // The string-making step reads the codec's output of this payload, left in linear memory by a decompress.
  const units = codec.decompressedLength(shape.payload);
  // The codec's own last step, with the Buffer-based strings it was made with.
  const stringAlone = (): string => readOutputText(exports, units, bufferStrings.readUtf16, bufferStrings.readLatin1);
  let lastStringMs = 0;
  const calls: (() => string)[] = [() => lz.decompressFromEncodedURIComponent(shape.payload) ?? '', () => codec.decompress(shape.payload), () => {
    codec.decompressedLength(shape.payload);
    const start = performance.now();
    const text = stringAlone();
    lastStringMs = performance.now() - start;
    return text;
  }];
  // Same text from all three, or the comparison means nothing.
  const texts = calls.map((call) => call());
  if (texts[0] !== shape.plan || texts[1] !== shape.plan || texts[2] !== shape.plan) throw new Error(`${shape.name}: the three calls disagree`);
  const times: number[][] = [[], [], []];
  const faults: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    for (let step = 0; step < calls.length; step++) {
      const index = (sample + step) % calls.length;
      const before = pageFaults();
      const start = performance.now();
      calls[index]!();
      const ms = performance.now() - start;
      if (index === 2) {
        times[2]!.push(lastStringMs);
        faults.push(pageFaults() - before);
      } else times[index]!.push(ms);
    }
  }
  const [lzMs, codecMs, stringMs] = times.map(median) as [number, number, number];
  console.log(
    `| ${shape.name} | ${units.toLocaleString('en-US')} | ${lzMs.toFixed(2)} | ${codecMs.toFixed(2)} | ${stringMs.toFixed(2)} | ${median(faults)} | ${(lzMs / codecMs).toFixed(1)}× | ${(lzMs / stringMs).toFixed(1)}× |`,
  );
}

// What fresh memory costs on this machine, with V8 and the string taken out: the first write to each 4 KB page of a
// new WebAssembly.Memory (a fresh mapping, as a large string's page is), against writing the same bytes again.
const FRESH_PAGES = 15; // 15 × 64 KiB = 960 KiB, about the repetitive shape's 958 KB string
const firstTouch: number[] = [];
for (let sample = 0; sample < 4 * samples; sample++) {
  const bytes = new Uint8Array(new WebAssembly.Memory({ initial: FRESH_PAGES }).buffer);
  const start = performance.now();
  for (let at = 0; at < bytes.length; at += 4096) bytes[at] = 1;
  firstTouch.push(performance.now() - start);
}
const touched = new Uint8Array(new WebAssembly.Memory({ initial: FRESH_PAGES }).buffer);
touched.fill(1);
const rewrite: number[] = [];
for (let sample = 0; sample < 4 * samples; sample++) {
  const start = performance.now();
  touched.fill(sample & 0xff);
  rewrite.push(performance.now() - start);
}
const firstTouchMs = median(firstTouch);
console.log(
  `\nFresh memory, ${FRESH_PAGES * 64} KiB: first write to each page ${firstTouchMs.toFixed(2)} ms ` +
    `(${((firstTouchMs * 1000) / (FRESH_PAGES * 16)).toFixed(1)} µs per 4 KB page), writing all of it again ${median(rewrite).toFixed(3)} ms.`,
);
