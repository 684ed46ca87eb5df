// Inputs for the codec benchmarks: the plan corpus at its largest in-budget sizes, a 20 KB and a 2 MB plan, crafted bombs.

import { kwkwkBomb, entryFlood, newestEntryBomb } from '../test/fixtures/codec-stream.js';
import { CORPUS_SHAPES } from '../test/fixtures/plan-corpus.js';
import { planJsonOfSize, trimToFit } from '../test/fixtures/plans.js';
import { CodecError } from '../src/codec/node.js';
import type { CodecImplementation } from './implementations/types.js';

/** One shape of the plan corpus (test/fixtures/plan-corpus.ts), trimmed to the most items that fit the budgets. */
export interface CorpusCase {
  readonly name: string;
  readonly description: string;
  readonly plan: string;
  readonly payload: string;
}

export interface CodecInputs {
  /** Every corpus shape at its largest in-budget size; the first is the realistic plan (trimmed from the 2 MB plan). */
  readonly corpus: readonly CorpusCase[];
  /** A 20 KB plan. */
  readonly smallPlan: string;
  readonly smallPayload: string;
  /** A 2 MB plan: over the dictionary budget. */
  readonly overBudgetPlan: string;
  /** Bombs: name → payload. */
  readonly bombs: Readonly<Record<string, string>>;
}

/** Throws unless `call` is refused with a CodecError (so a "refusal" benchmark measures a refusal). */
export function expectRefusal(call: () => unknown, what: string): string {
  try {
    call();
  } catch (error) {
    if (error instanceof CodecError) return error.code;
    throw error;
  }
  throw new Error(`${what} was expected to be refused but succeeded`);
}

/** The 2 MB plan every codec bench starts from (over the dictionary budget). */
const overBudgetPlanJson = (): string => planJsonOfSize(2_000_000, 7);

/** The document with the most top-level items (of `plan`'s) that the codec compresses within its budgets. */
export function largestInBudget(codec: Pick<CodecImplementation, 'compress'>, plan: Record<string, unknown>): string {
  const fits = (json: string): boolean => {
    try {
      codec.compress(json);
      return true;
    } catch {
      return false;
    }
  };
  return trimToFit(plan, fits);
}

/** The largest realistic plan the codec compresses within its budgets: the 2 MB plan trimmed until it fits. */
export function largestInBudgetPlan(codec: Pick<CodecImplementation, 'compress'>, overBudgetPlan = overBudgetPlanJson()): string {
  return largestInBudget(codec, JSON.parse(overBudgetPlan) as Record<string, unknown>);
}

/** Every corpus shape at its largest in-budget size, with the codec's payload of it. */
export function buildCorpus(codec: Pick<CodecImplementation, 'compress'>): CorpusCase[] {
  return CORPUS_SHAPES.map((shape) => {
    const plan = largestInBudget(codec, shape.plan());
    return { name: shape.name, description: shape.description, plan, payload: codec.compress(plan) };
  });
}

export function buildInputs(wasm: CodecImplementation): CodecInputs {
  const overBudgetPlan = overBudgetPlanJson();
  const smallPlan = planJsonOfSize(20_000, 7);
  return {
    corpus: buildCorpus(wasm),
    smallPlan,
    smallPayload: wasm.compress(smallPlan),
    overBudgetPlan,
    bombs: {
      'KwKwK 2,000 codes (3,336 chars → 2,003,001 units)': kwkwkBomb(2_000),
      'KwKwK 40,000 codes (95,759 chars)': kwkwkBomb(40_000),
      'newest-entry 5,000 codes': newestEntryBomb(5_000),
      'entry flood 70,000 codes': entryFlood(70_000),
    },
  };
}
