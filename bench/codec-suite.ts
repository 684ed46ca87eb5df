// Runs the codec benchmarks with benny (WASM vs lz-string side by side) and returns a JSON-able report.

import { cpus, platform, release, arch } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import benny from 'benny';
import type { Options } from 'benny/lib/internal/common-types.js';
import { buildInputs, expectRefusal, type CodecInputs } from './codec-cases.js';
import { lzString } from './implementations/lz-string.js';
import { loadWasm } from './implementations/wasm.js';
import { median } from './stats.js';

export interface Comparison {
  readonly case: string;
  readonly wasmMs: number;
  readonly lzStringMs: number;
  /** Median over rounds of lz-string time / WASM time (how many times faster the WASM codec is). */
  readonly ratio: number;
  /**
   * Corpus rows: the shape, the direction and the plan's UTF-16 units (the unit of the ns/unit figures). 'decode' is
   * the decompression in WASM without reading the text out (lz-string's side is its whole decompress).
   */
  readonly shape?: string;
  readonly direction?: Direction;
  readonly units?: number;
}

export type Direction = 'compress' | 'decompress' | 'decode';

/** The corpus figures the CI gate reads: the worst shape per direction. */
export interface CorpusSummary {
  readonly shapes: { name: string; description: string; units: number; payloadChars: number }[];
  readonly minCompressRatio: number;
  readonly worstCompressShape: string;
  readonly minDecompressRatio: number;
  readonly worstDecompressShape: string;
  readonly minDecodeRatio: number;
  readonly worstDecodeShape: string;
}

export interface Refusal {
  readonly case: string;
  readonly code: string;
  readonly wasmMs: number;
}

export interface CodecReport {
  readonly date: string;
  readonly machine: { cpu: string; cores: number; node: string; os: string; arch: string };
  readonly settings: Options & { scope: BenchmarkScope; rounds: number };
  readonly inputs: Record<string, number>;
  readonly corpus: CorpusSummary;
  readonly comparisons: Comparison[];
  readonly refusals: Refusal[];
  readonly wasmMemoryBytes: number;
  /** Per-case benny statistics behind the medians above. */
  readonly samples: SampleStats[];
}

// A full GC before every case, so one implementation's garbage is not collected on the other's clock.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Median of benny's samples in ms: robust against GC pauses and a busy machine (means are in the JSON too). */
async function medianMs(name: string, cases: [string, () => unknown][], options: Options): Promise<number[]> {
  collectGarbage();
  const summary = await benny.suite(name, ...cases.map(([label, fn]) => benny.add(label, fn, options)));
  samples.push(...summary.results.map((result) => ({ suite: name, case: result.name, samples: result.samples, meanMs: result.details.mean * 1000, medianMs: result.details.median * 1000, minMs: result.details.min * 1000 })));
  return summary.results.map((result) => result.details.median * 1000);
}

const samples: SampleStats[] = [];

export interface SampleStats {
  readonly suite: string;
  readonly case: string;
  readonly samples: number;
  readonly meanMs: number;
  readonly medianMs: number;
  readonly minMs: number;
}


/**
 * Runs the pair in several rounds, alternating which goes first, and reports the median round:
 * on a shared machine the load changes from second to second, so both sides should see the same.
 */
async function compare(label: string, wasm: () => unknown, lz: () => unknown, options: Options, rounds: number, extra: Partial<Comparison> = {}): Promise<Comparison> {
  const wasmRounds: number[] = [];
  const lzRounds: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const wasmFirst = round % 2 === 0;
    const order: ['wasm' | 'lz-string', () => unknown][] = wasmFirst ? [['wasm', wasm], ['lz-string', lz]] : [['lz-string', lz], ['wasm', wasm]];
    const times: Record<string, number> = {};
    for (const [name, fn] of order) {
      const [ms = NaN] = await medianMs(`${label}: ${name} (round ${round + 1})`, [[name, fn]], options);
      times[name] = ms;
    }
    const wasmMs = times.wasm ?? NaN;
    const lzStringMs = times['lz-string'] ?? NaN;
    wasmRounds.push(wasmMs);
    lzRounds.push(lzStringMs);
    ratios.push(lzStringMs / wasmMs);
  }
  return { case: label, wasmMs: median(wasmRounds), lzStringMs: median(lzRounds), ratio: median(ratios), ...extra };
}

