// Reads what the viewer exports with real parsers: iCalendar files with ical.js, Markdown agendas with marked (GFM tables).
import ICAL from 'ical.js';
import { lexer, type Token, type Tokens } from 'marked';

export interface CalendarEvent {
  uid: string;
  summary: string;
  description: string;
  categories: string[];
  /** "2026-03-14T09:00:00" (floating: no zone) */
  start: string;
  end: string;
  /** True when the times carry no zone (floating local time). */
  floating: boolean;
}

export interface Calendar {
  name: string;
  events: CalendarEvent[];
}

/** Parses an .ics text (throws on anything RFC 5545 parsing refuses) and returns its VEVENTs in file order. */
export function readCalendar(text: string): Calendar {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description ?? '',
      categories: component.getAllProperties('categories').flatMap((property) => property.getValues().map(String)),
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      floating: event.startDate.zone === ICAL.Timezone.localTimezone && event.endDate.zone === ICAL.Timezone.localTimezone,
    };
  });
  return { name: String(calendar.getFirstPropertyValue('x-wr-calname') ?? ''), events };
}

/** The text a reader sees in inline tokens: escapes undone, emphasis kept as its text, `<br>` as a line break. */
function plain(tokens: readonly Token[] | undefined): string {
  let text = '';
  for (const token of tokens ?? []) {
    if (token.type === 'br') text += '\n';
    else if (token.type === 'html') text += /^<br\s*\/?>$/i.test(token.raw) ? '\n' : token.raw;
    else if ('tokens' in token && token.tokens) text += plain(token.tokens);
    else if ('text' in token) text += String(token.text);
  }
  return text;
}

export interface MarkdownAgenda {
  heading: string;
  paragraphs: string[];
  header: string[];
  rows: string[][];
}

/** Parses a Markdown agenda: its first heading, paragraphs and the one GFM table, every cell as plain text. */
export function readAgenda(markdown: string): MarkdownAgenda {
  const tokens = lexer(markdown);
  const heading = tokens.find((token): token is Tokens.Heading => token.type === 'heading');
  const tables = tokens.filter((token): token is Tokens.Table => token.type === 'table');
  if (tables.length > 1) throw new Error(`expected one table, found ${tables.length}`);
  const table = tables[0];
  return {
    heading: heading ? plain(heading.tokens) : '',
    paragraphs: tokens.filter((token): token is Tokens.Paragraph => token.type === 'paragraph').map((token) => plain(token.tokens)),
    header: table ? table.header.map((cell) => plain(cell.tokens)) : [],
    rows: table ? table.rows.map((row) => row.map((cell) => plain(cell.tokens))) : [],
  };
}

/** Every link GFM makes of a Markdown text (autolinks included), with the text it shows. */
export function linksIn(markdown: string): string[] {
  const links: string[] = [];
  const walk = (tokens: readonly Token[] | undefined): void => {
    for (const token of tokens ?? []) {
      if (token.type === 'link') links.push(token.raw);
      if ('tokens' in token && token.tokens) walk(token.tokens);
      if (token.type === 'table') for (const cell of [...token.header, ...token.rows.flat()]) walk(cell.tokens);
      if (token.type === 'list') for (const item of token.items) walk(item.tokens);
    }
  };
  walk(lexer(markdown));
  return links;
}
