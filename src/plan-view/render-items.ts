// Renders a plan's items as timeline HTML: blocks with their category, groups with children, breakouts as parallel lanes.
// Built as one escaped HTML string: for a 500-item plan the browser's parser is several times faster than createElement
// calls. The code runs once per page, before the JIT warms up, so it stays plain: template literals, no helper objects
// per element, and the markup of people and categories (repeated on many items) made once per plan. Every word comes
// from the locale it is given; nothing here reads the browser's language or touches the codec.
import { escapeHtml } from './html.js';
import type { ViewerLocale } from './i18n/locale.js';
import { breakoutLanes, laneCount, laneTitle, type BreakoutLane } from './lanes.js';
import type { Plan, PlanBlock, PlanBreakout, PlanGroup, PlanItem } from './plan.js';
import { MAX_ITEMS } from '../session/constants.js';
import { formatMinutes, overrunMinutes, placeSequence, type Slot } from './schedule.js';

/** Headings go no deeper than h6; tolerant documents may nest further than the canonical group → breakout → lane. */
const DEEPEST_HEADING = 6;

/**
 * People chips a list shows at most; the rest are counted in one line. A link may name a thousand people on each of a
 * thousand items, which would be a million elements: more than a page can lay out, and more than anyone reads.
 */
export const MAX_CHIPS_PER_LIST = 20;

/** Shared by every item of one plan: how times read, its words, and the markup of each person and category chip. */
export interface RenderContext {
  relative: boolean;
  locale: ViewerLocale;
  /** `<li class="person">` by person id. */
  personChips: Map<string, string>;
  /** ` data-category="…"` and the chip markup by block type id. */
  categories: Map<string, { attribute: string; chip: string }>;
  /** Items still to be drawn: a plan holds at most MAX_ITEMS, and a link (read tolerantly) may hold more. */
  itemsLeft: number;
}

/** The context of one plan; like the lookups before it, a later duplicate id wins (tolerant documents may repeat ids). */
export function createRenderContext(plan: Plan, relative: boolean, locale: ViewerLocale): RenderContext {
  const personChips = new Map<string, string>();
  for (const person of plan.persons) {
    // The role is shown by styles.css from its attribute: one element per chip instead of two (there are thousands).
    const role = person.role ? ` data-role="${escapeHtml(person.role)}"` : '';
    personChips.set(person.id, `<li class="person" data-person-id="${escapeHtml(person.id)}"${role}>${escapeHtml(person.name)}</li>`);
  }
  const categories = new Map<string, { attribute: string; chip: string }>();
  for (const type of plan.blockTypes) {
    const id = escapeHtml(type.id);
    categories.set(type.id, { attribute: ` data-category="${id}"`, chip: `<span class="category-chip" data-block-type="${id}">${escapeHtml(type.name)}</span>` });
  }
  return { relative, locale, personChips, categories, itemsLeft: MAX_ITEMS };
}

/** An ordered timeline of items placed from `origin` (inside a group, or inside one lane), titled at `level`. */
function timelineHtml(items: readonly PlanItem[], origin: number, context: RenderContext, level: number): string {
  return `<ol class="timeline">${slotsHtml(placeSequence(items, origin, context.relative), context, level)}</ol>`;
}

/** The list entries (gap notes and items) for already placed slots; item titles are `<h{level}>` (2 at the top level). */
export function slotsHtml(slots: readonly Slot<PlanItem>[], context: RenderContext, level: number): string {
  let html = '';
  for (const slot of slots) {
    if (context.itemsLeft <= 0) break;
    context.itemsLeft -= 1;
    if (slot.gapBefore !== 0) html += gapHtml(slot.gapBefore, context);
    html += slotHtml(slot, context, level);
  }
  return html;
}

function gapHtml(minutes: number, context: RenderContext): string {
  const { strings } = context.locale;
  return minutes > 0
    ? `<li class="gap" data-minutes="${minutes}">${escapeHtml(strings.gap(context.locale.formatDuration(minutes)))}</li>`
    : `<li class="gap gap--overlap" data-minutes="${minutes}">${escapeHtml(strings.overlap(context.locale.formatDuration(-minutes)))}</li>`;
}

function slotHtml(slot: Slot<PlanItem>, context: RenderContext, level: number): string {
  const { item } = slot;
  const start = formatMinutes(slot.start, context.relative);
  const end = formatMinutes(slot.end, context.relative);
  const pin = slot.pinned ? ` <span class="slot-pin">${escapeHtml(context.locale.strings.fixedTime)}</span>` : '';
  const body = item.type === 'group' ? groupHtml(item, slot.start, context, level)
    : item.type === 'breakout' ? breakoutHtml(item, slot.start, context, level)
    : blockHtml(item, context, level);
  // formatMinutes output is digits, ':', '+', '(', ')' and 'd': nothing to escape. The range reads "09:00–09:20" as text
  // (the dash is in the end's span, so the desktop layout can put the end below the start; phones and lanes set it in a
  // line). The space before the pin only shows where the time is set in a line.
  return `<li class="slot slot--${item.type}" data-item-id="${escapeHtml(item.id)}" data-start="${start}" data-end="${end}">`
    + `<div class="slot-time">${start}<span class="slot-end">–${end}</span>${pin}</div>`
    + `${body}</li>`;
}

