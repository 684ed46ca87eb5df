// How long a plan is, named two ways apart: the sum of its top-level durations (the figure create's summary reports)
// and its span on the clock from start to end, which gaps and fixed start times lengthen or shorten.
import type { ViewerLocale } from './i18n/locale.js';
import type { Plan } from './plan.js';
import { formatRange } from './schedule.js';

/** How the span on the clock relates to the planned length. */
export type SpanRelation = 'exact' | 'gaps' | 'overlaps';

/**
 * The sum of the top-level durations as written: the figure create's summary reports (session/summary.ts), summed
 * here because the plan view imports no session code.
 */
export function plannedMinutes(plan: Plan): number {
  let total = 0;
  for (const item of plan.items) total += item.duration;
  return total;
}

/**
 * The parts of a plan's day line after its date: "no start time" when it has none, the planned length, and its span on
 * the clock with what lengthens or shortens it ("Duration 6 hrs 35 mins", "09:00–15:50 (with gaps)").
 */
export function planLengthParts(plan: Plan, origin: number, end: number, relative: boolean, locale: ViewerLocale): { start?: string; planned: string; span?: string } {
  const { strings } = locale;
  const planned = plannedMinutes(plan);
  const parts: { start?: string; planned: string; span?: string } = { planned: strings.plannedLength(locale.formatDuration(planned)) };
  if (relative) parts.start = strings.noStartTime;
  if (plan.items.length > 0) {
    const spanned = end - origin;
    const relation: SpanRelation = spanned > planned ? 'gaps' : spanned < planned ? 'overlaps' : 'exact';
    parts.span = strings.timeSpan(formatRange(origin, end, relative), relation);
  }
  return parts;
}
