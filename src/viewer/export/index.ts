// The exports, bundled on their own and loaded on the first download (ical.js is most of their size): the
// calendar, agenda and table files of a plan, and saving them.
import type { ViewerLocale } from '../../plan-view/i18n/locale.js';
import type { Plan } from '../../plan-view/plan.js';
import { agendaMarkdown } from './agenda-markdown.js';
import { calendarText } from './calendar.js';
import { planTableCsv } from './table-csv.js';
import type { MadeFile } from './download.js';
import { downloadName } from './file-name.js';

export { saveFile, type MadeFile } from './download.js';

/** What goes into the files besides the plan itself. */
export interface ExportOptions {
  /** The facilitator's notes are shown on the page, so they go into the files too. */
  notes: boolean;
}

/** The plan's calendar file ("<title>.ics"). */
export function calendarFile(plan: Plan, locale: ViewerLocale, options: ExportOptions): MadeFile {
  return { name: downloadName(plan.workshop.title, '', 'ics'), type: 'text/calendar;charset=utf-8', text: calendarText(plan, locale, options) };
}

/** The plan's Markdown agenda ("<title>-agenda.md"). */
export function agendaFile(plan: Plan, locale: ViewerLocale, options: ExportOptions): MadeFile {
  return { name: downloadName(plan.workshop.title, locale.strings.agendaFileSuffix, 'md'), type: 'text/markdown;charset=utf-8', text: agendaMarkdown(plan, locale, options) };
}

/** The plan as a table a spreadsheet opens ("<title>.csv"). */
export function tableFile(plan: Plan, locale: ViewerLocale, options: ExportOptions): MadeFile {
  return { name: downloadName(plan.workshop.title, '', 'csv'), type: 'text/csv;charset=utf-8', text: planTableCsv(plan, locale, options) };
}
