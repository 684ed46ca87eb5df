// Constructed style sheets made from data (category colours, the locale's labels, the print footer): they reach the page
// through the CSSOM, which the page's CSP (style-src 'self') allows; inline <style> and style="" markup it forbids.
import type { ViewerLocale } from './i18n/locale.js';
import type { Plan } from './plan.js';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** One rule per category (`--category`, `--category-ink`). */
export function categoryStyleSheet(plan: Plan): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  let rules = '';
  for (const type of plan.blockTypes) {
    if (!HEX_COLOR.test(type.color)) continue;
    const id = CSS.escape(type.id);
    rules += `[data-category="${id}"], .legend-entry[data-block-type="${id}"] { --category: ${type.color}; --category-ink: ${readableInk(type.color)}; }\n`;
  }
  sheet.replaceSync(rules);
  return sheet;
}

/** The "Notes:" and "Material:" labels that styles.css puts before those texts (one element less per text). */
export function labelStyleSheet(locale: ViewerLocale): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`:root { --label-notes: ${cssString(`${locale.strings.notesLabel}: `)}; --label-material: ${cssString(`${locale.strings.materialLabel}: `)}; }`);
  return sheet;
}

/** The printed page's footer (A4): the plan's title and date on every page (after `label`, if any), with the page number. */
export function printStyleSheet(plan: Plan, locale: ViewerLocale, label?: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  const date = plan.workshop.date ? ` · ${locale.formatDate(plan.workshop.date)}` : '';
  const before = label === undefined ? '' : `${label} · `;
  sheet.replaceSync(`@page { @bottom-left { content: ${cssString(`${before}${plan.workshop.title}${date}`)}; } @bottom-right { content: counter(page) " / " counter(pages); } }`);
  return sheet;
}

/** A CSS string literal: quotes, backslashes and control characters (line breaks included) as CSS escapes. */
export function cssString(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/[\\"\u0000-\u001f\u007f]/g, (char) => `\\${char.charCodeAt(0).toString(16)} `)}"`;
}

/** Black or white text, whichever reads better on the given #rrggbb background (WCAG relative luminance). */
export function readableInk(color: string): string {
  const channel = (offset: number): number => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#111111' : '#ffffff';
}
