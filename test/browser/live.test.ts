// The live view in real Chromium against the real server, with a fixed clock (Playwright's page.clock) on a dated
// plan: what runs now and next through the day, +5 min, Done and Back from the keyboard, the run kept over a reload,
// Reset, a plan without a date started now, axe-core, and screenshots at 1280×720 and 390 px, in German and English.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { de as liveDe } from '../../src/live/i18n/de.js';
import { en as liveEn } from '../../src/live/i18n/en.js';
import { createViewerLocale } from '../../src/plan-view/i18n/locale.js';
import { useEnglishAndGermanPages, type ViewerPage } from '../support/viewer-harness.js';
import { germanWorkshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, menuItem, onServer, seriousAxeViolations, type AxeViolation } from '../support/viewer-visit.js';

const { english, german } = useEnglishAndGermanPages();

/**
 * The browsers run in UTC, so a time on the plan's day is that time on the page's clock. A context's clock only moves
 * forward, so each tab runs on a day of its own: the next day, with the plan dated that day when it has a date.
 */
let days = 0;

/** A tab whose clock stands at `time` (it moves only when the test moves it), on the plan's link, with Live open. */
async function liveAt(viewer: ViewerPage, time: string, source: Record<string, unknown> = germanWorkshopPlan()): Promise<{ page: Page; errors: string[] }> {
  days += 1;
  const day = new Date(Date.UTC(2027, 0, 20 + days)).toISOString().slice(0, 10);
  const workshop = source['workshop'] as Record<string, unknown>;
  const plan = workshop['date'] === null ? source : { ...source, workshop: { ...workshop, date: day } };
  const start = new Date(`${day}T${time}:00Z`);
  const page = await viewer.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Installed a minute early: the installed clock runs until pauseAt, which cannot go back in time.
  await page.clock.install({ time: new Date(start.getTime() - 60_000) });
  await page.clock.pauseAt(start);
  await page.goto(onServer(viewer.server.url, await createLink(viewer.server.url, plan)));
  await page.waitForSelector('#app[data-state="plan"]');
  // Each test starts its run afresh: an earlier test's run of the same link is kept in this profile's storage.
  await page.evaluate(() => localStorage.clear());
  await (await menuItem(page, 'Live')).click();
  await page.waitForSelector('.live-main > section');
  return { page, errors };
}

/** axe-core waits on timers of its own: the stopped clock is moved on in small steps until it is done. */
async function axeOnStoppedClock(page: Page): Promise<AxeViolation[]> {
  let done = false;
  const result = seriousAxeViolations(page).finally(() => { done = true; });
  while (!done) await page.clock.runFor(20);
  return result;
}

const text = (page: Page, selector: string) => page.locator(selector).first().innerText();
/** The rest of the day as "HH:MM title" rows. */
const rows = (page: Page) => page.locator('.live-row').evaluateAll((nodes) => nodes.map((node) => `${node.querySelector('.live-row-time')!.textContent} ${node.querySelector('.live-row-title')!.childNodes[0]!.textContent!.trim()}`));

