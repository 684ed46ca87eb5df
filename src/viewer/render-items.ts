// Renders a plan's items as timeline HTML: blocks with their category, groups with children, breakouts as parallel lanes.
// Built as one escaped HTML string: for a 500-item plan the browser's parser is several times faster than createElement
// calls. The code runs once per page, before the JIT warms up, so it stays plain: template literals, no helper objects
// per element, and the markup of people and categories (repeated on many items) made once per plan.
import { escapeHtml } from './html.js';
import type { Plan, PlanBlock, PlanBreakout, PlanGroup, PlanItem } from './plan.js';
import { formatDuration, formatMinutes, placeSequence, type Slot } from './schedule.js';

/** The canonical maximum; a tolerant document with more lanes is shown with this many. */
const MAX_LANES = 10;

/** Shared by every item of one plan: how times read, and the markup of each person and category chip. */
export interface RenderContext {
  relative: boolean;
  /** `<li class="person">` by person id. */
  personChips: Map<string, string>;
  /** ` data-category="…"` and the chip markup by block type id. */
  categories: Map<string, { attribute: string; chip: string }>;
}

/** The context of one plan; like the lookups before it, a later duplicate id wins (tolerant documents may repeat ids). */
export function createRenderContext(plan: Plan, relative: boolean): RenderContext {
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
  return { relative, personChips, categories };
}

/** An ordered timeline of items placed from `origin` (top level, inside a group, or inside one lane). */
function timelineHtml(items: readonly PlanItem[], origin: number, context: RenderContext): string {
  return `<ol class="timeline">${slotsHtml(placeSequence(items, origin, context.relative), context)}</ol>`;
}

/** The list entries (gap notes and items) for already placed slots. */
export function slotsHtml(slots: readonly Slot<PlanItem>[], context: RenderContext): string {
  let html = '';
  for (const slot of slots) {
    if (slot.gapBefore !== 0) html += gapHtml(slot.gapBefore);
    html += slotHtml(slot, context);
  }
  return html;
}

function gapHtml(minutes: number): string {
  return minutes > 0
    ? `<li class="gap" data-minutes="${minutes}">Gap of ${formatDuration(minutes)}</li>`
    : `<li class="gap gap--overlap" data-minutes="${minutes}">Overlaps the previous item by ${formatDuration(-minutes)}</li>`;
}

function slotHtml(slot: Slot<PlanItem>, context: RenderContext): string {
  const { item } = slot;
  const start = formatMinutes(slot.start, context.relative);
  const pin = slot.pinned ? '<span class="slot-pin">fixed</span>' : '';
  const body = item.type === 'group' ? groupHtml(item, slot.start, context)
    : item.type === 'breakout' ? breakoutHtml(item, slot.start, context)
    : blockHtml(item, context);
  // formatMinutes output is digits, ':', '+', '(', ')' and 'd': nothing to escape.
  return `<li class="slot slot--${item.type}" data-item-id="${escapeHtml(item.id)}" data-start="${start}">`
    + `<div class="slot-time">${start}<span class="slot-end">${formatMinutes(slot.end, context.relative)}</span>${pin}</div>`
    + `${body}</li>`;
}

/** A block: title, category chip, duration, texts, people. Its colour comes from the plan's category rules (render-plan.ts). */
function blockHtml(block: PlanBlock, context: RenderContext): string {
  const category = block.blockTypeId === null ? undefined : context.categories.get(block.blockTypeId);
  return `<article class="block"${category ? category.attribute : ''}><header class="item-header">`
    + `<h3 class="item-title">${escapeHtml(block.title)}</h3>${category ? category.chip : ''}<span class="item-duration">${formatDuration(block.duration)}</span>`
    + `</header>${textsHtml(block.description, block.notes, block.material)}${peopleHtml(block.personIds, context, 'people')}</article>`;
}

function groupHtml(group: PlanGroup, start: number, context: RenderContext): string {
  return `<section class="group">${containerHeaderHtml(group.title, group.duration, '')}${textsHtml(group.description, group.notes, '')}`
    + `${overrunHtml(group.children, group.duration, context)}${timelineHtml(group.children, start, context)}</section>`;
}

