// Renders a plan's items as timeline HTML: blocks with their category, groups with children, breakouts as parallel lanes.
// Built as one escaped HTML string: for a 500-item plan the browser's parser is several times faster than createElement calls.
import { escapeHtml, tag, textTag } from './html.js';
import type { PlanBlock, PlanBlockType, PlanBreakout, PlanGroup, PlanItem, PlanPerson } from './plan.js';
import { formatDuration, formatMinutes, placeSequence, type Slot } from './schedule.js';

/** The canonical maximum; a tolerant document with more lanes is shown with this many. */
const MAX_LANES = 10;

/** Lookup tables shared by every item of one plan. */
export interface RenderContext {
  blockTypes: Map<string, PlanBlockType>;
  persons: Map<string, PlanPerson>;
  relative: boolean;
}

/** An ordered timeline of items placed from `origin` (top level, inside a group, or inside one lane). */
export function timelineHtml(items: readonly PlanItem[], origin: number, context: RenderContext): string {
  return tag('ol', 'timeline', slotsHtml(placeSequence(items, origin, context.relative), context));
}

/** The list entries (gap notes and items) for already placed slots; the top level renders these in chunks. */
export function slotsHtml(slots: readonly Slot<PlanItem>[], context: RenderContext): string {
  let html = '';
  for (const slot of slots) {
    if (slot.gapBefore !== 0) html += gapHtml(slot.gapBefore);
    html += slotHtml(slot, context);
  }
  return html;
}

function gapHtml(minutes: number): string {
  const text = minutes > 0 ? `Gap of ${formatDuration(minutes)}` : `Overlaps the previous item by ${formatDuration(-minutes)}`;
  return textTag('li', minutes > 0 ? 'gap' : 'gap gap--overlap', text, { minutes: String(minutes) });
}

function slotHtml(slot: Slot<PlanItem>, context: RenderContext): string {
  const { item } = slot;
  const start = formatMinutes(slot.start, context.relative);
  const time = tag('div', 'slot-time',
    textTag('span', 'slot-start', start)
    + textTag('span', 'slot-end', formatMinutes(slot.end, context.relative))
    + (slot.pinned ? textTag('span', 'slot-pin', 'fixed') : ''));
  const body = item.type === 'group' ? groupHtml(item, slot.start, context)
    : item.type === 'breakout' ? breakoutHtml(item, slot.start, context)
    : blockHtml(item, context);
  return tag('li', `slot slot--${item.type}`, time + body, { 'item-id': item.id, start });
}

/** A block: title, category chip, duration, texts, people. Its colour comes from the plan's category rules (render-plan.ts). */
function blockHtml(block: PlanBlock, context: RenderContext): string {
  const category = block.blockTypeId === null ? undefined : context.blockTypes.get(block.blockTypeId);
  const header = tag('header', 'item-header',
    textTag('h3', 'item-title', block.title)
    + (category ? textTag('span', 'category-chip', category.name, { 'block-type': category.id }) : '')
    + textTag('span', 'item-duration', formatDuration(block.duration)));
  const body = header + textsHtml(block.description, block.notes, block.material) + peopleHtml(block.personIds, context);
  return category ? tag('article', 'block', body, { category: category.id }) : tag('article', 'block', body);
}

function groupHtml(group: PlanGroup, start: number, context: RenderContext): string {
  return tag('section', 'group',
    containerHeaderHtml(group.title, group.duration)
    + textsHtml(group.description, group.notes, '')
    + overrunHtml(group.children, group.duration, context)
    + timelineHtml(group.children, start, context));
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
  return tag('section', 'breakout',
    containerHeaderHtml(breakout.title, breakout.duration, detail)
    + textsHtml(breakout.description, breakout.notes, '')
    + tag('div', `lanes lanes--${laneCount}`, lanes));
}

function laneHtml(title: string, lane: string, personIds: readonly string[], children: readonly PlanItem[], start: number, context: RenderContext, withProgramme: boolean): string {
  const programme = !withProgramme ? ''
    : children.length > 0 ? timelineHtml(children, start, context)
    : textTag('p', 'lane-empty', 'Nothing planned in this lane.');
  const className = lane === 'all' || lane === 'stray' ? 'lane lane--wide' : 'lane';
  return tag('section', className, textTag('h4', 'lane-title', title) + peopleHtml(personIds, context, 'people lane-people') + programme, { lane });
}

/** The lane an item sits in; only blocks carry a laneIndex (older documents may nest other items). */
function laneOf(item: PlanItem): number {
  return item.type === 'block' && Number.isInteger(item.laneIndex) && item.laneIndex >= 0 ? item.laneIndex : 0;
}

function containerHeaderHtml(title: string, duration: number, detail?: string): string {
  return tag('header', 'item-header',
    textTag('h3', 'item-title', title)
    + (detail ? textTag('span', 'item-detail', detail) : '')
    + textTag('span', 'item-duration', formatDuration(duration)));
}

/** A note when a group's children take longer than the group itself. */
function overrunHtml(children: readonly PlanItem[], duration: number, context: RenderContext): string {
  if (context.relative) return '';
  const childEnd = placeSequence(children, 0, false).reduce((end, slot) => Math.max(end, slot.end), 0);
  return childEnd <= duration ? '' : textTag('p', 'overrun', `The items inside take ${formatDuration(childEnd - duration)} longer than this group.`);
}

function textsHtml(description: string, notes: string, material: string): string {
  if (!description && !notes && !material) return '';
  return tag('div', 'item-texts',
    (description ? textTag('p', 'item-description', description) : '')
    + (notes ? tag('p', 'item-notes', `<strong>Notes: </strong>${escapeHtml(notes)}`) : '')
    + (material ? tag('p', 'item-material', `<strong>Material: </strong>${escapeHtml(material)}`) : ''));
}

function peopleHtml(personIds: readonly string[], context: RenderContext, className = 'people'): string {
  if (personIds.length === 0) return '';
  let html = '';
  for (const id of personIds) {
    const person = context.persons.get(id);
    html += person
      ? tag('li', 'person', escapeHtml(person.name) + (person.role ? textTag('span', 'person-role', person.role) : ''), { 'person-id': id })
      : textTag('li', 'person person--unknown', `${id} (not in the people list)`, { 'person-id': id });
  }
  return tag('ul', className, html);
}
