// The library the page and the MCP server offer: twelve or more methods and four whole plans, in German and English,
// each a document create accepts exactly as it is.
import { describe, expect, it } from 'vitest';
import { LICENSE_URL, METHOD_SOURCE, METHODS } from '../../src/library/methods.js';
import { TEMPLATES } from '../../src/library/templates.js';
import { validateForCreate } from '../../src/session/validate.js';

describe('the library', () => {
  it('has at least twelve methods with distinct keys, each in both languages', () => {
    expect(METHODS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(METHODS.map((method) => method.key)).size).toBe(METHODS.length);
    for (const method of METHODS) {
      for (const language of ['de', 'en'] as const) {
        expect(method.title[language].length, method.key).toBeGreaterThan(0);
        expect(method.description[language].length, method.key).toBeGreaterThan(80);
      }
      expect(method.description.de).not.toBe(method.description.en);
      expect(method.duration).toBeGreaterThan(0);
    }
    expect(METHOD_SOURCE.en).toContain('CC BY-SA 4.0');
    expect(LICENSE_URL).toBe('https://creativecommons.org/licenses/by-sa/4.0/');
  });

  it('has the four whole plans, each a canonical document in both languages that credits the methods it uses', () => {
    expect(TEMPLATES.map((template) => template.key)).toEqual(['retrospective', 'kick-off', 'strategy-day', 'design-sprint-day']);
    for (const template of TEMPLATES) {
      for (const language of ['de', 'en'] as const) {
        const document = template.document(language);
        const { json } = validateForCreate(document);
        expect(json, `${template.key} ${language}`).toBe(JSON.stringify(document));
        const text = JSON.stringify(document);
        expect(text).toContain(METHOD_SOURCE[language]);
        expect(document.workshop.title).toBe(template.title[language]);
      }
      expect(JSON.stringify(template.document('de'))).not.toBe(JSON.stringify(template.document('en')));
    }
    // At least one has a group and a breakout, so a plan started from it shows both.
    const kinds = new Set(TEMPLATES.flatMap((template) => template.document('en').items.map((item) => item.type)));
    expect([...kinds].sort()).toEqual(['block', 'breakout', 'group']);
  });
});
