// The summary returned by create: title, blocks at any depth, sum of the top-level durations as written.
import type { Session } from './schema.js';

export interface SessionSummary {
  readonly title: string;
  readonly blockCount: number;
  readonly totalDuration: number;
}

interface CountedItem {
  readonly type: string;
  readonly children?: readonly CountedItem[];
}

function countBlocks(items: readonly CountedItem[]): number {
  let count = 0;
  for (const item of items) {
    if (item.type === 'block') count++;
    else if (item.children) count += countBlocks(item.children);
  }
  return count;
}

/** Durations are not recalculated from children and gaps from fixedStartTime are not added (docs/import-guide.md, "Durations and the summary"). */
export function summarize(session: Session): SessionSummary {
  let totalDuration = 0;
  for (const item of session.items) totalDuration += item.duration;
  return { title: session.workshop.title, blockCount: countBlocks(session.items), totalDuration };
}
