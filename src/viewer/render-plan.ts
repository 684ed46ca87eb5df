// Renders a whole decoded plan (header, warnings, timeline) or a readable error in place of it.
import { el } from './dom.js';
import { escapeHtml, tag, textTag } from './html.js';
import type { Plan } from './plan.js';
import { createRenderContext, slotsHtml } from './render-items.js';
import { formatDuration, formatMinutes, placeSequence, workshopClock } from './schedule.js';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** Top-level items in the first render: enough to fill a screen, so a 500-item plan shows up at once. */
export const FIRST_SCREEN_ITEMS = 12;
/** Top-level items per later chunk, each in its own task so the page stays responsive while the rest arrives. */
export const CHUNK_ITEMS = 40;

/** A plan being shown: the view, and the top-level items still to append (see appendNextChunk). */
export interface PlanRendering {
  view: HTMLElement;
  remaining: number;
  appendNextChunk(): void;
}

/** The plan view: workshop header, decode warnings, then the timeline of the first top-level items. */
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
  const body = slots.length > 0
    ? tag('ol', 'timeline', slotsHtml(slots.slice(0, FIRST_SCREEN_ITEMS), context))
    : textTag('p', 'plan-empty', 'This plan has no items yet.');
  const view = el('article', 'plan');
  view.innerHTML = header + warningsHtml(warnings) + body;

  const timeline = view.lastElementChild!;
  let next = Math.min(FIRST_SCREEN_ITEMS, slots.length);
  return {
    view,
    get remaining() {
      return slots.length - next;
    },
    appendNextChunk() {
      const chunk = slots.slice(next, next + CHUNK_ITEMS);
      next += chunk.length;
      timeline.insertAdjacentHTML('beforeend', slotsHtml(chunk, context));
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
export function renderProblem(title: string, message: string, hint: string): HTMLElement {
  const section = el('section', 'problem', el('h1', 'problem-title', title), el('p', 'problem-message', message), el('p', 'problem-hint', hint));
  section.setAttribute('role', 'alert');
  return section;
}
