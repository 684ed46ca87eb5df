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

/**
 * The sum of the top-level durations as written: containers are not recalculated from their children and gaps from
 * fixedStartTime are not added (docs/import-guide.md, "Durations and the summary"). The page names it "Duration".
 */
export function totalDuration(items: readonly { readonly duration: number }[]): number {
  let total = 0;
  for (const item of items) total += item.duration;
  return total;
}

export function summarize(session: Session): SessionSummary {
  return { title: session.workshop.title, blockCount: countBlocks(session.items), totalDuration: totalDuration(session.items) };
}
