// Codec benchmark (npm run bench): WASM vs lz-string 1.5.0; writes bench/results/local/codec.json (--save: bench/results/).

import { formatReport, runCodecBenchmarks } from './codec-suite.js';
import { writeResults } from './results.js';

const report = await runCodecBenchmarks({ minSamples: 10, maxTime: 2 }, 'full', 3);
console.log(`\n${formatReport(report)}\n\nSaved ${writeResults('codec.json', report).join(' and ')}`);
