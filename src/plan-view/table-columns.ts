// A plan as a table (the CSV download, the planner's spreadsheet import): its columns, their headers in each language
// and the other names an import recognises them by, and how a row says it sits inside the row above.
import type { Language } from './i18n/strings.js';

export type TableColumn = 'title' | 'duration' | 'start' | 'description' | 'notes' | 'material' | 'people' | 'category' | 'breakout';

/** The columns in the order the download writes them. */
export const TABLE_COLUMNS: readonly TableColumn[] = ['start', 'title', 'duration', 'description', 'notes', 'material', 'people', 'category', 'breakout'];

/** The headers the download writes. */
export const TABLE_HEADERS: Readonly<Record<Language, Readonly<Record<TableColumn, string>>>> = {
  en: { title: 'Title', duration: 'Duration (min)', start: 'Start time', description: 'Description', notes: 'Notes', material: 'Material', people: 'People', category: 'Category', breakout: 'Breakout' },
  de: { title: 'Titel', duration: 'Dauer (Min.)', start: 'Startzeit', description: 'Beschreibung', notes: 'Notizen', material: 'Material', people: 'Personen', category: 'Kategorie', breakout: 'Breakout' },
};

/**
 * Every name a header may have, in German and English, lower case, without its unit in brackets and without
 * punctuation ("Dauer (Min.)" → "dauer"). The headers the download writes are among them.
 */
export const COLUMN_NAMES: Readonly<Record<TableColumn, readonly string[]>> = {
  title: ['title', 'titel', 'name', 'topic', 'thema', 'item', 'agenda item', 'programmpunkt', 'tagesordnungspunkt', 'top', 'block', 'session', 'what', 'was'],
  duration: ['duration', 'dauer', 'length', 'länge', 'laenge', 'minutes', 'minuten', 'min', 'mins', 'hours', 'stunden', 'std', 'zeitbedarf', 'time needed'],
  start: ['start time', 'start', 'startzeit', 'beginn', 'begin', 'from', 'von', 'uhrzeit', 'time', 'zeit', 'when', 'wann'],
  description: ['description', 'beschreibung', 'details', 'inhalt', 'content', 'ablauf', 'what happens'],
  notes: ['notes', 'notizen', 'note', 'notiz', 'anmerkungen', 'anmerkung', 'hinweise', 'hinweis', 'facilitator notes', 'moderationsnotizen', 'comments', 'kommentar', 'kommentare'],
  material: ['material', 'materials', 'materialien', 'materialliste', 'equipment', 'ausstattung', 'what to bring'],
  people: ['people', 'persons', 'personen', 'person', 'wer', 'who', 'facilitator', 'facilitators', 'moderation', 'leitung', 'lead', 'verantwortlich', 'responsible', 'speaker', 'speakers', 'referent', 'referentin', 'team'],
  category: ['category', 'kategorie', 'type', 'typ', 'art', 'format', 'kind'],
  breakout: ['breakout', 'breakouts', 'lane', 'lanes', 'spur', 'gruppe', 'group', 'kleingruppe', 'parallel'],
};

/** Put before the title of a row per level it sits inside the row above it (a group's or a breakout's item). */
export const NESTED_MARK = '↳';

/** A header as COLUMN_NAMES lists it, and whether its unit says hours ("Dauer (h)", "Hours"). */
export function headerName(header: string): { name: string; hours: boolean } {
  const lower = header.normalize('NFC').toLowerCase().trim();
  const unit = /\(([^)]*)\)/.exec(lower)?.[1]?.trim() ?? '';
  const name = lower.replace(/\([^)]*\)/g, ' ').replace(/[^\p{L}\p{N} ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const hours = /^(h|std|stunden|hours?|hrs?)\.?$/.test(unit) || name === 'hours' || name === 'stunden' || name === 'std';
  return { name, hours };
}