/**
 * What to run: 'full' (npm run bench) is the corpus, the product path, the 20 KB plan, the slow lz-string peers (2 MB
 * compress, bomb decode) and the refusals; 'corpus' (check.ts, the CI gate) is only the corpus rows it gates on.
 */
export type BenchmarkScope = 'full' | 'corpus';

export async function runCodecBenchmarks(options: Options, scope: BenchmarkScope, rounds: number): Promise<CodecReport> {
  const wasm = await loadWasm();
  const inputs = buildInputs(wasm);
  const comparisons: Comparison[] = [];
  const refusals: Refusal[] = [];

  for (const shape of inputs.corpus) {
    const units = shape.plan.length;
    comparisons.push(await compare(`compress, ${shape.name}`, () => wasm.compress(shape.plan), () => lzString.compress(shape.plan), options, rounds, { shape: shape.name, direction: 'compress', units }));
    comparisons.push(await compare(`decompress, ${shape.name}`, () => wasm.decompress(shape.payload), () => lzString.decompress(shape.payload), options, rounds, { shape: shape.name, direction: 'decompress', units }));
    // The decoder alone: a whole decompress also makes a string of the text, whose cost (a fresh large object, page
    // faults on first touch) is the engine's and the machine's, not the codec's (docs/codec.md, "Benchmarks").
    comparisons.push(await compare(`decode in WASM, ${shape.name}`, () => wasm.decodeOnly(shape.payload), () => lzString.decompress(shape.payload), options, rounds, { shape: shape.name, direction: 'decode', units }));
  }
  if (scope === 'corpus') return report(options, scope, rounds, inputs, comparisons, refusals, wasm.memoryBytes());

  // The product path (decodeSessionLink): a rope-shaped result would only move cost into JSON.parse.
  const realistic = inputs.corpus[0]!;
  comparisons.push(await compare(`decompress + JSON.parse, ${realistic.name}`, () => JSON.parse(wasm.decompress(realistic.payload)) as unknown, () => JSON.parse(lzString.decompress(realistic.payload)) as unknown, options, rounds));
  comparisons.push(await compare('compress, 20 KB plan', () => wasm.compress(inputs.smallPlan), () => lzString.compress(inputs.smallPlan), options, rounds));
  comparisons.push(await compare('decompress, 20 KB plan', () => wasm.decompress(inputs.smallPayload), () => lzString.decompress(inputs.smallPayload), options, rounds));

  const refuseOverBudget = (): string => expectRefusal(() => wasm.compress(inputs.overBudgetPlan), '2 MB plan');
  refuseOverBudget();
  const slow: Options = { ...options, minSamples: 3, initCount: 1 };
  const [wasmMs = NaN] = await medianMs('2 MB over-budget plan: refusal', [['wasm refusal', refuseOverBudget]], options);
  const [lzStringMs = NaN] = await medianMs('2 MB over-budget plan: lz-string compress', [['lz-string', () => lzString.compress(inputs.overBudgetPlan)]], slow);
  comparisons.push({ case: 'compress 2 MB over-budget plan (WASM refusal vs lz-string compress)', wasmMs, lzStringMs, ratio: lzStringMs / wasmMs });
  const bomb = inputs.bombs['KwKwK 2,000 codes (3,336 chars → 2,003,001 units)'] ?? '';
  comparisons.push(await compare('decompress 3,336-char bomb (WASM refusal vs lz-string expansion)', () => expectRefusal(() => wasm.decompress(bomb), 'bomb'), () => lzString.decompress(bomb), options, rounds));

  for (const [name, payload] of Object.entries(inputs.bombs)) {
    const refuse = (): string => expectRefusal(() => wasm.decompress(payload), name);
    const code = refuse();
    const [wasmMs = NaN] = await medianMs(`bomb: ${name}`, [['wasm refusal', refuse]], options);
    refusals.push({ case: `decompress bomb: ${name}`, code, wasmMs });
  }

  return report(options, scope, rounds, inputs, comparisons, refusals, wasm.memoryBytes());
}

