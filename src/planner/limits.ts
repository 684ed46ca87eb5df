// How near a plan is to each limit create enforces: the server's own numbers, and the share at which the page warns.
import { CODEC_BUDGETS } from '../codec/errors.js';
import type { CompressCounts } from '../codec/types.js';
import { MAX_JSON_BYTES } from '../session/json-size.js';
import { MAX_ITEMS } from '../session/constants.js';

/** From this share of a limit on, the page says the plan is near it (450 of 500 items, 58,983 of 65,536 entries). */
export const NEAR_SHARE = 0.9;

export type LimitName = 'items' | 'jsonBytes' | 'payloadChars' | 'outputBytes' | 'dictionaryEntries' | 'contentBytes';

/** The limits, with the very constants create checks against (session/rules.ts, session/limits.ts, codec/errors.ts). */
export const LIMITS: Readonly<Record<LimitName, number>> = {
  items: MAX_ITEMS,
  jsonBytes: MAX_JSON_BYTES,
  payloadChars: CODEC_BUDGETS.payloadChars,
  outputBytes: CODEC_BUDGETS.outputBytes,
  dictionaryEntries: CODEC_BUDGETS.dictionaryEntries,
  contentBytes: CODEC_BUDGETS.contentBytes,
};

export type LimitLevel = 'ok' | 'near' | 'over';

export interface LimitMeasure {
  readonly name: LimitName;
  readonly used: number;
  readonly limit: number;
  readonly level: LimitLevel;
}

/** What an accepted plan measured: its JSON text (UTF-8 bytes and UTF-16 units), its payload and the codec's counts for it. */
export interface EncodedMeasures {
  readonly jsonBytes: number;
  readonly jsonChars: number;
  readonly payloadChars: number;
  readonly counts: CompressCounts;
}

export function levelOf(used: number, limit: number): LimitLevel {
  if (used > limit) return 'over';
  return used >= Math.ceil(limit * NEAR_SHARE) ? 'near' : 'ok';
}

function measure(name: LimitName, used: number): LimitMeasure {
  const limit = LIMITS[name];
  return { name, used, limit, level: levelOf(used, limit) };
}

/**
 * Every limit for a plan of `items` items whose last accepted form measured `encoded`. The item count is the draft's
 * own (it can pass 500 while editing, which create refuses); the others describe the last plan the codec accepted.
 */
export function measureLimits(items: number, encoded: EncodedMeasures | null): LimitMeasure[] {
  const measures = [measure('items', items)];
  if (encoded === null) return measures;
  measures.push(
    measure('jsonBytes', Math.min(encoded.jsonBytes, MAX_JSON_BYTES + 1)),
    measure('payloadChars', encoded.payloadChars),
    measure('outputBytes', encoded.jsonChars * 2),
    measure('dictionaryEntries', encoded.counts.dictionaryEntries),
    measure('contentBytes', encoded.counts.contentBytes),
  );
  return measures;
}

/** The measure nearest to its limit (the one the page names first). */
export function tightest(measures: readonly LimitMeasure[]): LimitMeasure | undefined {
  let best: LimitMeasure | undefined;
  for (const entry of measures) if (best === undefined || entry.used / entry.limit > best.used / best.limit) best = entry;
  return best;
}
