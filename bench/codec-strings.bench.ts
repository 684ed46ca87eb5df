// Decoded-string strategies (npm run bench:codec-strings; -- --chromium adds Chromium, -- --chromium-only skips Node): decompress alone and decompress + JSON.parse, vs lz-string.
// In Chromium the shipped reader (src/codec/strings.ts, the wasm:js-string builtin) runs beside the alternatives it replaced.
//
// Why both: chunked String.fromCharCode builds a rope, which is cheap to create but flattened
// (one large allocation and copy) by the JSON.parse that the product's decodeSessionLink runs next.

import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import benny from 'benny';
import { createCodec, loadCodecModule } from '../src/codec/node.js';
import { bufferStrings } from '../src/codec/node.js';
import type { StringTransfer } from '../src/codec/types.js';
import { largestInBudgetPlan } from './codec-cases.js';
import { lzString } from './implementations/lz-string.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const utf16Decoder = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });

function chunkedFromCharCode(chunkUnits: number): StringTransfer['readUtf16'] {
  return (memory, pointer, units) => {
    const view = new Uint16Array(memory, pointer, units);
    let text = '';
    for (let offset = 0; offset < units; offset += chunkUnits) {
      text += String.fromCharCode.apply(null, view.subarray(offset, offset + chunkUnits) as unknown as number[]);
    }
    return text;
  };
}

const readers: Record<string, StringTransfer['readUtf16']> = {
  'Buffer utf16le': bufferStrings.readUtf16,
  "TextDecoder('utf-16le')": (memory, pointer, units) => utf16Decoder.decode(new Uint16Array(memory, pointer, units)),
  'fromCharCode.apply 8,192-unit chunks': chunkedFromCharCode(8192),
  'fromCharCode.apply 16,384-unit chunks': chunkedFromCharCode(16384),
};

const module = await loadCodecModule();
const reference = createCodec(module, { strings: bufferStrings });
const plan = largestInBudgetPlan(reference);
const payload = reference.compress(plan);
console.log(`largest in-budget plan: ${plan.length} chars → ${payload.length}-char payload`);

const options = { minSamples: 10, maxTime: 1 };
const rows: string[] = [];
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

async function medianMs(name: string, fn: () => unknown): Promise<number> {
  collectGarbage();
  const summary = await benny.suite(name, benny.add(name, fn, options));
  return (summary.results[0]?.details.median ?? NaN) * 1000;
}

const nodeSide = !process.argv.includes('--chromium-only');
for (const withParse of nodeSide ? [false, true] : []) {
  const lz = withParse ? () => JSON.parse(lzString.decompress(payload)) as unknown : () => lzString.decompress(payload);
  for (const [label, readUtf16] of Object.entries(readers)) {
    const codec = createCodec(module, { strings: { ...bufferStrings, readUtf16 } });
    if (codec.decompress(payload) !== plan) throw new Error(`${label} does not return the plan exactly`);
    const wasm = withParse ? () => JSON.parse(codec.decompress(payload)) as unknown : () => codec.decompress(payload);
    const ratios: number[] = [];
    const wasmTimes: number[] = [];
    // Three rounds, alternating which side runs first, so both see the same machine load.
    for (let round = 0; round < 3; round++) {
      const what = `${withParse ? 'decompress + JSON.parse' : 'decompress'}, ${label}`;
      const first = await medianMs(`${what} (round ${round + 1}, ${round % 2 === 0 ? 'wasm' : 'lz-string'})`, round % 2 === 0 ? wasm : lz);
      const second = await medianMs(`${what} (round ${round + 1}, ${round % 2 === 0 ? 'lz-string' : 'wasm'})`, round % 2 === 0 ? lz : wasm);
      const [wasmMs, lzMs] = round % 2 === 0 ? [first, second] : [second, first];
      wasmTimes.push(wasmMs);
      ratios.push(lzMs / wasmMs);
    }
    rows.push(`| ${withParse ? 'decompress + JSON.parse' : 'decompress'} | ${label} | ${median(wasmTimes).toFixed(2)} ms | ${median(ratios).toFixed(1)}× |`);
  }
}

if (nodeSide) console.log(`\nNode ${process.version}:\n| path | decoded string made by | WASM codec | × lz-string |\n|---|---|---:|---:|\n${rows.join('\n')}`);

