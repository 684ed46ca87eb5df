// The viewer's language choice and string tables (src/plan-view/language.ts, src/plan-view/i18n/*), as plain functions.
import { describe, expect, it } from 'vitest';
import { SESSION_ERROR_CODES } from '../../src/session/errors.js';
import { de } from '../../src/plan-view/i18n/de.js';
import { en } from '../../src/plan-view/i18n/en.js';
import { createViewerLocale } from '../../src/plan-view/i18n/locale.js';
import { chooseLanguage, languageOfTag } from '../../src/plan-view/language.js';

describe('language choice', () => {
  it('takes German for any de tag and English for everything else', () => {
    for (const tag of ['de', 'de-DE', 'de-AT', 'de-CH', 'DE-de', 'de_DE']) expect(languageOfTag(tag), tag).toBe('de');
    for (const tag of ['en', 'en-GB', 'fr', 'nl-BE', 'dei', 'des', '', null, undefined]) expect(languageOfTag(tag), String(tag)).toBe('en');
  });

  it('follows the first preferred browser language, and ?lang=de|en overrides it', () => {
    expect(chooseLanguage('', ['de-DE', 'en'])).toBe('de');
    expect(chooseLanguage('', ['en-US', 'de'])).toBe('en');
    expect(chooseLanguage('', [])).toBe('en');
    expect(chooseLanguage('?lang=de', ['en-GB'])).toBe('de');
    expect(chooseLanguage('?lang=EN', ['de-DE'])).toBe('en');
    expect(chooseLanguage('?x=1&lang=de', ['fr'])).toBe('de');
    // Anything else is ignored rather than guessed at.
    expect(chooseLanguage('?lang=fr', ['de-DE'])).toBe('de');
    expect(chooseLanguage('?lang=', ['en'])).toBe('en');
  });
});

describe('string tables', () => {
  it('say what is true of a link: it is read, not decrypted, and anyone who has it can read the plan', () => {
    for (const table of [en, de]) {
      const words = Object.values(table).filter((value): value is string => typeof value === 'string').join(' ');
      expect(words).not.toMatch(/crypt|schlüssel/i);
    }
    expect(en.footer).toContain('Anyone who has the link can read it');
    expect(de.footer).toContain('Wer den Link hat, kann ihn lesen');
  });

  it('have the same keys in both languages, each filled', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const table of [en, de]) {
      for (const [key, value] of Object.entries(table)) {
        if (typeof value === 'string') expect(value.trim(), key).not.toBe('');
        else if (typeof value === 'function') expect(String((value as (...args: unknown[]) => unknown)(3, false)), key).not.toBe('');
      }
    }
    expect(Object.keys(de.errorHints).sort()).toEqual(Object.keys(SESSION_ERROR_CODES).sort());
  });

  it('word everything on a German page in German: no English sentence of the table is reused', () => {
    const same = new Set(['Material', 'Sessionplan', 'Live']);
    for (const [key, value] of Object.entries(en)) {
      if (typeof value !== 'string' || key === 'locale' || same.has(value)) continue;
      expect(de[key as keyof typeof de], key).not.toBe(value);
    }
  });

  it('keeps the English error hints the words of the tool error table', () => {
    for (const [code, hint] of Object.entries(SESSION_ERROR_CODES)) {
      expect(en.errorHints[code as keyof typeof SESSION_ERROR_CODES]).toBe(`${hint.charAt(0).toUpperCase()}${hint.slice(1)}.`);
    }
  });
});

describe('locale formats (Intl)', () => {
  it('formats the workshop day in each language without shifting it by a time zone', () => {
    expect(createViewerLocale('de').formatDate('2026-03-14')).toBe('Samstag, 14. März 2026');
    expect(createViewerLocale('en').formatDate('2026-03-14')).toMatch(/^Saturday,? 14 March 2026$/);
    expect(createViewerLocale('en').formatDate('not a date')).toBe('not a date');
  });

  it('formats durations in hours and minutes', () => {
    const german = createViewerLocale('de');
    expect([0, 45, 60, 90, 1440].map((minutes) => german.formatDuration(minutes))).toEqual(['0 Min.', '45 Min.', '1 Std.', '1 Std. 30 Min.', '24 Std.']);
    const english = createViewerLocale('en');
    expect([1, 45, 60, 90, 120].map((minutes) => english.formatDuration(minutes))).toEqual(['1 min', '45 mins', '1 hr', '1 hr 30 mins', '2 hrs']);
    expect(english.formatDuration(-5)).toBe('0 mins');
    expect(english.formatDuration(Number.NaN)).toBe('0 mins');
  });
});