describe('live view: now and next through the day', () => {
  it('shows the running item, its minutes left and the next item at three moments (German)', async () => {
    const { page, errors } = await liveAt(german(), '09:12');
    expect(await page.getByRole('heading', { name: 'Jetzt', exact: true }).count()).toBe(1);
    expect(await text(page, '.live-title')).toBe('Ankommen & Check-in');
    expect(await text(page, '.live-now .live-range')).toBe('09:00–09:20');
    expect(await text(page, '.live-left')).toBe('noch 8 Min.');
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('12');
    expect(await page.getByRole('heading', { name: 'Als Nächstes', exact: true }).count()).toBe(1);
    expect(await text(page, '.live-next .live-group')).toBe('Rückblick auf das Jahr');
    expect(await text(page, '.live-next-title')).toBe('Zahlen und Meilensteine');
    expect(await text(page, '.live-next .live-range')).toBe('um 09:20');
    expect(await page.locator('.live-next .person').allInnerTexts()).toEqual(['Timo Weiß']);
    expect(await text(page, '.live-end')).toBe('Ende 14:30');
    expect(await text(page, '.live-behind')).toBe('Im Plan');
    // A tick within the minute changes nothing; a minute on, only the counting texts change.
    await page.evaluate(() => {
      const changed: string[] = [];
      new MutationObserver((records) => {
        for (const record of records) {
          const node = record.target instanceof Element ? record.target : record.target.parentElement!;
          changed.push(node.closest('[data-count], .live-clock, .live-progress')?.className ?? node.className);
        }
      }).observe(document.querySelector('.live')!, { subtree: true, childList: true, characterData: true, attributes: true });
      (window as unknown as { changed: string[] }).changed = changed;
    });
    await page.clock.runFor(1000);
    expect(await page.evaluate(() => (window as unknown as { changed: string[] }).changed)).toEqual([]);
    await page.clock.runFor(59_000);
    expect(await text(page, '.live-left')).toBe('noch 7 Min.');
    expect(new Set(await page.evaluate(() => (window as unknown as { changed: string[] }).changed))).toEqual(new Set(['live-left', 'live-now-line', 'live-clock', 'live-progress']));

    // 10:00: the breakout of the group runs, each lane with its own block.
    await page.clock.fastForward(47 * 60_000);
    await page.clock.runFor(1000);
    expect(await text(page, '.live-now .live-group')).toBe('Rückblick auf das Jahr');
    expect(await text(page, '.live-title')).toBe('Stationen');
    expect(await page.locator('.live-lane-title').allInnerTexts()).toEqual(['Breakout 1', 'Breakout 2']);
    expect(await page.locator('.live-lane-block').allInnerTexts()).toEqual(['Was lief gut?', 'Was lernen wir?']);
    expect(await page.locator('.live-lane .live-left').allInnerTexts()).toEqual(['noch 30 Min.', 'noch 30 Min.']);
    expect(await text(page, '.live-next-title')).toBe('Mittagspause');
    expect(await text(page, '.live-next .live-range')).toBe('um 12:00');
    await page.screenshot({ path: `${ARTIFACTS}live-de-breakout.png` });

    // 11:00: between the breakout and the fixed lunch nothing runs; the now-line sits before lunch.
    await page.clock.fastForward(60 * 60_000);
    await page.clock.runFor(1000);
    expect(await text(page, '.live-idle')).toBe('Beginnt um 12:00, in 60 Min.');
    const list = await page.locator('.live-rows > li').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));
    expect(list[list.indexOf('Jetzt, 11:00') + 1]).toMatch(/^12:00\s+Mittagspause/);
    expect(await text(page, '.live-now-line')).toBe('Jetzt, 11:00');
    expect(await axeOnStoppedClock(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the running item, its minutes left and the next item at three moments (English)', async () => {
    const { page, errors } = await liveAt(english(), '09:12');
    expect(await page.getByRole('heading', { name: 'Now', exact: true }).count()).toBe(1);
    expect(await text(page, '.live-title')).toBe('Ankommen & Check-in');
    expect(await text(page, '.live-left')).toBe('8 min left');
    expect(await text(page, '.live-next .live-range')).toBe('at 09:20');
    await page.clock.fastForward(48 * 60_000);
    expect(await page.locator('.live-lane .live-left').allInnerTexts()).toEqual(['30 min left', '30 min left']);
    await page.clock.fastForward(60 * 60_000);
    expect(await text(page, '.live-idle')).toBe('Starts at 12:00, in 60 min');
    await page.clock.fastForward(240 * 60_000);
    expect(await text(page, '.live-idle')).toBe('The plan is over.');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('live view: running late', () => {
  it('+ adds 5 minutes, Space ends the item, Backspace undoes; later items move, the fixed lunch stays and its overlap is said (German and English)', async () => {
    for (const [language, viewer] of [['de', german()], ['en', english()]] as const) {
      const words = { de: liveDe, en: liveEn }[language];
      const locale = createViewerLocale(language);
      const { page, errors } = await liveAt(viewer, '09:12');
      const link = page.url();
      await page.locator('.live-plan-title').focus();
      await page.keyboard.press('+');
      expect(await text(page, '.live-now .live-range')).toBe('09:00–09:25');
      expect(await text(page, '.live-left')).toBe(words.minutesLeft(13));
      expect(await text(page, '.live-next .live-range')).toBe(words.startsAt('09:25'));
      expect(await text(page, '.live-behind')).toBe(words.behind(5));
      expect((await rows(page)).slice(0, 4)).toEqual(['09:00 Ankommen & Check-in', '09:25 Rückblick auf das Jahr: Zahlen und Meilensteine', '09:50 Rückblick auf das Jahr: Stationen', '12:00 Mittagspause']);
      expect(await text(page, '.live-end')).toBe(words.endOfDay('14:30'));
      await page.getByRole('status').filter({ hasText: words.extended('Ankommen & Check-in', '09:25') }).waitFor();

      await page.keyboard.press(' ');
      expect(await text(page, '.live-title')).toBe('Zahlen und Meilensteine');
      expect(await text(page, '.live-now .live-range')).toBe('09:12–09:37');
      expect(await text(page, '.live-behind')).toBe(words.ahead(8));
      await page.keyboard.press('Backspace');
      expect(await text(page, '.live-title')).toBe('Ankommen & Check-in');
      expect(await text(page, '.live-now .live-range')).toBe('09:00–09:25');

      // Late enough to run into the fixed lunch: the lunch keeps 12:00, and the overlap is said at it in the view's words.
      for (let press = 0; press < 19; press += 1) await page.keyboard.press('+');
      expect(await text(page, '.live-now .live-range')).toBe('09:00–11:00');
      const lunch = page.locator('.live-row', { hasText: 'Mittagspause' });
      // Rows out of view are not laid out: their text is read from the DOM, not from the layout.
      expect(await lunch.locator('.live-row-time').textContent()).toBe('12:00');
      expect(await lunch.locator('.live-overlap').textContent()).toBe(locale.strings.overlap(locale.formatDuration(10)));
      expect(await text(page, '.live-end')).toBe(words.endOfDay('14:30'));
      expect(await text(page, '.live-behind')).toBe(words.behind(100));
      // The link never changed.
      expect(page.url()).toBe(link);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('keeps the run over a reload, and Reset goes back to the plan (German)', async () => {
    const { page } = await liveAt(german(), '09:12');
    const link = page.url();
    await page.getByRole('button', { name: '+5 Min.', exact: true }).click();
    expect(await text(page, '.live-now .live-range')).toBe('09:00–09:25');
    await page.reload();
    await page.waitForSelector('.live-main > section');
    expect(page.url()).toBe(link);
    expect(await text(page, '.live-now .live-range')).toBe('09:00–09:25');
    await page.getByRole('button', { name: 'Zurücksetzen', exact: true }).click();
    expect(await text(page, '.live-now .live-range')).toBe('09:00–09:20');
    await page.reload();
    await page.waitForSelector('.live-main > section');
    expect(await text(page, '.live-now .live-range')).toBe('09:00–09:20');
    // Escape closes the live view: the plan again, focus on the menu it came from.
    await page.keyboard.press('Escape');
    await page.waitForSelector('#app[data-state="plan"]');
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-haspopup")')).toBe('menu');
    await page.close();
  });

  it('asks to start a plan that is not dated today, and starts its first item at the current minute', async () => {
    const plan = { ...germanWorkshopPlan(), workshop: { title: 'Ohne Datum', description: '', date: null, startTime: '09:00' } };
    const { page, errors } = await liveAt(english(), '15:42', plan);
    expect(await page.locator('.live-row-time').first().textContent()).toBe('09:00');
    await page.getByRole('button', { name: 'Start now', exact: true }).click();
    expect(await text(page, '.live-title')).toBe('Ankommen & Check-in');
    expect(await text(page, '.live-now .live-range')).toBe('15:42–16:02');
    expect(await text(page, '.live-left')).toBe('20 min left');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('live view: for the room', () => {
  it('says the next item once, two minutes before; has no serious axe-core violation; fits a projector and a phone', async () => {
    for (const [language, viewer] of [['de', german()], ['en', english()]] as const) {
      const { page } = await liveAt(viewer, '09:17');
      await page.clock.runFor(1000);
      await page.clock.runFor(60_000);
      const said = language === 'de' ? 'Als Nächstes: Zahlen und Meilensteine in 2 Minuten' : 'Next: Zahlen und Meilensteine in 2 minutes';
      expect(await page.locator('.live-announce').innerText()).toBe(said);
      expect(await page.locator('[aria-live="polite"]', { hasText: said }).count()).toBe(1);
      await page.setViewportSize({ width: 1280, height: 720 });
      expect(await axeOnStoppedClock(page)).toEqual([]);
      // A projector: everything on one screen, the running title in large type.
      expect(await page.evaluate('document.documentElement.scrollHeight')).toBeLessThanOrEqual(720);
      expect(Number.parseFloat(await page.locator('.live-title').evaluate((node) => getComputedStyle(node).fontSize))).toBeGreaterThanOrEqual(48);
      await page.screenshot({ path: `${ARTIFACTS}live-${language}-projector.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${ARTIFACTS}live-${language}-phone.png`, fullPage: true });
      await page.close();
    }
  });
});