function report(options: Options, scope: BenchmarkScope, rounds: number, inputs: CodecInputs, comparisons: Comparison[], refusals: Refusal[], wasmMemoryBytes: number): CodecReport {
  return {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version, os: `${platform()} ${release()}`, arch: arch() },
    settings: { ...options, scope, rounds },
    inputs: {
      smallPlanChars: inputs.smallPlan.length,
      overBudgetPlanChars: inputs.overBudgetPlan.length,
    },
    corpus: summarizeCorpus(inputs, comparisons),
    comparisons,
    refusals,
    wasmMemoryBytes,
    samples: samples.splice(0),
  };
}

/** The worst (lowest) ratio per direction over the corpus rows. */
function summarizeCorpus(inputs: CodecInputs, comparisons: readonly Comparison[]): CorpusSummary {
  const worst = (direction: Direction): Comparison => {
    const rows = comparisons.filter((row) => row.direction === direction);
    return rows.reduce((low, row) => (row.ratio < low.ratio || Number.isNaN(row.ratio) ? row : low));
  };
  const compress = worst('compress');
  const decompress = worst('decompress');
  const decode = worst('decode');
  return {
    shapes: inputs.corpus.map((shape) => ({ name: shape.name, description: shape.description, units: shape.plan.length, payloadChars: shape.payload.length })),
    minCompressRatio: compress.ratio,
    worstCompressShape: compress.shape ?? '',
    minDecompressRatio: decompress.ratio,
    worstDecompressShape: decompress.shape ?? '',
    minDecodeRatio: decode.ratio,
    worstDecodeShape: decode.shape ?? '',
  };
}

const nsPerUnit = (ms: number, units: number): string => (ms * 1e6 / units).toFixed(1);

/** A plain-text report: the corpus per shape (ns per UTF-16 unit of the plan, ratios), then the other cases. */
export function formatReport(report: CodecReport): string {
  const corpus = report.comparisons.filter((row) => row.shape !== undefined);
  const byShape = report.corpus.shapes.map((shape) => {
    const compress = corpus.find((row) => row.shape === shape.name && row.direction === 'compress');
    const decompress = corpus.find((row) => row.shape === shape.name && row.direction === 'decompress');
    const decode = corpus.find((row) => row.shape === shape.name && row.direction === 'decode');
    const cells = (row: Comparison | undefined): string =>
      row === undefined ? '— | — | —' : `${nsPerUnit(row.wasmMs, shape.units)} | ${nsPerUnit(row.lzStringMs, shape.units)} | ${row.ratio.toFixed(1)}×`;
    const decodeCells = decode === undefined ? '— | —' : `${nsPerUnit(decode.wasmMs, shape.units)} | ${decode.ratio.toFixed(1)}×`;
    return `| ${shape.name} | ${shape.units.toLocaleString('en-US')} | ${shape.payloadChars.toLocaleString('en-US')} | ${cells(compress)} | ${cells(decompress)} | ${decodeCells} |`;
  });
  const others = report.comparisons.filter((row) => row.shape === undefined);
  const lines = [
    `${report.date} · ${report.machine.cpu} × ${report.machine.cores} · Node ${report.machine.node}`,
    'Corpus at the largest in-budget size per shape (ns per UTF-16 unit of the plan; medians of benny samples, median ratio of the rounds):',
    '| shape | units | payload | compress WASM ns/unit | lz-string ns/unit | ratio | decompress WASM ns/unit | lz-string ns/unit | ratio | decode in WASM ns/unit | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...byShape,
    `Minimum over the corpus: compress ${report.corpus.minCompressRatio.toFixed(1)}× (${report.corpus.worstCompressShape}), decompress ${report.corpus.minDecompressRatio.toFixed(1)}× (${report.corpus.worstDecompressShape}), decode in WASM ${report.corpus.minDecodeRatio.toFixed(1)}× (${report.corpus.worstDecodeShape})`,
    '',
    '| case (median of benny samples) | WASM | lz-string | ratio |',
    '|---|---:|---:|---:|',
    ...others.map((row) => `| ${row.case} | ${row.wasmMs.toFixed(2)} ms | ${row.lzStringMs.toFixed(2)} ms | ${row.ratio.toFixed(1)}× |`),
    ...report.refusals.map((row) => `| ${row.case} → ${row.code} | ${row.wasmMs.toFixed(3)} ms | — | — |`),
    `WASM linear memory after all cases: ${(report.wasmMemoryBytes / 1024 / 1024).toFixed(2)} MiB`,
  ];
  return lines.join('\n');
}
