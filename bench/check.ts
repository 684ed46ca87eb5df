// CI gate (npm run bench:check): a short codec benchmark that fails when WASM is not fast enough vs lz-string on the worst corpus shape.

import { formatReport, runCodecBenchmarks } from './codec-suite.js';
import { writeResults } from './results.js';

/**
 * Gates on the minimum ratio over the plan corpus (every shape, not one plan): lz-string's speed depends strongly
 * on the text, so one plan can hide a slow shape. lz-string's own speed swings between runs (it builds a string per
 * unit, and the GC's state decides what that costs), so each gate sits under the lowest run measured on the CI
 * machine kind by a margin for that noise (docs/benchmarks.md, "CI gates").
 *
 * A whole decompress is mostly the engine making the text's fresh large string, not the decoding, and that cost
 * follows the machine's page faults. So the decoder itself is gated as `decode` (the whole decompression in WASM,
 * budgets included, without reading the text out), and the whole call separately: a slower decoder fails the
 * first, a slower string transfer the second. Only the corpus is timed here. Its most compressible shape (copied-items)
 * is the lowest in both: nearly all of its work is writing a text of 2 M units, where lz-string is at its fastest too.
 */
const GATES = { compress: 18, decompress: 6, decode: 20 } as const;

const report = await runCodecBenchmarks({ minSamples: 5, maxTime: 0.25 }, 'corpus', 3);
// --save (npx tsx bench/check.ts --save) also replaces the corpus figures docs/benchmarks.md quotes.
const written = writeResults('codec-check.json', report);
console.log(`\n${formatReport(report)}\n\nSaved ${written.join(' and ')}`);

const { minCompressRatio, worstCompressShape, minDecompressRatio, worstDecompressShape, minDecodeRatio, worstDecodeShape } = report.corpus;
const failures = [
  { direction: 'compress', ratio: minCompressRatio, shape: worstCompressShape, gate: GATES.compress },
  { direction: 'decompress', ratio: minDecompressRatio, shape: worstDecompressShape, gate: GATES.decompress },
  { direction: 'decode in WASM', ratio: minDecodeRatio, shape: worstDecodeShape, gate: GATES.decode },
].filter(({ ratio, gate }) => !(ratio >= gate));
for (const { direction, ratio, shape, gate } of failures) {
  console.error(`FAIL ${direction}: ${ratio.toFixed(1)}× on the worst corpus shape (${shape}) is below the gate of ${gate}×`);
}
if (failures.length === 0) {
  console.log(
    `PASS compress ≥ ${GATES.compress}×, decompress ≥ ${GATES.decompress}× and decode in WASM ≥ ${GATES.decode}× lz-string on every corpus shape ` +
      `(worst: ${minCompressRatio.toFixed(1)}× ${worstCompressShape}, ${minDecompressRatio.toFixed(1)}× ${worstDecompressShape}, ${minDecodeRatio.toFixed(1)}× ${worstDecodeShape})`,
  );
}
process.exitCode = failures.length === 0 ? 0 : 1;