function breakoutHtml(breakout: PlanBreakout, start: number, context: RenderContext): string {
  const laneCount = Number.isInteger(breakout.lanes) ? Math.min(Math.max(breakout.lanes, 1), MAX_LANES) : 1;
  const same = breakout.sameInAllBreakouts;
  let lanes = '';
  for (let lane = 0; lane < laneCount; lane += 1) {
    const children = same ? [] : breakout.children.filter((child) => laneOf(child) === lane);
    lanes += laneHtml(`Breakout ${lane + 1}`, String(lane), breakout.lanePersons[String(lane)] ?? [], children, start, context, !same);
  }
  if (same) {
    // One programme run in every lane: shown once, across all lanes, under the lanes' people.
    lanes += laneHtml(`Same programme in all ${laneCount} breakouts`, 'all', [], breakout.children, start, context, true);
  } else {
    // Older documents may put children in lanes the breakout does not have; show them rather than hide them.
    const stray = breakout.children.filter((child) => laneOf(child) >= laneCount);
    if (stray.length > 0) lanes += laneHtml('Outside the declared lanes', 'stray', [], stray, start, context, true);
  }
  const detail = `${laneCount} parallel breakout${laneCount === 1 ? '' : 's'}${same ? ', same programme in each' : ''}`;
  return `<section class="breakout">${containerHeaderHtml(breakout.title, breakout.duration, detail)}${textsHtml(breakout.description, breakout.notes, '')}`
    + `<div class="lanes lanes--${laneCount}">${lanes}</div></section>`;
}

function laneHtml(title: string, lane: string, personIds: readonly string[], children: readonly PlanItem[], start: number, context: RenderContext, withProgramme: boolean): string {
  const programme = !withProgramme ? ''
    : children.length > 0 ? timelineHtml(children, start, context)
    : '<p class="lane-empty">Nothing planned in this lane.</p>';
  const className = lane === 'all' || lane === 'stray' ? 'lane lane--wide' : 'lane';
  return `<section class="${className}" data-lane="${lane}"><h4 class="lane-title">${title}</h4>${peopleHtml(personIds, context, 'people lane-people')}${programme}</section>`;
}

/** The lane an item sits in; only blocks carry a laneIndex (older documents may nest other items). */
function laneOf(item: PlanItem): number {
  return item.type === 'block' && Number.isInteger(item.laneIndex) && item.laneIndex >= 0 ? item.laneIndex : 0;
}

function containerHeaderHtml(title: string, duration: number, detail: string): string {
  return `<header class="item-header"><h3 class="item-title">${escapeHtml(title)}</h3>${detail ? `<span class="item-detail">${detail}</span>` : ''}`
    + `<span class="item-duration">${formatDuration(duration)}</span></header>`;
}

/** A note when a group's children take longer than the group itself. */
function overrunHtml(children: readonly PlanItem[], duration: number, context: RenderContext): string {
  if (context.relative) return '';
  let childEnd = 0;
  for (const slot of placeSequence(children, 0, false)) if (slot.end > childEnd) childEnd = slot.end;
  return childEnd <= duration ? '' : `<p class="overrun">The items inside take ${formatDuration(childEnd - duration)} longer than this group.</p>`;
}

/** The texts of an item; the "Notes:" and "Material:" labels come from styles.css. */
function textsHtml(description: string, notes: string, material: string): string {
  return `${description ? `<p class="item-description">${escapeHtml(description)}</p>` : ''}`
    + `${notes ? `<p class="item-notes">${escapeHtml(notes)}</p>` : ''}`
    + `${material ? `<p class="item-material">${escapeHtml(material)}</p>` : ''}`;
}

function peopleHtml(personIds: readonly string[], context: RenderContext, className: string): string {
  if (personIds.length === 0) return '';
  let html = '';
  for (const id of personIds) {
    html += context.personChips.get(id)
      ?? `<li class="person person--unknown" data-person-id="${escapeHtml(id)}">${escapeHtml(id)} (not in the people list)</li>`;
  }
  return `<ul class="${className}">${html}</ul>`;
}
