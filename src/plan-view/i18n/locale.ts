// A language's strings plus its Intl formats (dates, durations): what every renderer and export takes as its locale.
import { de } from './de.js';
import { en } from './en.js';
import type { Language, Strings } from './strings.js';

export type { Language, Strings } from './strings.js';

/** Everything language-dependent a renderer needs; made once per page (or per host locale) and passed down. */
export interface ViewerLocale {
  readonly language: Language;
  readonly strings: Strings;
  /** "Saturday 14 March 2026" / "Samstag, 14. März 2026" for a "YYYY-MM-DD" date (the calendar day, never shifted by a zone). */
  formatDate(date: string): string;
  /** "1 hr 30 mins" / "1 Std. 30 Min."; negative and fractional minutes are rounded and clamped at 0. */
  formatDuration(minutes: number): string;
  /** "1,000" / "1.000". */
  formatCount(count: number): string;
}

const TABLES: Record<Language, Strings> = { de, en };

/**
 * The locale of a language. The Intl objects are made here, once: the first Intl object of a page is the expensive
 * part (ICU's locale data, see docs/viewer.md), and a plan formats hundreds of durations, cached by value.
 */
export function createViewerLocale(language: Language): ViewerLocale {
  const strings = TABLES[language];
  const dates = new Intl.DateTimeFormat(strings.locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const hours = new Intl.NumberFormat(strings.locale, { style: 'unit', unit: 'hour', unitDisplay: 'short' });
  const minutes = new Intl.NumberFormat(strings.locale, { style: 'unit', unit: 'minute', unitDisplay: 'short' });
  const durations = new Map<number, string>();
  const counts = new Intl.NumberFormat(strings.locale);
  return {
    language,
    strings,
    formatDate(date) {
      const parsed = new Date(`${date}T00:00:00Z`);
      return Number.isNaN(parsed.getTime()) ? date : dates.format(parsed);
    },
    formatDuration(value) {
      const whole = Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
      let text = durations.get(whole);
      if (text === undefined) {
        const hourPart = Math.floor(whole / 60);
        const minutePart = whole % 60;
        text = hourPart === 0 ? minutes.format(minutePart)
          : minutePart === 0 ? hours.format(hourPart)
          : `${hours.format(hourPart)} ${minutes.format(minutePart)}`;
        durations.set(whole, text);
      }
      return text;
    },
    formatCount(count) {
      return counts.format(count);
    },
  };
}
