// The viewer in German and English browsers (real Chromium, real server): language choice, Intl dates and durations,
// accessibility (axe-core, landmarks, headings, keyboard), phone width; a screenshot of every page state is kept.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../src/plan-view/i18n/de.js';
import { en } from '../../src/plan-view/i18n/en.js';
import type { Strings } from '../../src/plan-view/i18n/strings.js';
import { openViewerPage, type ViewerPage } from '../support/viewer-harness.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, menuItem, onServer, seriousAxeViolations, visit } from '../support/viewer-visit.js';

let english: ViewerPage | undefined;
let german: ViewerPage | undefined;
const links: Record<'en' | 'de', string> = { en: '', de: '' };

beforeAll(async () => {
  english = await openViewerPage({}, { locale: 'en-GB' });
  german = await openViewerPage({}, { locale: 'de-DE' });
  links.en = await createLink(english.server.url, workshopPlan());
  links.de = await createLink(english.server.url, germanWorkshopPlan());
}, 60_000);

afterAll(async () => {
  await english?.close();
  await german?.close();
});

const browsers = () => ({ en: english!, de: german! });
const BROKEN = '#data=v1:N4IgzgpgTg';
const tables: Record<'en' | 'de', Strings> = { en, de };

/** The table's fixed sentences of the other language that must not appear (those the same in both languages excepted). */
function foreignSentences(language: 'en' | 'de'): string[] {
  const own = tables[language];
  const other = tables[language === 'en' ? 'de' : 'en'];
  const sentences: string[] = [];
  for (const [key, value] of Object.entries(other)) {
    // allLanes is a cell of the CSV download ("all" / "alle"), never on the page, and stands inside other words;
    // "Handout" is German too (the German sample plan's material names one).
    if (typeof value !== 'string' || ['locale', 'allLanes', 'handout'].includes(key) || value === own[key as keyof Strings]) continue;
    sentences.push(value);
  }
  return sentences;
}

/** Every heading level in document order, and no step deeper than one level at a time. */
async function headingLevels(page: Page): Promise<number[]> {
  return page.evaluate(`[...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((node) => node.getClientRects().length > 0).map((node) => Number(node.tagName[1]))`) as Promise<number[]>;
}

async function expectLandmarksAndHeadings(page: Page): Promise<void> {
  expect(await page.getByRole('banner').count()).toBe(1);
  expect(await page.getByRole('main').count()).toBe(1);
  expect(await page.getByRole('contentinfo').count()).toBe(1);
  const levels = await headingLevels(page);
  expect(levels[0]).toBe(1);
  for (let index = 1; index < levels.length; index += 1) expect(levels[index]!, `heading ${index} after h${levels[index - 1]}`).toBeLessThanOrEqual(levels[index - 1]! + 1);
}

