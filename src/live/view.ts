// The live screen as HTML: the running item and its lanes, the next one, the rest of the day with a now-line. Built
// again only when what runs changes; once a second only the texts that count down are set (updateTexts).
import { escapeHtml, tag, textTag } from '../plan-view/html.js';
import type { ViewerLocale } from '../plan-view/i18n/locale.js';
import type { PlanItem, PlanPerson } from '../plan-view/plan.js';
import { formatMinutes, formatRange } from '../plan-view/schedule.js';
import type { LiveStrings } from './i18n/strings.js';
import { laneMoments, type LiveEntry, type LiveMoment, type LiveSchedule } from './schedule.js';

export interface LiveWords {
  readonly live: LiveStrings;
  readonly locale: ViewerLocale;
}

/**
 * What the screen shows at a minute: the schedule and where the day is, or (moment null, before "Start now") the
 * plan's own times, as offsets from its start when it has no start time (`relative`).
 */
export interface LiveScreen {
  readonly schedule: LiveSchedule;
  readonly moment: LiveMoment | null;
  readonly relative: boolean;
  readonly now: number;
  readonly people: ReadonlyMap<string, PlanPerson>;
}

/** Titles as the page shows them: an empty title reads "Untitled". */
export function titleOf(item: PlanItem, words: LiveWords): string {
  return item.title === '' ? words.live.untitled : item.title;
}

/**
 * What identifies the screen's structure: the running entry, the next, each lane's block, the schedule's actions.
 * While it stays the same, a tick only sets texts.
 */
export function structureKey(screen: LiveScreen, version: number): string {
  const { moment } = screen;
  if (moment === null) return `start|${version}`;
  let key = `${version}|${moment.index}|${moment.current === null ? '' : 'c'}`;
  if (moment.current?.item.type === 'breakout') {
    for (const lane of laneMoments(moment.current, screen.now)) key += `|${lane.current?.item.id ?? ''}:${lane.next?.item.id ?? ''}`;
  }
  return key;
}

/** The live screen's main part for a screen state, as HTML. */
export function mainHtml(screen: LiveScreen, words: LiveWords): string {
  const { live } = words;
  const { schedule, moment } = screen;
  if (moment === null) {
    return tag('section', 'live-now live-start', textTag('h2', 'live-heading', live.now)
      + textTag('p', 'live-why', live.startNowWhy)
      + `<button type="button" class="live-button live-button--primary" data-live="start">${escapeHtml(live.startNow)}</button>`)
      + restHtml(schedule, screen, words);
  }
  return nowHtml(screen, words) + nextHtml(moment.next, screen, words) + restHtml(schedule, screen, words);
}

function nowHtml(screen: LiveScreen, words: LiveWords): string {
  const { live, locale } = words;
  const { moment, now } = screen;
  const current = moment!.current;
  let body = textTag('h2', 'live-heading', live.now);
  if (current === null) {
    const next = moment!.next;
    body += next === null
      ? textTag('p', 'live-idle', live.over)
      : textTag('p', 'live-idle', live.notStarted(formatMinutes(next.start, false), minutesLeft(next.start, now)), { count: 'start' });
    return tag('section', 'live-now', body);
  }
  if (current.group !== null) body += textTag('p', 'live-group', titleOf(current.group, words));
  body += textTag('p', 'live-title', titleOf(current.item, words))
    + textTag('p', 'live-range', formatRange(current.start, current.end, false))
    + textTag('p', 'live-left', live.minutesLeft(minutesLeft(current.end, now)), { count: 'left' })
    + progressHtml(current, now, live);
  if (current.overlap > 0) body += textTag('p', 'live-overlap', locale.strings.overlap(locale.formatDuration(current.overlap)));
  if (current.item.type === 'breakout') body += lanesHtml(current, screen, words);
  return tag('section', 'live-now', body);
}

function progressHtml(entry: LiveEntry, now: number, live: LiveStrings): string {
  const length = Math.max(1, Math.round(entry.end - entry.start));
  const gone = Math.min(length, Math.max(0, Math.floor(now - entry.start)));
  return `<div class="live-progress" role="progressbar" aria-label="${escapeHtml(live.progress)}" aria-valuemin="0" aria-valuemax="${length}" aria-valuenow="${gone}"><span class="live-progress-bar"></span></div>`;
}

function lanesHtml(entry: LiveEntry, screen: LiveScreen, words: LiveWords): string {
  const { live, locale } = words;
  let lanes = '';
  laneMoments(entry, screen.now).forEach((lane, index) => {
    let body = textTag('h3', 'live-lane-title', locale.strings.lane(index + 1));
    if (lane.current !== null) {
      // A block is cut where its breakout ends (Done on the breakout ends every lane).
      const end = Math.min(lane.current.end, entry.end);
      body += textTag('p', 'live-lane-block', titleOf(lane.current.item, words))
        + textTag('p', 'live-range', formatRange(lane.current.start, end, false))
        + textTag('p', 'live-left', live.minutesLeft(minutesLeft(end, screen.now)), { count: 'lane', end: String(end) });
    } else {
      body += textTag('p', 'live-lane-idle', live.laneIdle);
    }
    if (lane.next !== null) body += textTag('p', 'live-lane-next', `${live.next}: ${titleOf(lane.next.item, words)} ${live.startsAt(formatMinutes(lane.next.start, false))}`);
    lanes += tag('li', 'live-lane', body);
  });
  return tag('ul', 'live-lanes', lanes);
}

