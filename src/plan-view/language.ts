// Which language the page speaks: ?lang=de|en first, else the browser's preferred languages (de* → German, else English).
import type { Language } from './i18n/strings.js';

/** German for any `de` tag (de, de-DE, de-AT, de-CH …), English for everything else. */
export function languageOfTag(tag: string | null | undefined): Language {
  return typeof tag === 'string' && /^de(?:-|_|$)/i.test(tag.trim()) ? 'de' : 'en';
}

/**
 * The page's language from its query string (`?lang=de` or `?lang=en` win) and the browser's languages in order of
 * preference (the first one decides, as `navigator.languages` lists them). Pure: the caller passes both in.
 */
export function chooseLanguage(search: string, languages: readonly string[]): Language {
  const requested = new URLSearchParams(search).get('lang')?.trim().toLowerCase();
  if (requested === 'de' || requested === 'en') return requested;
  return languageOfTag(languages[0]);
}