describe('language', () => {
  it('speaks German in a German browser: html lang, Intl date and durations, every control and sentence from the German table', async () => {
    const { page, pageErrors } = await visit(german!.browser.context, onServer(german!.server.url, links.de));
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('.plan-date').innerText()).toBe('Mittwoch, 20. Januar 2027');
    expect(await page.locator('.plan-length').innerText()).toBe('Dauer 4 Std.');
    expect(await page.locator('.plan-span').innerText()).toBe('09:00–14:30 (mit Lücken)');
    expect(await page.locator('.gap').allInnerTexts()).toEqual(['Lücke von 1 Std. 30 Min.']);
    expect(await page.locator('[data-item-id="rueckblick"] .item-header .item-duration').first().innerText()).toBe('1 Std. 10 Min.');
    expect(await page.locator('[data-item-id="mittag"] .slot-pin').innerText()).toBe('FESTE ZEIT');
    expect(await page.locator('[data-item-id="stationen"] .lane-title').allInnerTexts()).toEqual(['Breakout 1', 'Breakout 2']);
    expect(await page.locator('[data-item-id="werkstatt"] .lane--wide .lane-title').innerText()).toBe('Gleiches Programm in allen 3 Breakouts');
    expect(await page.locator('[data-item-id="werkstatt"] .item-detail').innerText()).toBe('3 parallele Breakouts, in jedem das gleiche Programm');
    for (const name of ['Plan bearbeiten', 'Link kopieren', 'Mehr']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(1);
    await menuItem(page, 'Drucken');
    expect(await page.getByRole('menu', { name: 'Mehr' }).getByRole('menuitem').allInnerTexts()).toEqual(['Live', 'Drucken', 'Teilnehmer-Version', 'Kalender herunterladen (.ics)', 'Ablauf herunterladen (Markdown)', 'CSV herunterladen', 'Notizen anzeigen']);
    await (await menuItem(page, 'Notizen anzeigen')).click();
    expect(await (await menuItem(page, 'Notizen ausblenden')).count()).toBe(1);
    await (await menuItem(page, 'Notizen ausblenden')).click();
    expect(await page.getByRole('group', { name: 'Aktionen zum Plan' }).count()).toBe(1);
    expect(await page.locator('.page-footer').innerText()).toBe(de.footer);
    const body = await page.locator('body').innerText();
    for (const sentence of foreignSentences('de')) expect(body, sentence).not.toContain(sentence);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('speaks English in an English browser, and ?lang= overrides the browser both ways', async () => {
    const cases = [
      { context: english!, query: '', language: 'en', date: 'Wednesday, 20 January 2027', gap: 'Gap of 1 hr 30 mins', copy: 'Copy link' },
      { context: english!, query: '?lang=de', language: 'de', date: 'Mittwoch, 20. Januar 2027', gap: 'Lücke von 1 Std. 30 Min.', copy: 'Link kopieren' },
      { context: german!, query: '?lang=en', language: 'en', date: 'Wednesday, 20 January 2027', gap: 'Gap of 1 hr 30 mins', copy: 'Copy link' },
    ] as const;
    for (const { context, query, language, date, gap, copy } of cases) {
      const { page, pageErrors } = await visit(context.browser.context, onServer(context.server.url, links.de, query));
      expect(await page.locator('html').getAttribute('lang'), query).toBe(language);
      expect(await page.locator('.plan-date').innerText()).toBe(date);
      expect(await page.locator('.gap').allInnerTexts()).toEqual([gap]);
      expect(await page.getByRole('button', { name: copy, exact: true }).count()).toBe(1);
      const body = await page.locator('body').innerText();
      for (const sentence of foreignSentences(language)) expect(body, `${query}: ${sentence}`).not.toContain(sentence);
      expect(pageErrors).toEqual([]);
      await page.close();
    }
  });

  it('words the problem and empty pages in the page language too', async () => {
    for (const language of ['en', 'de'] as const) {
      const { browser, server } = browsers()[language];
      const strings = tables[language];
      const broken = await visit(browser.context, `${server.url}/${BROKEN}`);
      expect(await broken.page.locator('html').getAttribute('lang')).toBe(language);
      expect(await broken.page.locator('.problem-title').innerText()).toBe(strings.cannotOpenTitle);
      expect(await broken.page.locator('.problem-message').innerText()).toBe(strings.legacyLink);
      expect(await broken.page.getByRole('textbox', { name: strings.pasteLabel }).count()).toBe(1);
      expect(await broken.page.title()).toBe(strings.problemPageTitle);
      for (const sentence of foreignSentences(language)) expect(await broken.page.locator('body').innerText()).not.toContain(sentence);
      await broken.page.close();
      const empty = await visit(browser.context, `${server.url}/`);
      expect(await empty.page.locator('#app').getAttribute('data-state')).toBe('empty');
      expect(await empty.page.locator('.problem-title').innerText()).toBe(strings.noPlanTitle);
      expect(await empty.page.getByRole('textbox', { name: strings.pasteLabel }).count()).toBe(1);
      expect(await empty.page.getByRole('button', { name: strings.pasteOpen, exact: true }).count()).toBe(1);
      for (const sentence of foreignSentences(language)) expect(await empty.page.locator('body').innerText()).not.toContain(sentence);
      // What a pasted text was found to be, named in the page's language.
      for (const [text, sentence] of [
        ['#data=v3:N4IgzgpgTg', strings.newerFormat],
        ['https://sessionplan.de/s/abc123', strings.dynamicLink],
        ['https://example.com/page', strings.noSnapshot],
        ['#data=N4IgzgpgTg', strings.legacyLink],
      ] as const) {
        await empty.page.getByRole('textbox', { name: strings.pasteLabel }).fill(text);
        await empty.page.getByRole('button', { name: strings.pasteOpen, exact: true }).click();
        await empty.page.waitForFunction(`document.querySelector('.paste-error')?.textContent === ${JSON.stringify(sentence)}`);
      }
      expect([...broken.pageErrors, ...empty.pageErrors]).toEqual([]);
      await empty.page.close();
    }
  });
});

describe('accessibility', () => {
  it('has no serious or critical axe-core violation on the plan, problem and empty pages in both languages, with landmarks and headings in order', async () => {
    for (const language of ['en', 'de'] as const) {
      const { browser, server } = browsers()[language];
      for (const [state, url] of [['plan', onServer(server.url, links[language])], ['problem', `${server.url}/${BROKEN}`], ['empty', `${server.url}/`]] as const) {
        const { page } = await visit(browser.context, url);
        expect(await page.locator('#app').getAttribute('data-state')).toBe(state);
        if (state === 'plan') {
          // Notes shown, and the menu open over the plan: its items are part of the page the check sees.
          const notes = await menuItem(page, tables[language].showNotes);
          if (await notes.count() === 1) await notes.click();
          await menuItem(page, tables[language].hideNotes);
        }
        if (state === 'problem') await page.locator('.problem-summary').click();
        expect(await seriousAxeViolations(page), `${language} ${state}`).toEqual([]);
        await expectLandmarksAndHeadings(page);
        await page.close();
      }
    }
  });

  it('reaches every control with the keyboard alone, focus visible', async () => {
    const { page } = await visit(english!.browser.context, onServer(english!.server.url, links.de));
    const reached: string[] = [];
    for (let press = 0; press < 20; press += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(`(() => { const node = document.activeElement; return node ? [node.tagName, node.textContent, getComputedStyle(node).outlineStyle] : null; })()`) as [string, string, string] | null;
      if (focused?.[0] === 'BUTTON') {
        if (reached.includes(focused[1])) break; // focus went round the page once
        reached.push(focused[1]);
        expect(focused[2], `focus ring on ${focused[1]}`).not.toBe('none');
      }
    }
    expect(reached).toEqual(['Edit plan', 'Copy link', 'More']);
    // The menu from the keyboard alone: Enter opens it on its first item, the arrows walk it (round at the ends),
    // Escape closes it and gives focus back, Enter on an item chooses it.
    const focused = () => page.evaluate('document.activeElement?.textContent');
    for (let press = 0; press < 10 && await focused() !== 'More'; press += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('Live');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Print');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    const toggle = await focused() as string;
    expect(['Show notes', 'Hide notes']).toContain(toggle);
    await page.keyboard.press('Home');
    expect(await focused()).toBe('Live');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').isVisible()).toBe(false);
    expect(await focused()).toBe('More');
    // ArrowUp opens it on its last item, the notes toggle (an earlier test may have left notes shown: it flips either way).
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(toggle);
    const visibleNotes = () => page.locator('.item-notes').first().isVisible();
    const before = await visibleNotes();
    await page.keyboard.press('Enter');
    expect(await visibleNotes()).toBe(!before);
    expect(await focused()).toBe('More');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(toggle === 'Show notes' ? 'Hide notes' : 'Show notes');
    // Tab leaves the open menu for the next control and closes it.
    await page.keyboard.press('Tab');
    expect(await page.getByRole('menu').isVisible()).toBe(false);
    await page.close();

    const empty = await visit(english!.browser.context, `${english!.server.url}/`);
    await empty.page.keyboard.press('Tab');
    expect(await empty.page.evaluate('document.activeElement?.getAttribute("aria-invalid") ?? document.activeElement?.tagName')).toBe('INPUT');
    await empty.page.close();
  });
});

describe('phone width and screenshots', () => {
  it('fits 390 px without sideways scrolling, times as ranges; keeps a screenshot of every page state in both languages', async () => {
    for (const language of ['en', 'de'] as const) {
      const { browser, server } = browsers()[language];
      for (const [state, url] of [['plan', onServer(server.url, links[language])], ['problem', `${server.url}/${BROKEN}`], ['empty', `${server.url}/`]] as const) {
        const { page, pageErrors } = await visit(browser.context, url);
        await page.screenshot({ path: `${ARTIFACTS}viewer-${language}-${state}-desktop.png`, fullPage: true });
        const toolbarRows = () => page.locator('.toolbar > *, .toolbar-slot > *').evaluateAll((nodes) => new Set(nodes.filter((node) => node.getClientRects().length > 0).map((node) => Math.round(node.getBoundingClientRect().top))).size);
        if (state === 'plan') expect(await toolbarRows(), `${language}: one toolbar row at ${page.viewportSize()?.width} px`).toBe(1);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.waitForFunction('innerWidth === 390');
        const widths = await page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]') as [number, number];
        expect(widths[0], `${language} ${state}: no sideways scrolling`).toBeLessThanOrEqual(widths[1]);
        if (state === 'plan') {
          const times = await page.locator('.slot-time').evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText));
          expect(times.length).toBeGreaterThan(5);
          for (const time of times) expect(time).toMatch(/^\d\d:\d\d–\d\d:\d\d/);
          // Nothing sticks out on the right: every box ends inside the viewport.
          const rightmost = await page.evaluate(`Math.max(...[...document.querySelectorAll('#app *, .page-header *')].map((node) => node.getBoundingClientRect().right))`) as number;
          expect(rightmost).toBeLessThanOrEqual(390);
          // The toolbar is one row: its buttons share one line, and the open menu stays on the screen.
          expect(await toolbarRows(), `${language}: one toolbar row at 390 px`).toBe(1);
          const notes = await menuItem(page, tables[language].showNotes);
          const menuBox = await page.getByRole('menu').boundingBox();
          expect(menuBox!.x).toBeGreaterThanOrEqual(0);
          expect(menuBox!.x + menuBox!.width).toBeLessThanOrEqual(390);
          await page.screenshot({ path: `${ARTIFACTS}viewer-${language}-menu-phone.png` });
          if (await notes.count() === 1) await notes.click();
          else await page.keyboard.press('Escape');
        }
        await page.screenshot({ path: `${ARTIFACTS}viewer-${language}-${state}-phone.png`, fullPage: true });
        expect(pageErrors).toEqual([]);
        await page.close();
      }
    }
  });
});
