// CI gate (npm run bench:check): a short codec benchmark that fails when WASM is not fast enough vs lz-string.

import { mkdir, writeFile } from 'node:fs/promises';
import { formatReport, runCodecBenchmarks } from './codec-suite.js';

/** Gates with a noise margin (issue 2): the goals are 25× and 12×. */
const GATES = { compress: 12, decompress: 6 } as const;

const report = await runCodecBenchmarks({ minSamples: 5, maxTime: 0.5 }, false, 3);
const folder = new URL('./results/local/', import.meta.url);
await mkdir(folder, { recursive: true });
await writeFile(new URL('codec-check.json', folder), `${JSON.stringify(report, null, 2)}\n`);
console.log(`\n${formatReport(report)}\n`);

const failures = report.comparisons
  .filter((row) => row.case === 'compress, largest in-budget plan' || row.case === 'decompress, largest in-budget plan')
  .map((row) => ({ row, gate: row.case.startsWith('compress') ? GATES.compress : GATES.decompress }))
  .filter(({ row, gate }) => !(row.ratio >= gate));
for (const { row, gate } of failures) console.error(`FAIL ${row.case}: ${row.ratio.toFixed(1)}× is below the gate of ${gate}×`);
if (failures.length === 0) console.log(`PASS compress ≥ ${GATES.compress}× and decompress ≥ ${GATES.decompress}× lz-string on the largest in-budget plan`);
process.exitCode = failures.length === 0 ? 0 : 1;
