// The plan as a Markdown agenda: a heading, the day, and one GFM table row per item and breakout lane (time range, title,
// duration, people, material), groups and breakouts marked as such and their contents indented with "↳".
import { planSchedule } from '../../plan-view/agenda.js';
import type { ViewerLocale } from '../../plan-view/i18n/locale.js';
import { laneCount, laneTitle } from '../../plan-view/lanes.js';
import type { Plan } from '../../plan-view/plan.js';
import { planLengthParts } from '../../plan-view/plan-length.js';
import { formatRange } from '../../plan-view/schedule.js';
import { peopleText, personNames } from './people.js';

export interface AgendaOptions {
  /** Add a Notes column with the facilitator's notes (the page shows them). */
  notes: boolean;
}

/** Characters that would start inline Markdown wherever they stand (emphasis, code, links, HTML, tables, strike-through). */
const INLINE_SPECIAL = /[\\`*[\]<>|~]/g;
/** `_` opens or closes emphasis only at a word's edge: inside a word (`snake_case`) it is text as it is. */
const EDGE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** `&` starts an entity only when a name or number and `;` follow (`&amp;`, `&#38;`): any other `&` is text as it is. */
const ENTITY_AMPERSAND = /&(?=#?[A-Za-z0-9]+;)/g;

/**
 * What GFM turns into a link by itself (autolinks: a scheme's "://", "www.", an e-mail's "@", mailto: and xmpp:): an
 * escaped character in each keeps it text, as the plan wrote it.
 */
const AUTOLINK_START = /(:)(?=\/\/)|(?<=\bwww)(\.)|(@)|(?<=\b(?:mailto|xmpp))(:)/gi;

/** Escapes what would change the rendering of one line of text (inline Markdown, entities, autolinks), nothing else. */
function literal(text: string): string {
  return text.replace(INLINE_SPECIAL, '\\$&').replace(EDGE_UNDERSCORE, '\\_').replace(ENTITY_AMPERSAND, '\\&').replace(AUTOLINK_START, '\\$&');
}

/** Text as literal Markdown inside a paragraph or table cell; line breaks become `<br>` (a cell is one line). */
export function markdownText(text: string): string {
  return literal(text).replace(/\r\n|\r|\n/g, '<br>');
}

/** A paragraph of plain text: each line literal, a line that would open a block (heading, list, quote…) escaped. */
function paragraph(text: string): string {
  return text.split(/\r\n|\r|\n/).map((line) => literal(line).replace(/^(\s*)([#>+\-=]|\d+[.)])/, '$1\\$2')).join('  \n');
}

/** The Markdown agenda of a plan in the locale's language. */
export function agendaMarkdown(plan: Plan, locale: ViewerLocale, options: AgendaOptions): string {
  const { strings } = locale;
  const schedule = planSchedule(plan);
  const { relative } = schedule.clock;
  const names = personNames(plan);
  const lines: string[] = [`# ${markdownText(plan.workshop.title)}`, ''];

  const day = [plan.workshop.date ? locale.formatDate(plan.workshop.date) : strings.noDate];
  const length = planLengthParts(plan, schedule.clock.origin, schedule.end, relative, locale);
  if (length.start !== undefined) day.push(length.start);
  day.push(length.planned);
  if (length.span !== undefined) day.push(length.span);
  lines.push(markdownText(day.join(' · ')), '');
  if (plan.workshop.description) lines.push(paragraph(plan.workshop.description), '');

  if (schedule.entries.length === 0) {
    lines.push(markdownText(strings.noItems));
    return `${lines.join('\n')}\n`;
  }
  const columns = [strings.agendaTime, strings.agendaTitle, strings.agendaDuration, strings.agendaPeople, strings.agendaMaterial];
  if (options.notes) columns.push(strings.agendaNotes);
  lines.push(row(columns.map(markdownText)), row(columns.map(() => '---')));

  for (const entry of schedule.entries) {
    const indent = '↳ '.repeat(entry.depth);
    const range = formatRange(entry.start, entry.end, relative);
    if (entry.kind === 'lane') {
      const title = laneTitle(entry.lane, laneCount(entry.breakout), strings);
      const cells = [range, `${indent}*${markdownText(title)}*`, '', markdownText(peopleText(entry.lane.personIds, names, strings)), ''];
      if (options.notes) cells.push('');
      lines.push(row(cells));
      continue;
    }
    const { item } = entry;
    const time = entry.pinned ? `${range} (${markdownText(strings.fixedTime)})` : range;
    const heading = item.type === 'group' ? `**${markdownText(strings.agendaGroup(item.title))}**`
      : item.type === 'breakout' ? `**${markdownText(strings.agendaBreakout(item.title))}** (${markdownText(strings.parallelLanes(laneCount(item), item.sameInAllBreakouts))})`
      : markdownText(item.title);
    // The description under the title, as the page shows it.
    const title = item.description ? `${heading}<br>${markdownText(item.description)}` : heading;
    const people = item.type === 'block' ? peopleText(item.personIds, names, strings) : '';
    const material = item.type === 'block' ? item.material : '';
    const cells = [time, `${indent}${title}`, markdownText(locale.formatDuration(item.duration)), markdownText(people), markdownText(material)];
    if (options.notes) cells.push(markdownText(item.notes));
    lines.push(row(cells));
  }
  return `${lines.join('\n')}\n`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}
