// CI gate (npm run bench:check): a short codec benchmark that fails when WASM is not fast enough vs lz-string on the worst corpus shape.

import { formatReport, runCodecBenchmarks } from './codec-suite.js';
import { writeResults } from './results.js';

/**
 * Gates on the minimum ratio over the plan corpus (every shape, not one plan): lz-string's speed depends strongly
 * on the text, so one plan can hide a slow shape. The goals are 20× compress and 12× decompress on the worst shape;
 * seven runs of `npm run bench` and of this check on 2026-12-03 (2 vCPUs shared with other jobs, Node 20) measured
 * worst shapes of 21.9–28.7× compress (median 26.7×) and 16.9–19.9× decompress (median 17.9×). Most of that spread
 * is lz-string's own speed, which moved up to 2× between runs (it builds a string per unit; the GC's state
 * decides what that costs). So the gates sit under the lowest run by a margin for that noise.
 *
 * A whole decompress is mostly the string of the text, not the decoding: 85–89 % of the call is the engine making a
 * fresh large string (docs/codec.md, "Benchmarks"), and on 2026-12-04 that cost doubled on this machine kind (page
 * faults on first touch). The code that measured 17.9× on 2026-12-03 (c8f011b, built again) then measured 9.4×, and
 * today's 9.2–9.5×. So the decoder itself is gated as `decode` (the whole decompression in WASM, budgets included,
 * without reading the text out: worst shape 76.5× and 94.4× lz-string's decompress in two runs on 2026-12-04, gated
 * with a third of margin for lz-string's swings), and the whole call with a margin under the machine's worst day
 * (9.2×): a slower decoder fails the first, a slower string transfer the second.
 * Only the corpus is timed here (about 2.5 minutes).
 */
const GATES = { compress: 18, decompress: 7, decode: 50 } as const;

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
