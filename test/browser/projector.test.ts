// The projector window in real Chromium: opened from the live view, it follows the presenter's +5, Done, Back and Reset
// on the same device, shows each lane of a breakout, turns to the wrap-up colour and chimes in an item's last two
// minutes (not once switched off), sends nothing to the server, is axe-clean, and reads at 1280×720 and 390 px.
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedServer } from '../../src/server/start-server.js';
import { launchChromium, type ChromiumHandle } from '../support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../support/viewer-harness.js';
import { germanWorkshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, menuItem, onServer, seriousAxeViolations } from '../support/viewer-visit.js';

let server: StartedServer;
const browsers: ChromiumHandle[] = [];
beforeAll(async () => {
  ensureViewerBuilt();
  server = await startViewerServer({ PUBLIC_BASE_URL: 'https://sessionplan.de/' });
}, 60_000);
afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await server?.close();
});

/** A browser of its own whose clock (every window's) stands at `time` on the plan's day; the presenter with Live open. */
async function presenterAt(time: string, locale: 'de-DE' | 'en-GB'): Promise<{ browser: ChromiumHandle; presenter: Page }> {
  const browser = await launchChromium(undefined, { locale });
  browsers.push(browser);
  const start = new Date(`2027-01-20T${time}:00Z`);
  // Installed a minute early: the installed clock runs until pauseAt, which cannot go back in time.
  await browser.context.clock.install({ time: new Date(start.getTime() - 60_000) });
  await browser.context.clock.pauseAt(start);
  const presenter = await browser.context.newPage();
  await presenter.goto(onServer(server.url, await createLink(server.url, germanWorkshopPlan())));
  await presenter.waitForSelector('#app[data-state="plan"]');
  await (await menuItem(presenter, locale === 'de-DE' ? 'Live' : 'Live')).click();
  await presenter.waitForSelector('.live-main > section');
  return { browser, presenter };
}

/** Opens the projector from the presenter's button and waits for its first screen. */
async function openProjector(browser: ChromiumHandle, presenter: Page, name: string): Promise<{ projector: Page; requests: Request[] }> {
  const opened = browser.context.waitForEvent('page');
  await presenter.getByRole('button', { name }).click();
  const projector = await opened;
  const requests: Request[] = [];
  projector.on('request', (request) => requests.push(request));
  await projector.waitForSelector('.projector-main section');
  return { projector, requests };
}

const text = (page: Page, selector: string) => page.locator(selector).first().innerText();
const version = (page: Page) => page.locator('.projector').getAttribute('data-version');

