// Renders a plan's items as a timeline: blocks in their category colours, groups with children, breakouts as parallel lanes.
import { el, withData } from './dom.js';
import type { PlanBlock, PlanBlockType, PlanBreakout, PlanGroup, PlanItem, PlanPerson } from './plan.js';
import { formatDuration, formatMinutes, placeSequence, type Slot } from './schedule.js';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/** The canonical maximum; a tolerant document with more lanes is shown with this many. */
const MAX_LANES = 10;

/** Lookup tables shared by every item of one plan. */
export interface RenderContext {
  blockTypes: Map<string, PlanBlockType>;
  persons: Map<string, PlanPerson>;
  relative: boolean;
}

/** An ordered timeline of items placed from `origin` (top level, inside a group, or inside one lane). */
export function renderTimeline(items: readonly PlanItem[], origin: number, context: RenderContext): HTMLOListElement {
  const list = el('ol', 'timeline');
  for (const slot of placeSequence(items, origin, context.relative)) {
    if (slot.gapBefore !== 0) list.append(renderGap(slot.gapBefore));
    list.append(renderSlot(slot, context));
  }
  return list;
}

function renderGap(minutes: number): HTMLLIElement {
  const text = minutes > 0 ? `Gap of ${formatDuration(minutes)}` : `Overlaps the previous item by ${formatDuration(-minutes)}`;
  return withData(el('li', minutes > 0 ? 'gap' : 'gap gap--overlap', text), { minutes: String(minutes) });
}

function renderSlot(slot: Slot<PlanItem>, context: RenderContext): HTMLLIElement {
  const { item } = slot;
  const time = el(
    'div',
    'slot-time',
    el('span', 'slot-start', formatMinutes(slot.start, context.relative)),
    el('span', 'slot-end', formatMinutes(slot.end, context.relative)),
    slot.pinned ? el('span', 'slot-pin', 'fixed') : null,
  );
  const body = item.type === 'group' ? renderGroup(item, slot.start, context)
    : item.type === 'breakout' ? renderBreakout(item, slot.start, context)
    : renderBlock(item, context);
  return withData(el('li', `slot slot--${item.type}`, time, body), {
    itemId: item.id,
    start: formatMinutes(slot.start, context.relative),
  });
}

/** A block: title, category chip in its colour, duration, people, texts. */
export function renderBlock(block: PlanBlock, context: RenderContext): HTMLElement {
  const category = block.blockTypeId === null ? undefined : context.blockTypes.get(block.blockTypeId);
  const card = el(
    'article',
    'block',
    el(
      'header',
      'item-header',
      el('h3', 'item-title', block.title),
      category ? renderCategoryChip(category) : null,
      el('span', 'item-duration', formatDuration(block.duration)),
    ),
    renderTexts(block.description, block.notes, block.material),
    renderPeople(block.personIds, context),
  );
  if (category && HEX_COLOR.test(category.color)) {
    // CSSOM writes are allowed under style-src 'self' (unlike style="" attributes), so colours come from the plan safely.
    card.style.setProperty('--category', category.color);
    card.style.setProperty('--category-ink', readableInk(category.color));
  }
  return card;
}

function renderCategoryChip(category: PlanBlockType): HTMLElement {
  return withData(el('span', 'category-chip', category.name), { blockType: category.id });
}

function renderGroup(group: PlanGroup, start: number, context: RenderContext): HTMLElement {
  return el(
    'section',
    'group',
    renderContainerHeader(group.title, group.duration),
    renderTexts(group.description, group.notes, ''),
    renderOverrun(group.children, group.duration, context),
    renderTimeline(group.children, start, context),
  );
}