function nextHtml(next: LiveEntry | null, screen: LiveScreen, words: LiveWords): string {
  const { live } = words;
  if (next === null) return '';
  let body = textTag('h2', 'live-heading', live.next);
  if (next.group !== null) body += textTag('p', 'live-group', titleOf(next.group, words));
  body += textTag('p', 'live-next-title', titleOf(next.item, words)) + textTag('p', 'live-range', live.startsAt(formatMinutes(next.start, false)));
  const people = next.item.type === 'block' ? next.item.personIds : [];
  if (people.length > 0) {
    let chips = '';
    for (const id of people.slice(0, 20)) chips += textTag('li', 'person', screen.people.get(id)?.name ?? id);
    body += tag('ul', 'people', chips);
  }
  return tag('section', 'live-next', body);
}

/** The whole day, compact: each entry's time and title, past ones muted, the running one marked, a now-line between. */
function restHtml(schedule: LiveSchedule, screen: LiveScreen, words: LiveWords): string {
  const { live, locale } = words;
  const { moment } = screen;
  const current = moment?.current ?? null;
  let rows = '';
  schedule.entries.forEach((entry, position) => {
    if (moment !== null && position === moment.index && current === null) rows += nowLine(screen.now, live);
    const state = entry === current ? ' live-row--current' : moment !== null && entry.end <= screen.now ? ' live-row--past' : '';
    let text = escapeHtml(entry.group === null ? titleOf(entry.item, words) : `${titleOf(entry.group, words)}: ${titleOf(entry.item, words)}`);
    if (entry.pinned && !screen.relative) text += ` <span class="live-pin">${escapeHtml(locale.strings.fixedTime)}</span>`;
    if (entry.overlap > 0 && !screen.relative) text += ` ${textTag('span', 'live-overlap', locale.strings.overlap(locale.formatDuration(entry.overlap)))}`;
    rows += `<li class="live-row${state}"${entry === current ? ' aria-current="true"' : ''}><span class="live-row-time">${formatMinutes(entry.start, screen.relative)}</span> <span class="live-row-title">${text}</span></li>`;
    if (entry === current) rows += nowLine(screen.now, live);
  });
  if (moment !== null && moment.index >= schedule.entries.length && schedule.entries.length > 0) rows += nowLine(screen.now, live);
  const end = moment === null ? '' : textTag('p', 'live-rest-end', live.endOfDay(formatMinutes(schedule.end, false)));
  return tag('section', 'live-rest', textTag('h2', 'live-heading', live.restOfDay) + tag('ol', 'live-rows', rows) + end);
}

function nowLine(now: number, live: LiveStrings): string {
  return `<li class="live-now-line" data-count="clock">${escapeHtml(live.nowLine(formatMinutes(Math.floor(now), false)))}</li>`;
}

/** Whole minutes left, counted up: "1 min left" until the item ends. */
export function minutesLeft(end: number, now: number): number {
  return Math.max(0, Math.ceil(end - now - 1e-9));
}

/**
 * Sets the texts that count down for the minute `now`: the minutes left of the item and its lanes, the minutes to
 * the start, the progress, the now-line's clock. Each is written only when its text changes, so most ticks touch nothing.
 */
export function updateTexts(root: HTMLElement, moment: LiveMoment | null, now: number, words: LiveWords): void {
  const { live } = words;
  const current = moment?.current ?? null;
  for (const node of root.querySelectorAll<HTMLElement>('[data-count]')) {
    const kind = node.dataset['count'];
    let text: string | null = null;
    if (kind === 'left' && current !== null) text = live.minutesLeft(minutesLeft(current.end, now));
    else if (kind === 'lane') text = live.minutesLeft(minutesLeft(Number(node.dataset['end']), now));
    else if (kind === 'start' && moment?.next != null) text = live.notStarted(formatMinutes(moment.next.start, false), minutesLeft(moment.next.start, now));
    else if (kind === 'clock') text = live.nowLine(formatMinutes(Math.floor(now), false));
    if (text !== null && node.textContent !== text) node.textContent = text;
  }
  const progress = root.querySelector<HTMLElement>('.live-progress');
  if (progress !== null && current !== null) {
    const length = Math.max(1, Math.round(current.end - current.start));
    const gone = String(Math.min(length, Math.max(0, Math.floor(now - current.start))));
    if (progress.getAttribute('aria-valuenow') !== gone) progress.setAttribute('aria-valuenow', gone);
    // A step per ten seconds is smooth enough to read and leaves nine ticks in ten without a style change.
    const elapsed = Math.floor((now - current.start) * 6) / 6;
    const share = Math.min(1, Math.max(0, elapsed / Math.max(1e-9, current.end - current.start)));
    const transform = `scaleX(${share.toFixed(4)})`;
    const bar = progress.firstElementChild as HTMLElement | null;
    if (bar !== null && bar.style.transform !== transform) bar.style.transform = transform;
  }
}
