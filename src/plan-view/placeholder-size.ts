// Estimates how tall the timeline's later parts will be before the browser lays them out, so the page keeps its height
// (and its scrollbar stays put) while they scroll into view.
import { laneCount, laneOf } from './lanes.js';
import type { PlanItem } from './plan.js';
import type { Slot } from './schedule.js';

/** The timeline's shape at its current width: how many characters a line of text holds, and whether lanes stack. */
export interface TimelineShape {
  charsPerLine: number;
  lanesStacked: boolean;
}

/** Below this width the lanes of a breakout stack (styles.css, the phone layout) and times sit above their item. */
const NARROW = 640;
/** An average character of the body text (system-ui) is a little over half the font size wide. */
const CHAR_EM = 0.55;
/** A block lists at most this many people before "and N more" (render-items.ts). */
const PEOPLE_SHOWN = 20;

/** What a block adds: its frame and title row, a category chip, each person, each line of its texts. */
interface BlockWeights {
  block: number;
  category: number;
  person: number;
  textLine: number;
}

/**
 * Pixels (at a 16 px font) that each part of an entry adds, on a phone (narrow: times above items, lanes stacked, a
 * person chip per line) and wide (lanes side by side, where a block's lines are short). Fitted to the page's layout
 * in Chromium over generated plans; the page scales them by what the entries it laid out measured.
 */
const WEIGHTS = {
  narrow: {
    item: { block: 101, category: 35, person: 27.5, textLine: 23 },
    sideBySide: { block: 101, category: 35, person: 27.5, textLine: 23 },
    gap: 36, group: 32, groupChild: 64, breakout: 0, lanePerson: 35, lane: 103, sameProgramme: 142,
  },
  wide: {
    item: { block: 75.6, category: 1.4, person: 6.2, textLine: 19.5 },
    sideBySide: { block: 32, category: 0, person: 21.5, textLine: 52.5 },
    gap: 36, group: 26.5, groupChild: 53, breakout: 78.7, lanePerson: 17.3, lane: 75.7, sameProgramme: 46.6,
  },
};
type Weights = (typeof WEIGHTS)['wide'];

export function timelineShape(width: number, fontSize: number): TimelineShape {
  return { charsPerLine: Math.max(12, Math.floor(width / (fontSize * CHAR_EM))), lanesStacked: width < NARROW };
}

/**
 * An entry's estimated height: each item's frame and title row, its texts wrapped at the width, its people, a gap
 * note, and a breakout's lanes side by side (the tallest) or stacked (all of them).
 */
export function entryHeight(slot: Slot<PlanItem>, shape: TimelineShape): number {
  const weights = shape.lanesStacked ? WEIGHTS.narrow : WEIGHTS.wide;
  return (slot.gapBefore === 0 ? 0 : weights.gap) + itemHeight(slot.item, shape, weights, weights.item);
}

function itemHeight(item: PlanItem, shape: TimelineShape, weights: Weights, block: BlockWeights): number {
  const text = (value: string, per: number) => textLines(value, shape) * per;
  if (item.type === 'block') {
    return block.block + (item.blockTypeId === null ? 0 : block.category) + Math.min(item.personIds.length, PEOPLE_SHOWN) * block.person
      + text(item.description, block.textLine) + text(item.material, block.textLine);
  }
  let height = text(item.description, weights.item.textLine);
  if (item.type === 'group') {
    // Children sit inside the group's frame, a little narrower.
    const inner = { ...shape, charsPerLine: Math.max(12, shape.charsPerLine - 6) };
    height += weights.group;
    for (const child of item.children) height += weights.groupChild + itemHeight(child, inner, weights, block);
    return height;
  }
  const lanes = laneCount(item);
  let people = 0;
  for (const ids of Object.values(item.lanePersons)) people += Array.isArray(ids) ? Math.min(ids.length, PEOPLE_SHOWN) : 0;
  height += weights.breakout + people * weights.lanePerson;
  if (item.sameInAllBreakouts) {
    // One programme across the width, under a row (or, on a phone, a stack) of the lanes and their people.
    height += weights.sameProgramme + lanes * weights.lane;
    for (const child of item.children) height += itemHeight(child, shape, weights, weights.item);
    return height;
  }
  const laneShape = shape.lanesStacked ? shape : { ...shape, charsPerLine: Math.max(12, Math.floor(shape.charsPerLine / lanes)) };
  const laneBlock = shape.lanesStacked ? weights.item : weights.sideBySide;
  const laneHeights = new Array<number>(lanes).fill(0);
  for (const child of item.children) {
    const lane = Math.min(laneOf(child), lanes - 1);
    laneHeights[lane]! += itemHeight(child, laneShape, weights, laneBlock);
  }
  return height + (shape.lanesStacked ? lanes * weights.lane + laneHeights.reduce((sum, lane) => sum + lane, 0) : Math.max(...laneHeights));
}

function textLines(text: string, shape: TimelineShape): number {
  if (text === '') return 0;
  let lines = 0;
  for (const line of text.split('\n')) lines += Math.max(1, Math.ceil(line.length / shape.charsPerLine));
  return lines;
}
