// Renders a whole decoded plan (header, warnings, timeline) or a readable error in place of it.
import { el, withData } from './dom.js';
import type { Plan } from './plan.js';
import { renderTimeline, type RenderContext } from './render-items.js';
import { formatDuration, formatMinutes, placeSequence, workshopClock } from './schedule.js';

/** The plan page: workshop header, decode warnings, then the timeline of top-level items. */
export function renderPlan(plan: Plan, warnings: readonly string[]): HTMLElement {
  const clock = workshopClock(plan.workshop.startTime);
  const context: RenderContext = {
    blockTypes: new Map(plan.blockTypes.map((type) => [type.id, type])),
    persons: new Map(plan.persons.map((person) => [person.id, person])),
    relative: clock.relative,
  };
  const slots = placeSequence(plan.items, clock.origin, clock.relative);
  const end = slots.length > 0 ? slots[slots.length - 1]!.end : clock.origin;
  return el(
    'article',
    'plan',
    el(
      'header',
      'plan-header',
      el('h1', 'plan-title', plan.workshop.title),
      el(
        'p',
        'plan-meta',
        renderDate(plan.workshop.date),
        clock.relative
          ? el('span', 'plan-start', 'No start time set: times count from the start')
          : el('span', 'plan-start', `Starts ${formatMinutes(clock.origin, false)}`),
        slots.length > 0 ? el('span', 'plan-end', `Ends ${formatMinutes(end, clock.relative)}`) : null,
        el('span', 'plan-length', formatDuration(end - clock.origin)),
      ),
      plan.workshop.description ? el('p', 'plan-description', plan.workshop.description) : null,
      renderLegend(plan),
    ),
    renderWarnings(warnings),
    plan.items.length > 0 ? renderTimeline(plan.items, clock.origin, context) : el('p', 'plan-empty', 'This plan has no items yet.'),
  );
}

function renderDate(date: string | null): HTMLElement {
  if (!date) return el('span', 'plan-date', 'No date set');
  const time = el('time', 'plan-date', formatDate(date));
  time.dateTime = date;
  return time;
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

function renderLegend(plan: Plan): HTMLElement | null {
  if (plan.blockTypes.length === 0) return null;
  const list = el('ul', 'legend');
  for (const type of plan.blockTypes) {
    const entry = withData(el('li', 'legend-entry', el('span', 'legend-swatch'), type.name), { blockType: type.id });
    if (/^#[0-9a-fA-F]{6}$/.test(type.color)) entry.style.setProperty('--category', type.color);
    list.append(entry);
  }
  return list;
}

function renderWarnings(warnings: readonly string[]): HTMLElement | null {
  if (warnings.length === 0) return null;
  return el(
    'section',
    'warnings',
    el('h2', 'warnings-title', warnings.length === 1 ? 'This plan has 1 warning' : `This plan has ${warnings.length} warnings`),
    el('ul', 'warnings-list', ...warnings.map((warning) => el('li', 'warning', warning))),
  );
}

/** What the reader sees instead of a plan: what is wrong, and what to supply instead. */
export function renderProblem(title: string, message: string, hint: string): HTMLElement {
  const section = el('section', 'problem', el('h1', 'problem-title', title), el('p', 'problem-message', message), el('p', 'problem-hint', hint));
  section.setAttribute('role', 'alert');
  return section;
}
