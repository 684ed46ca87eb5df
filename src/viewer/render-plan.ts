// Renders a whole decoded plan (header, warnings, timeline) or a readable error in place of it.
import { el } from './dom.js';
import { escapeHtml, tag, textTag } from './html.js';
import type { Plan } from './plan.js';
import { createRenderContext, slotsHtml } from './render-items.js';
import { formatDuration, formatMinutes, placeSequence, workshopClock } from './schedule.js';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * Top-level entries per later part of the timeline. Each part is one content-visibility box (styles.css): a box per
 * entry cost about 30 µs each in style and layout, 10 ms for a 500-item plan; a part of 10 is still quick to lay out
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
export function renderPlan(plan: Plan, warnings: readonly string[]): PlanRendering {
  const clock = workshopClock(plan.workshop.startTime);
  const context = createRenderContext(plan, clock.relative);
  const slots = placeSequence(plan.items, clock.origin, clock.relative);
  const end = slots.length > 0 ? slots[slots.length - 1]!.end : clock.origin;
  const meta = dateHtml(plan.workshop.date)
    + textTag('span', 'plan-start', clock.relative ? 'No start time set: times count from the start' : `Starts ${formatMinutes(clock.origin, false)}`)
    + (slots.length > 0 ? textTag('span', 'plan-end', `Ends ${formatMinutes(end, clock.relative)}`) : '')
    + textTag('span', 'plan-length', formatDuration(end - clock.origin));
  const header = tag('header', 'plan-header',
    textTag('h1', 'plan-title', plan.workshop.title)
    + tag('p', 'plan-meta', meta)
    + (plan.workshop.description ? textTag('p', 'plan-description', plan.workshop.description) : '')
    + legendHtml(plan));
  const body = slots.length > 0 ? tag('ol', 'timeline', '') : textTag('p', 'plan-empty', 'This plan has no items yet.');
  const view = el('article', 'plan');
  view.innerHTML = header + warningsHtml(warnings) + body;

  const timeline = view.lastElementChild!;
  let next = 0;
  return {
    view,
    fillFirstScreen() {
      while (next < slots.length && timeline.getBoundingClientRect().bottom < window.innerHeight * LAID_OUT_SCREENS) {
        timeline.insertAdjacentHTML('beforeend', slotsHtml(slots.slice(next, next + 1), context));
        next += 1;
      }
    },
    appendRest() {
      let html = '';
      for (let first = next; first < slots.length; first += PART_ENTRIES)
        html += `<ol class="timeline timeline--later">${slotsHtml(slots.slice(first, first + PART_ENTRIES), context)}</ol>`;
      view.insertAdjacentHTML('beforeend', html);
      next = slots.length;
    },
  };
}

/**
 * One rule per category (`--category`, `--category-ink`) in a constructed stylesheet: plan colours reach the page through
 * the CSSOM, which style-src 'self' allows (it forbids only inline <style> and style="" markup).
 */
export function categoryStyleSheet(plan: Plan): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  let rules = '';
  for (const type of plan.blockTypes) {
    if (!HEX_COLOR.test(type.color)) continue;
    const id = CSS.escape(type.id);
    rules += `[data-category="${id}"], .legend-entry[data-block-type="${id}"] { --category: ${type.color}; --category-ink: ${readableInk(type.color)}; }\n`;
  }
  sheet.replaceSync(rules);
  return sheet;
}

function dateHtml(date: string | null): string {
  if (!date) return textTag('span', 'plan-date', 'No date set');
  return `<time class="plan-date" datetime="${escapeHtml(date)}">${escapeHtml(formatDate(date))}</time>`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * "Saturday, 14 March 2026", in English like the rest of the page. Computed in UTC so the calendar day never shifts
 * with the time zone; done by hand because the first Intl date format of a page costs far more than the whole render.
 */
function formatDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return `${WEEKDAYS[parsed.getUTCDay()]}, ${parsed.getUTCDate()} ${MONTHS[parsed.getUTCMonth()]} ${parsed.getUTCFullYear()}`;
}

function legendHtml(plan: Plan): string {
  if (plan.blockTypes.length === 0) return '';
  let entries = '';
  for (const type of plan.blockTypes) entries += tag('li', 'legend-entry', `<span class="legend-swatch"></span>${textTag('span', '', type.name)}`, { 'block-type': type.id });
  return tag('ul', 'legend', entries);
}

function warningsHtml(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  const title = warnings.length === 1 ? 'This plan has 1 warning' : `This plan has ${warnings.length} warnings`;
  return tag('section', 'warnings', textTag('h2', 'warnings-title', title) + tag('ul', 'warnings-list', warnings.map((warning) => textTag('li', 'warning', warning)).join('')));
}

/** Black or white text, whichever reads better on the given #rrggbb background (WCAG relative luminance). */
export function readableInk(color: string): string {
  const channel = (offset: number): number => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#111111' : '#ffffff';
}

/** What the reader sees instead of a plan: what is wrong, and what to supply instead. */
/**
 * A problem page: a title and one plain sentence for whoever opened the link; `details` (the decoder's own message and
 * what to do about it, for whoever made the link) is folded below it.
 */
export function renderProblem(title: string, message: string, details?: { message: string; hint: string }): HTMLElement {
  const section = el('section', 'problem', el('h1', 'problem-title', title), el('p', 'problem-message', message));
  if (details !== undefined) {
    const folded = el('details', 'problem-details', el('summary', 'problem-summary', 'Details for the person who made the link'), el('p', 'problem-detail', details.message), el('p', 'problem-hint', details.hint));
    section.append(folded);
  }
  section.setAttribute('role', 'alert');
  return section;
}