function heading(level: number): string {
  return `h${Math.min(level, DEEPEST_HEADING)}`;
}

/** A block: title, category chip, duration, texts, people. Its colour comes from the plan's category rules (style-sheets.ts). */
function blockHtml(block: PlanBlock, context: RenderContext, level: number): string {
  const category = block.blockTypeId === null ? undefined : context.categories.get(block.blockTypeId);
  const h = heading(level);
  return `<article class="block"${category ? category.attribute : ''}><header class="item-header">`
    + `<${h} class="item-title">${escapeHtml(block.title)}</${h}>${category ? category.chip : ''}<span class="item-duration">${context.locale.formatDuration(block.duration)}</span>`
    + `</header>${textsHtml(block.description, block.notes, block.material)}${peopleHtml(block.personIds, context, 'people')}</article>`;
}

function groupHtml(group: PlanGroup, start: number, context: RenderContext, level: number): string {
  return `<section class="group">${containerHeaderHtml(group.title, group.duration, '', context, level)}${textsHtml(group.description, group.notes, '')}`
    + `${overrunHtml(group.children, start, group.duration, context)}${timelineHtml(group.children, start, context, level + 1)}</section>`;
}

function breakoutHtml(breakout: PlanBreakout, start: number, context: RenderContext, level: number): string {
  const { strings } = context.locale;
  const count = laneCount(breakout);
  let lanes = '';
  for (const lane of breakoutLanes(breakout)) lanes += laneHtml(lane, laneTitle(lane, count, strings), start, context, level + 1);
  const detail = escapeHtml(strings.parallelLanes(count, breakout.sameInAllBreakouts));
  return `<section class="breakout">${containerHeaderHtml(breakout.title, breakout.duration, detail, context, level)}${textsHtml(breakout.description, breakout.notes, '')}`
    + `<div class="lanes lanes--${count}">${lanes}</div></section>`;
}

function laneHtml(lane: BreakoutLane, title: string, start: number, context: RenderContext, level: number): string {
  const programme = !lane.hasProgramme ? ''
    : lane.children.length > 0 ? timelineHtml(lane.children, start, context, level + 1)
    : `<p class="lane-empty">${escapeHtml(context.locale.strings.laneEmpty)}</p>`;
  const className = lane.kind === 'lane' ? 'lane' : 'lane lane--wide';
  const h = heading(level);
  return `<section class="${className}" data-lane="${lane.key}"><${h} class="lane-title">${escapeHtml(title)}</${h}>`
    + `${peopleHtml(lane.personIds, context, 'people lane-people')}${programme}</section>`;
}

function containerHeaderHtml(title: string, duration: number, detail: string, context: RenderContext, level: number): string {
  const h = heading(level);
  return `<header class="item-header"><${h} class="item-title">${escapeHtml(title)}</${h}>${detail ? `<span class="item-detail">${detail}</span>` : ''}`
    + `<span class="item-duration">${context.locale.formatDuration(duration)}</span></header>`;
}

/** A note when a group's children take longer than the group itself. */
function overrunHtml(children: readonly PlanItem[], start: number, duration: number, context: RenderContext): string {
  const over = overrunMinutes(children, start, duration, context.relative);
  return over === 0 ? '' : `<p class="overrun">${escapeHtml(context.locale.strings.overrun(context.locale.formatDuration(over)))}</p>`;
}

/** The texts of an item; the "Notes:" and "Material:" labels come from the locale's style sheet (style-sheets.ts). */
function textsHtml(description: string, notes: string, material: string): string {
  return `${description ? `<p class="item-description">${escapeHtml(description)}</p>` : ''}`
    + `${notes ? `<p class="item-notes">${escapeHtml(notes)}</p>` : ''}`
    + `${material ? `<p class="item-material">${escapeHtml(material)}</p>` : ''}`;
}

function peopleHtml(personIds: readonly string[], context: RenderContext, className: string): string {
  if (personIds.length === 0) return '';
  let html = '';
  const shown = Math.min(personIds.length, MAX_CHIPS_PER_LIST);
  for (let index = 0; index < shown; index += 1) {
    const id = personIds[index]!;
    html += context.personChips.get(id)
      ?? `<li class="person person--unknown" data-person-id="${escapeHtml(id)}">${escapeHtml(context.locale.strings.unknownPerson(id))}</li>`;
  }
  const more = personIds.length - shown;
  if (more > 0) html += `<li class="person person--more">${escapeHtml(context.locale.strings.morePeople(context.locale.formatCount(more)))}</li>`;
  return `<ul class="${className}">${html}</ul>`;
}
