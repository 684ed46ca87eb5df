// Runs the codec benchmarks with benny (WASM vs lz-string side by side) and returns a JSON-able report.

import { cpus, platform, release, arch } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import benny from 'benny';
import type { Options } from 'benny/lib/internal/common-types.js';
import { buildInputs, expectRefusal } from './codec-cases.js';
import { lzString } from './implementations/lz-string.js';
import { loadWasm } from './implementations/wasm.js';

export interface Comparison {
  readonly case: string;
  readonly wasmMs: number;
  readonly lzStringMs: number;
  /** Median over rounds of lz-string time / WASM time (how many times faster the WASM codec is). */
  readonly ratio: number;
}

export interface Refusal {
  readonly case: string;
  readonly code: string;
  readonly wasmMs: number;
}

export interface CodecReport {
  readonly date: string;
  readonly machine: { cpu: string; cores: number; node: string; os: string; arch: string };
  readonly settings: Options & { full: boolean; rounds: number };
  readonly inputs: Record<string, number>;
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

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/**
 * Runs the pair in several rounds, alternating which goes first, and reports the median round:
 * on a shared machine the load changes from second to second, so both sides should see the same.
 */
async function compare(label: string, wasm: () => unknown, lz: () => unknown, options: Options, rounds: number): Promise<Comparison> {
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
  return { case: label, wasmMs: median(wasmRounds), lzStringMs: median(lzRounds), ratio: median(ratios) };
}

/** `full` adds the slow lz-string peers (2 MB compress, bomb decode); check.ts runs without them. */
export async function runCodecBenchmarks(options: Options, full: boolean, rounds: number): Promise<CodecReport> {
  const wasm = await loadWasm();
  const inputs = buildInputs(wasm);
  const comparisons: Comparison[] = [];
  const refusals: Refusal[] = [];

  comparisons.push(await compare('compress, largest in-budget plan', () => wasm.compress(inputs.largestPlan), () => lzString.compress(inputs.largestPlan), options, rounds));
  comparisons.push(await compare('decompress, largest in-budget plan', () => wasm.decompress(inputs.largestPayload), () => lzString.decompress(inputs.largestPayload), options, rounds));
  if (full) {
    // The product path (decodeSessionLink): a rope-shaped result would only move cost into JSON.parse.
    comparisons.push(await compare('decompress + JSON.parse, largest in-budget plan', () => JSON.parse(wasm.decompress(inputs.largestPayload)) as unknown, () => JSON.parse(lzString.decompress(inputs.largestPayload)) as unknown, options, rounds));
  }
  comparisons.push(await compare('compress, 20 KB plan', () => wasm.compress(inputs.smallPlan), () => lzString.compress(inputs.smallPlan), options, rounds));
  comparisons.push(await compare('decompress, 20 KB plan', () => wasm.decompress(inputs.smallPayload), () => lzString.decompress(inputs.smallPayload), options, rounds));

  const refuseOverBudget = (): string => expectRefusal(() => wasm.compress(inputs.overBudgetPlan), '2 MB plan');
  const overBudgetCode = refuseOverBudget();
  if (full) {
    const slow: Options = { ...options, minSamples: 3, initCount: 1 };
    const [wasmMs = NaN] = await medianMs('2 MB over-budget plan: refusal', [['wasm refusal', refuseOverBudget]], options);
    const [lzStringMs = NaN] = await medianMs('2 MB over-budget plan: lz-string compress', [['lz-string', () => lzString.compress(inputs.overBudgetPlan)]], slow);
    comparisons.push({ case: 'compress 2 MB over-budget plan (WASM refusal vs lz-string compress)', wasmMs, lzStringMs, ratio: lzStringMs / wasmMs });
    const bomb = inputs.bombs['KwKwK 2,000 codes (3,336 chars → 2,003,001 units)'] ?? '';
    comparisons.push(await compare('decompress 3,336-char bomb (WASM refusal vs lz-string expansion)', () => expectRefusal(() => wasm.decompress(bomb), 'bomb'), () => lzString.decompress(bomb), options, rounds));
  } else {
    const [wasmMs = NaN] = await medianMs('2 MB over-budget plan: refusal', [['wasm refusal', refuseOverBudget]], options);
    refusals.push({ case: 'compress 2 MB over-budget plan', code: overBudgetCode, wasmMs });
  }

  for (const [name, payload] of Object.entries(inputs.bombs)) {
    const refuse = (): string => expectRefusal(() => wasm.decompress(payload), name);
    const code = refuse();
    const [wasmMs = NaN] = await medianMs(`bomb: ${name}`, [['wasm refusal', refuse]], options);
    refusals.push({ case: `decompress bomb: ${name}`, code, wasmMs });
  }

  return {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version, os: `${platform()} ${release()}`, arch: arch() },
    settings: { ...options, full, rounds },
    inputs: {
      largestPlanChars: inputs.largestPlan.length,
      largestPayloadChars: inputs.largestPayload.length,
      smallPlanChars: inputs.smallPlan.length,
      overBudgetPlanChars: inputs.overBudgetPlan.length,
    },
    comparisons,
    refusals,
    wasmMemoryBytes: wasm.memoryBytes(),
    samples: samples.splice(0),
  };
}

/** A plain-text table of a report, for the console and the README. */
export function formatReport(report: CodecReport): string {
  const lines = [
    `${report.date} · ${report.machine.cpu} × ${report.machine.cores} · Node ${report.machine.node}`,
    '| case (median of benny samples) | WASM | lz-string | ratio |',
    '|---|---:|---:|---:|',
    ...report.comparisons.map((row) => `| ${row.case} | ${row.wasmMs.toFixed(2)} ms | ${row.lzStringMs.toFixed(2)} ms | ${row.ratio.toFixed(1)}× |`),
    ...report.refusals.map((row) => `| ${row.case} → ${row.code} | ${row.wasmMs.toFixed(3)} ms | — | — |`),
    `WASM linear memory after all cases: ${(report.wasmMemoryBytes / 1024 / 1024).toFixed(2)} MiB`,
  ];
  return lines.join('\n');
}
