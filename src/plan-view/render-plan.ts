// Renders a whole decoded plan (header, warnings, timeline) in the given locale; the page's chrome is elsewhere.
import { el } from './dom.js';
import { escapeHtml, tag, textTag } from './html.js';
import type { ViewerLocale } from './i18n/locale.js';
import { MAX_ITEMS, MAX_LIST_ENTRIES } from '../session/constants.js';
import type { Plan, PlanItem } from './plan.js';
import { createRenderContext, slotsHtml } from './render-items.js';
import { placeSequence, workshopClock } from './schedule.js';
import { planLengthParts } from './plan-length.js';
import { entryHeight, timelineShape, type TimelineShape } from './placeholder-size.js';

/**
 * Top-level entries per later part of the timeline. Each part is one content-visibility box (styles.css): a box per
 * entry costs style and layout per box, which adds up in a large plan; a part of 10 is still quick to lay out
 * when it scrolls near.
 */
const PART_ENTRIES = 10;

/**
 * How far down, in viewport heights, the entries are laid out at once. Chromium renders content-visibility:auto boxes
 * within 150 % of the viewport height below it before the first paint (kViewportMarginPercentage in
 * display_lock_document_state.cc), so a part starting above this line would be laid out right after the measurement,
 * still before the reader sees anything: the figure has to include that work.
 */
const LAID_OUT_SCREENS = 2.5;


/** An item box's padding and borders, left and right (styles.css): what its text lines do not get of its width. */
const ITEM_PADDING_PX = 30;

/** Top-level item titles are `<h2>` under the plan's `<h1>`. */
const TOP_LEVEL_HEADING = 2;

/** A plan being shown: the view (header, warnings, an empty timeline), then its entries in two steps. */
export interface PlanRendering {
  view: HTMLElement;
  /**
   * Appends top-level entries one at a time until the timeline reaches LAID_OUT_SCREENS viewport heights; each check
   * lays the page out, so the first screen is real layout, not an estimate. The view must be in the document.
   */
  fillFirstScreen(): void;
  /** Appends every remaining entry in one insertion (one parse), in parts whose layout the browser skips while off screen. */
  appendRest(): void;
}

/** The plan view: workshop header, decode warnings, then an empty timeline for fillFirstScreen and appendRest. */
export function renderPlan(plan: Plan, warnings: readonly string[], locale: ViewerLocale): PlanRendering {
  const { strings } = locale;
  const clock = workshopClock(plan.workshop.startTime);
  const context = createRenderContext(plan, clock.relative, locale);
  const slots = placeSequence(plan.items, clock.origin, clock.relative);
  const end = slots.length > 0 ? slots[slots.length - 1]!.end : clock.origin;
  const length = planLengthParts(plan, clock.origin, end, clock.relative, locale);
  const meta = dateHtml(plan.workshop.date, locale)
    + (length.start === undefined ? '' : textTag('span', 'plan-start', length.start))
    + textTag('span', 'plan-length', length.planned)
    + (length.span === undefined ? '' : textTag('span', 'plan-span', length.span));
  const header = tag('header', 'plan-header',
    `<h1 class="plan-title" tabindex="-1">${escapeHtml(plan.workshop.title)}</h1>`
    + tag('p', 'plan-meta', meta)
    + (plan.workshop.description ? textTag('p', 'plan-description', plan.workshop.description) : '')
    + legendHtml(plan, locale));
  const body = slots.length > 0 ? tag('ol', 'timeline', '') : textTag('p', 'plan-empty', strings.noItems);
  const view = el('article', 'plan');
  view.innerHTML = header + warningsHtml(warnings, locale) + body;

  const timeline = view.lastElementChild!;
  let next = 0;
  // What the laid-out entries measured, to size the parts that are not laid out yet.
  let shape: TimelineShape | null = null;
  let scale = 1;
  return {
    view,
    fillFirstScreen() {
      while (next < slots.length && timeline.getBoundingClientRect().bottom < window.innerHeight * LAID_OUT_SCREENS) {
        timeline.insertAdjacentHTML('beforeend', slotsHtml(slots.slice(next, next + 1), context, TOP_LEVEL_HEADING));
        next += 1;
      }
      if (next === 0 || next === slots.length) return;
      // The entries just laid out tell how wide a line of text is, and how their height compares with the estimate.
      const item = timeline.querySelector('.slot > :last-child');
      const fontSize = Number.parseFloat(getComputedStyle(timeline).fontSize) || 16;
      shape = timelineShape((item?.clientWidth ?? timeline.clientWidth) - ITEM_PADDING_PX, fontSize);
      let estimate = 0;
      for (const slot of slots.slice(0, next)) estimate += entryHeight(slot, shape);
      scale = estimate > 0 ? timeline.getBoundingClientRect().height / estimate : fontSize / 16;
    },
    appendRest() {
      let html = '';
      const heights: number[] = [];
      for (let first = next; first < slots.length; first += PART_ENTRIES) {
        const part = slots.slice(first, first + PART_ENTRIES);
        html += `<ol class="timeline timeline--later">${slotsHtml(part, context, TOP_LEVEL_HEADING)}</ol>`;
        if (shape !== null) heights.push(Math.round(part.reduce((sum, slot) => sum + entryHeight(slot, shape!), 0) * scale));
      }
      // A link read tolerantly may hold more items than a plan may: the page says how many it left out.
      const total = countItems(plan.items);
      if (total > MAX_ITEMS) html += textTag('p', 'plan-omitted', strings.itemsLeftOut(locale.formatCount(total), locale.formatCount(MAX_ITEMS)));
      view.insertAdjacentHTML('beforeend', html);
      // Each part's placeholder is its own estimate (set through the CSSOM, which the page's style policy allows).
      if (heights.length > 0) view.querySelectorAll<HTMLElement>('.timeline--later').forEach((part, index) => {
        const height = heights[index];
        if (height !== undefined) part.style.containIntrinsicSize = `auto ${height}px`;
      });
      next = slots.length;
    },
  };
}

/** Items in the whole tree, containers and children alike (as the plan's limit counts them). */
function countItems(items: readonly PlanItem[]): number {
  let count = items.length;
  for (const item of items) if (item.type !== 'block') count += countItems(item.children);
  return count;
}

function dateHtml(date: string | null, locale: ViewerLocale): string {
  if (!date) return textTag('span', 'plan-date', locale.strings.noDate);
  return `<time class="plan-date" datetime="${escapeHtml(date)}">${escapeHtml(locale.formatDate(date))}</time>`;
}

function legendHtml(plan: Plan, locale: ViewerLocale): string {
  if (plan.blockTypes.length === 0) return '';
  let entries = '';
  // As many as a plan may declare: a link read tolerantly may hold more.
  for (const type of plan.blockTypes.slice(0, MAX_LIST_ENTRIES)) entries += tag('li', 'legend-entry', `<span class="legend-swatch"></span>${textTag('span', '', type.name)}`, { 'block-type': type.id });
  return `<ul class="legend" aria-label="${escapeHtml(locale.strings.categoriesLabel)}">${entries}</ul>`;
}

function warningsHtml(warnings: readonly string[], locale: ViewerLocale): string {
  if (warnings.length === 0) return '';
  return tag('section', 'warnings', textTag('h2', 'warnings-title', locale.strings.warningsTitle(warnings.length))
    + tag('ul', 'warnings-list', warnings.map((warning) => textTag('li', 'warning', warning)).join('')));
}