describe('the projector window', () => {
  it('follows +5 min, Done, Back and Reset from the presenter, shows lanes, wraps up and chimes (German)', async () => {
    const { browser, presenter } = await presenterAt('09:12', 'de-DE');
    const { projector, requests } = await openProjector(browser, presenter, 'Beamer-Fenster');
    expect(new URL(projector.url()).searchParams.get('view')).toBe('projector');
    expect(await projector.getByRole('region', { name: 'Beamer' }).count()).toBe(1);
    expect(await text(projector, '.projector-title')).toBe('Ankommen & Check-in');
    expect(await text(projector, '.projector-left')).toBe('noch 8 Min.');
    expect(await text(projector, '.projector-next-title')).toBe('Zahlen und Meilensteine · 09:20');
    // The presenter's controls, and the projector in step with each of them.
    const follows = async (press: () => Promise<void>, expected: string): Promise<void> => {
      const before = await version(projector);
      await press();
      await expect.poll(() => version(projector), { timeout: 2_000 }).not.toBe(before);
      expect(await text(projector, '.projector-left')).toBe(expected);
    };
    await follows(() => presenter.getByRole('button', { name: '+5 Min.' }).click(), 'noch 13 Min.');
    await follows(() => presenter.getByRole('button', { name: 'Zurück', exact: true }).click(), 'noch 8 Min.');
    await follows(() => presenter.getByRole('button', { name: 'Fertig', exact: true }).click(), 'noch 25 Min.');
    expect(await text(projector, '.projector-title')).toBe('Zahlen und Meilensteine');
    await follows(() => presenter.getByRole('button', { name: 'Zurücksetzen' }).click(), 'noch 8 Min.');
    expect(await text(projector, '.projector-title')).toBe('Ankommen & Check-in');

    // 09:18: two minutes left, the wrap-up colour and one chime.
    await browser.context.clock.fastForward(6 * 60_000);
    await expect.poll(() => projector.locator('.projector').getAttribute('class')).toContain('projector--wrap-up');
    expect(await projector.locator('.projector').getAttribute('data-chimes')).toBe('1');
    await projector.screenshot({ path: `${ARTIFACTS}projector-de-wrap-up.png` });
    // Chime off on the presenter's side: the next item's last minutes are silent.
    await presenter.getByRole('button', { name: 'Gong' }).click();
    expect(await presenter.getByRole('button', { name: 'Gong' }).getAttribute('aria-pressed')).toBe('false');
    await browser.context.clock.fastForward(25 * 60_000);
    await expect.poll(() => text(projector, '.projector-title')).toBe('Zahlen und Meilensteine');
    await expect.poll(() => projector.locator('.projector').getAttribute('class')).toContain('projector--wrap-up');
    expect(await projector.locator('.projector').getAttribute('data-chimes')).toBe('1');

    // 10:05: the breakout, each lane with its block and minutes.
    await browser.context.clock.fastForward(22 * 60_000);
    await expect.poll(() => projector.locator('.projector-lane-name').allInnerTexts()).toEqual(['Breakout 1', 'Breakout 2']);
    expect(await projector.locator('.projector-lane-title').allInnerTexts()).toEqual(['Was lief gut?', 'Was lernen wir?']);
    expect(await projector.locator('.projector-lane-left').allInnerTexts()).toEqual(['noch 25 Min.', 'noch 25 Min.']);
    await projector.setViewportSize({ width: 1280, height: 720 });
    await projector.screenshot({ path: `${ARTIFACTS}projector-de-1280.png` });
    // Everything of the running item fits the projector's screen.
    expect(await projector.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(720);
    await projector.setViewportSize({ width: 390, height: 844 });
    await projector.screenshot({ path: `${ARTIFACTS}projector-de-390.png` });
    expect(await projector.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    let done = false;
    const axe = seriousAxeViolations(projector).finally(() => { done = true; });
    while (!done) await browser.context.clock.runFor(20);
    expect(await axe).toEqual([]);
    // Nothing of the plan went to the server: the page and its files only, never a payload.
    for (const request of requests) {
      expect(request.method()).toBe('GET');
      expect(request.url()).not.toContain('data=');
      expect(request.postData()).toBeNull();
    }
  });

  it('opens from the keyboard and follows the keys (English)', async () => {
    const { browser, presenter } = await presenterAt('09:12', 'en-GB');
    const opened = browser.context.waitForEvent('page');
    await presenter.getByRole('button', { name: 'Projector window' }).focus();
    await presenter.keyboard.press('Enter');
    const projector = await opened;
    await projector.waitForSelector('.projector-main section');
    expect(await text(projector, '.projector-left')).toBe('8 min left');
    await presenter.locator('.live-plan-title').focus();
    await presenter.keyboard.press('+');
    await expect.poll(() => text(projector, '.projector-left'), { timeout: 2_000 }).toBe('13 min left');
    await presenter.keyboard.press('Space');
    await expect.poll(() => text(projector, '.projector-title'), { timeout: 2_000 }).toBe('Zahlen und Meilensteine');
    expect(await projector.locator('.projector-heading').allTextContents()).toEqual(['Now', 'Next']);
    // A projector opened later reads the run from the device.
    await projector.reload();
    await projector.waitForSelector('.projector-main section');
    expect(await text(projector, '.projector-title')).toBe('Zahlen und Meilensteine');
  });
});