// The same choice in Chromium (the browser entry's isomorphic transfer). benny does not run in a page,
// so each variant is timed in-page, interleaved with lz-string in every round, and the median ratio kept.
if (process.argv.includes('--chromium') || !nodeSide) {
  const { launchChromium } = await import('../test/support/chromium.js');
  const { readFile } = await import('node:fs/promises');
  const wasmBase64 = (await readFile(new URL('../build/codec.wasm', import.meta.url))).toString('base64');
  const { build } = await import('esbuild');
  // The shipped browser transfer (strings.ts: the wasm:js-string reader, the byte path for payloads), bundled for the page.
  // The shipped transfers as one in-page global: the isomorphic one (strings.ts) and the builtin reader (string-builtins.ts).
  const stringsBundle = await build({
    stdin: {
      contents: "export * from './src/codec/strings.ts'; export * from './src/codec/string-builtins.ts';",
      resolveDir: fileURLToPath(new URL('../', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'codecStrings',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const chromium = await launchChromium();
  try {
    const page = await chromium.context.newPage();
    await page.addInitScript('globalThis.__name = (target) => target'); // tsx keeps function names via __name
    await page.goto('about:blank');
    await page.addScriptTag({ path: new URL('../node_modules/lz-string/libs/lz-string.js', import.meta.url).pathname });
    await page.addScriptTag({ content: stringsBundle.outputFiles[0]!.text });
    const browserRows = await page.evaluate(inPage, { wasmBase64, plan, payload });
    console.log(`\nChromium (${chromium.context.browser()?.version() ?? 'headless'}):\n| path | decoded string made by | WASM codec | × lz-string |\n|---|---|---:|---:|\n${browserRows.join('\n')}`);
  } finally {
    await chromium.close();
  }
}

async function inPage({ wasmBase64, plan, payload }: { wasmBase64: string; plan: string; payload: string }): Promise<string[]> {
  const bytes = Uint8Array.from(atob(wasmBase64), (char) => char.charCodeAt(0));
  const wasm = (await WebAssembly.instantiate(bytes, {})).instance.exports as unknown as {
    memory: WebAssembly.Memory;
    decompressBegin(chars: number): number;
    decompress(chars: number): number;
    decompressAscii(chars: number): number;
    outputPointer(): number;
  };
  const shipped = (globalThis as unknown as { codecStrings: typeof import('../src/codec/strings.js') & typeof import('../src/codec/string-builtins.js') }).codecStrings;
  if (!shipped.hasStringBuiltins()) throw new Error('this Chromium has no WebAssembly JS String Builtins; the shipped reader falls back to fromCharCode');
  const builtinReader = shipped.memoryUtf16Reader(wasm.memory);
  const lz = (globalThis as unknown as { LZString: { decompressFromEncodedURIComponent(payload: string): string } }).LZString;
  const decoder = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });
  const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const utf8Bytes = new TextEncoder().encode(plan);
  const chunked = (chunk: number, copy: boolean) => (view: Uint16Array): string => {
    let text = '';
    for (let offset = 0; offset < view.length; offset += chunk) {
      const part = view.subarray(offset, offset + chunk);
      text += String.fromCharCode.apply(null, (copy ? Array.from(part) : part) as unknown as number[]);
    }
    return text;
  };
  const readers: Record<string, (view: Uint16Array) => string> = {
    'wasm:js-string fromCharCodeArray (shipped)': (view) => builtinReader(view.buffer as ArrayBuffer, view.byteOffset, view.length),
    "TextDecoder('utf-16le')": (view) => decoder.decode(view),
    // The UTF-8 idea's lower bound: the text's UTF-8 is made once here, so a WASM transcoder's cost is not even counted.
    // Chromium's UTF-8 decoder is fast only for pure ASCII; the plan's accents and emoji put it on its slow path.
    "TextDecoder('utf-8') of ready UTF-8 (lower bound)": () => utf8Decoder.decode(utf8Bytes),
    'fromCharCode.apply 8,192-unit chunks': chunked(8192, false),
    'fromCharCode.apply 16,384-unit chunks': chunked(16384, false),
    'fromCharCode.apply 8,192 chunks of Array.from': chunked(8192, true),
  };
  // The payload goes in as the shipped codec sends it: as bytes (it is ASCII), decoded where they were written.
  const decompress = (read: (view: Uint16Array) => string) => (): string => {
    const pointer = wasm.decompressBegin(payload.length);
    if (!shipped.isomorphicStrings.writeAscii!(wasm.memory.buffer, pointer, payload)) throw new Error('the payload is not ASCII');
    const units = wasm.decompressAscii(payload.length);
    return read(new Uint16Array(wasm.memory.buffer, wasm.outputPointer(), units));
  };
  const middle = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
  const timeOf = (fn: () => unknown): number => {
    const start = performance.now();
    for (let repeat = 0; repeat < 3; repeat++) fn();
    return (performance.now() - start) / 3;
  };
  // Every variant (and its lz-string peer) runs once per round, so load and heap drift hit all alike.
  const variants: { row: string; wasmRun: () => unknown; lzRun: () => unknown; times: number[]; ratios: number[] }[] = [];
  for (const withParse of [false, true]) {
    const lzRun = withParse ? () => JSON.parse(lz.decompressFromEncodedURIComponent(payload)) as unknown : () => lz.decompressFromEncodedURIComponent(payload);
    for (const [label, read] of Object.entries(readers)) {
      const run = decompress(read);
      if (run() !== plan) throw new Error(`${label} does not return the plan exactly`);
      const wasmRun = withParse ? () => JSON.parse(run()) as unknown : run;
      variants.push({ row: `| ${withParse ? 'decompress + JSON.parse' : 'decompress'} | ${label}`, wasmRun, lzRun, times: [], ratios: [] });
    }
  }
  for (const variant of variants) for (let warm = 0; warm < 5; warm++) (variant.wasmRun(), variant.lzRun());
  for (let round = 0; round < 15; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      const wasmMs = timeOf(variant.wasmRun);
      const lzMs = timeOf(variant.lzRun);
      variant.times.push(wasmMs);
      variant.ratios.push(lzMs / wasmMs);
    }
  }
  const rows = variants.map((variant) => `${variant.row} | ${middle(variant.times).toFixed(2)} ms | ${middle(variant.ratios).toFixed(1)}× |`);
  return rows;
}
