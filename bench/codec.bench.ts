// Codec benchmark (npm run bench): WASM vs lz-string 1.5.0; writes bench/results/codec.json.

import { mkdir, writeFile } from 'node:fs/promises';
import { formatReport, runCodecBenchmarks } from './codec-suite.js';

const report = await runCodecBenchmarks({ minSamples: 10, maxTime: 2 }, 'full', 3);
const folder = new URL('./results/', import.meta.url);
await mkdir(folder, { recursive: true });
await writeFile(new URL('codec.json', folder), `${JSON.stringify(report, null, 2)}\n`);
console.log(`\n${formatReport(report)}\n\nSaved bench/results/codec.json`);