function renderBreakout(breakout: PlanBreakout, start: number, context: RenderContext): HTMLElement {
  const laneCount = Number.isInteger(breakout.lanes) ? Math.min(Math.max(breakout.lanes, 1), MAX_LANES) : 1;
  const same = breakout.sameInAllBreakouts;
  const lanes = el('div', 'lanes');
  lanes.style.setProperty('--lanes', String(laneCount));
  for (let lane = 0; lane < laneCount; lane += 1) {
    const children = same ? [] : breakout.children.filter((child) => laneOf(child) === lane);
    lanes.append(renderLane(`Breakout ${lane + 1}`, String(lane), breakout.lanePersons[String(lane)] ?? [], children, start, context, !same));
  }
  if (same) {
    // One programme run in every lane: shown once, across all lanes, under the lanes' people.
    lanes.append(renderLane(`Same programme in all ${laneCount} breakouts`, 'all', [], breakout.children, start, context, true));
  } else {
    // Older documents may put children in lanes the breakout does not have; show them rather than hide them.
    const stray = breakout.children.filter((child) => laneOf(child) >= laneCount);
    if (stray.length > 0) lanes.append(renderLane('Outside the declared lanes', 'stray', [], stray, start, context, true));
  }
  return el(
    'section',
    'breakout',
    renderContainerHeader(breakout.title, breakout.duration, `${laneCount} parallel breakout${laneCount === 1 ? '' : 's'}${same ? ', same programme in each' : ''}`),
    renderTexts(breakout.description, breakout.notes, ''),
    lanes,
  );
}

function renderLane(
  title: string,
  lane: string,
  personIds: readonly string[],
  children: readonly PlanItem[],
  start: number,
  context: RenderContext,
  withProgramme: boolean,
): HTMLElement {
  const programme = !withProgramme ? null
    : children.length > 0 ? renderTimeline(children, start, context)
    : el('p', 'lane-empty', 'Nothing planned in this lane.');
  const className = lane === 'all' || lane === 'stray' ? 'lane lane--wide' : 'lane';
  return withData(el('section', className, el('h4', 'lane-title', title), renderPeople(personIds, context, 'people lane-people'), programme), { lane });
}

/** The lane an item sits in; only blocks carry a laneIndex (older documents may nest other items). */
function laneOf(item: PlanItem): number {
  return item.type === 'block' && Number.isInteger(item.laneIndex) && item.laneIndex >= 0 ? item.laneIndex : 0;
}

function renderContainerHeader(title: string, duration: number, detail?: string): HTMLElement {
  return el(
    'header',
    'item-header',
    el('h3', 'item-title', title),
    detail ? el('span', 'item-detail', detail) : null,
    el('span', 'item-duration', formatDuration(duration)),
  );
}

/** A note when a group's children take longer than the group itself. */
function renderOverrun(children: readonly PlanItem[], duration: number, context: RenderContext): HTMLElement | null {
  const slots = placeSequence(children, 0, context.relative);
  const childEnd = slots.length > 0 ? Math.max(...slots.map((slot) => slot.end)) : 0;
  if (context.relative || childEnd <= duration) return null;
  return el('p', 'overrun', `The items inside take ${formatDuration(childEnd - duration)} longer than this group.`);
}

function renderTexts(description: string, notes: string, material: string): HTMLElement | null {
  if (!description && !notes && !material) return null;
  return el(
    'div',
    'item-texts',
    description ? el('p', 'item-description', description) : null,
    notes ? el('p', 'item-notes', el('strong', '', 'Notes: '), notes) : null,
    material ? el('p', 'item-material', el('strong', '', 'Material: '), material) : null,
  );
}

function renderPeople(personIds: readonly string[], context: RenderContext, className = 'people'): HTMLElement | null {
  if (personIds.length === 0) return null;
  const list = el('ul', className);
  for (const id of personIds) {
    const person = context.persons.get(id);
    list.append(person
      ? withData(el('li', 'person', person.name, person.role ? el('span', 'person-role', person.role) : null), { personId: id })
      : withData(el('li', 'person person--unknown', `${id} (not in the people list)`), { personId: id }));
  }
  return list;
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
