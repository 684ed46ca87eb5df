// Inputs for the codec benchmarks: realistic plans at three sizes and crafted bombs.

import { kwkwkBomb, entryFlood, newestEntryBomb } from '../test/fixtures/codec-stream.js';
import { planJsonOfSize, trimToFit } from '../test/fixtures/plans.js';
import { CodecError } from '../src/codec/node.js';
import type { CodecImplementation } from './implementations/types.js';

export interface CodecInputs {
  /** The largest realistic plan that fits the dictionary budget (trimmed from the 2 MB plan). */
  readonly largestPlan: string;
  readonly largestPayload: string;
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

/** The largest realistic plan the codec compresses within its budgets: the 2 MB plan trimmed until it fits. */
export function largestInBudgetPlan(codec: Pick<CodecImplementation, 'compress'>, overBudgetPlan = overBudgetPlanJson()): string {
  const fits = (json: string): boolean => {
    try {
      codec.compress(json);
      return true;
    } catch {
      return false;
    }
  };
  return trimToFit(JSON.parse(overBudgetPlan) as Record<string, unknown>, fits);
}

export function buildInputs(wasm: CodecImplementation): CodecInputs {
  const overBudgetPlan = overBudgetPlanJson();
  const largestPlan = largestInBudgetPlan(wasm, overBudgetPlan);
  const smallPlan = planJsonOfSize(20_000, 7);
  return {
    largestPlan,
    largestPayload: wasm.compress(largestPlan),
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
