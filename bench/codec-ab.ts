// Decompress of two builds side by side with lz-string, per corpus shape: `npx tsx bench/codec-ab.ts before=<checkout> now=.`
// Each checkout must be built; rounds alternate the three, the median of seven rounds is reported with its spread.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildInputs } from './codec-cases.js';
import { lzString } from './implementations/lz-string.js';
import { loadWasm } from './implementations/wasm.js';

type CodecEntry = typeof import('../src/codec/node.js');
const builds = await Promise.all(process.argv.slice(2).map(async (arg) => {
  const [name = '', root = ''] = arg.split('=');
  const entry = (await import(pathToFileURL(path.resolve(root, 'dist/codec/node.js')).href)) as CodecEntry;
  const module = await entry.loadCodecModule();
  return { name, codec: entry.createCodec(module, { instance: new WebAssembly.Instance(module, {}), strings: entry.bufferStrings }) };
}));
if (builds.length === 0) throw new Error('usage: npx tsx bench/codec-ab.ts before=<checkout> now=.');
const msPer = (fn: () => unknown, runs: number): number => {
  const start = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - start) / runs;
};
const spread = (xs: number[]): string => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `${sorted[sorted.length >> 1]!.toFixed(1)}× (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)})`;
};
for (const shape of buildInputs(await loadWasm()).corpus) {
  const ratios = new Map<string, number[]>(builds.map((build) => [build.name, []]));
  for (let round = 0; round < 7; round++) {
    const lz = msPer(() => lzString.decompress(shape.payload), 3);
    for (const build of builds) ratios.get(build.name)!.push(lz / msPer(() => build.codec.decompress(shape.payload), 10));
  }
  console.log(`${shape.name}: decompress × lz-string ${builds.map((build) => `${build.name} ${spread(ratios.get(build.name)!)}`).join(', ')}`);
}
