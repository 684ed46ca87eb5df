// The participants' handout in real Chromium: "Teilnehmer-Version" / "Handout" opens a new link of the plan without notes
// and facilitator-only blocks in a new tab (keyboard too), with the same times, a badge on screen and on paper (read
// back with pdftotext); the opened link is unchanged; a category is marked facilitator-only from the planner.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { pdfText, pdfToPngs } from '../support/poppler.js';
import { useEnglishAndGermanPages, type ViewerPage } from '../support/viewer-harness.js';
import { germanWorkshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, dataOf, menuItem, onServer, seriousAxeViolations, visit } from '../support/viewer-visit.js';

const { english, german } = useEnglishAndGermanPages();
const operations = createSessionOperations(loadCodec);

/** The German workshop with a 🔒 category on a team sync between check-in and the review. */
function planWithTeamSync(): Record<string, any> {
  const plan = germanWorkshopPlan() as Record<string, any>;
  plan['blockTypes'].push({ id: 'intern', name: '🔒 Intern', color: '#555555' });
  plan['items'].splice(1, 0, { type: 'block', id: 'sync', title: 'Abstimmung Team', duration: 10, blockTypeId: 'intern', personIds: ['jana'], description: 'Wer übernimmt was?', notes: 'Budget ansprechen', material: 'Checkliste', fixedStartTime: null, laneIndex: 0 });
  return plan;
}

/** Every item's id with its shown start and end. */
async function shownTimes(page: Page): Promise<string[]> {
  const [ids, starts, ends] = await Promise.all([dataOf(page, 'li.slot', 'itemId'), dataOf(page, 'li.slot', 'start'), dataOf(page, 'li.slot', 'end')]);
  return ids.map((id, index) => `${id} ${starts[index]}–${ends[index]}`);
}

/** Chooses the menu item (or runs `choose`) and returns the tab it opened, once that shows its plan. */
async function handoutTab(viewer: ViewerPage, choose: () => Promise<void>): Promise<Page> {
  const opened = viewer.browser.context.waitForEvent('page');
  await choose();
  const tab = await opened;
  await tab.waitForSelector('#app[data-state="plan"]', { timeout: 20_000 });
  return tab;
}

describe('the participants\' handout', () => {
  it('opens a new link without notes or the facilitators\' block, same times, printable; the link on screen stays (German)', async () => {
    const viewer = german();
    const link = await createLink(viewer.server.url, planWithTeamSync());
    const { page, pageErrors } = await visit(viewer.browser.context, onServer(viewer.server.url, link));
    const opened = page.url();
    const tab = await handoutTab(viewer, async () => (await menuItem(page, 'Teilnehmer-Version')).click());

    await expect.poll(() => page.locator('.toolbar-status').innerText()).toBe('Die Teilnehmer-Version ist in einem neuen Tab offen: derselbe Plan ohne Notizen, 1 Block nur für die Moderation ohne Titel. Dieser Link bleibt, wie er ist.');
    expect(page.url()).toBe(opened);
    expect(new URL(tab.url()).searchParams.get('view')).toBe('handout');
    expect(await tab.locator('.handout-badge').innerText()).toMatch(/^teilnehmer-version$/i);
    expect(await shownTimes(tab)).toEqual(await shownTimes(page));
    expect(await tab.locator('[data-item-id="sync"] .item-title').innerText()).toBe('Zeit der Moderation');
    // Nothing of the notes or the facilitators' block is in the new link, and the notes toggle has nothing to show.
    const { session } = await operations.decodeSessionLink(new URL(tab.url()).hash);
    expect(JSON.stringify(session)).not.toMatch(/Budget|Checkliste|Intern|Pünktlich|Fotoprotokoll|Nicht in Details|Fragen vorher/);
    expect(await tab.locator('.item-notes').count()).toBe(0);
    await tab.locator('.toolbar .menu-button').click();
    expect(await tab.getByRole('menuitem', { name: 'Notizen anzeigen' }).isVisible()).toBe(false);
    await tab.keyboard.press('Escape');

    await tab.setViewportSize({ width: 1280, height: 900 });
    await tab.screenshot({ path: `${ARTIFACTS}handout-de-1280.png` });
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.screenshot({ path: `${ARTIFACTS}handout-de-390.png` });
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAxeViolations(tab)).toEqual([]);

    // On paper: the badge in the header and the footer, times, lanes, people and material; no notes, no toolbar.
    const path = `${ARTIFACTS}handout-de-print.pdf`;
    await tab.pdf({ path, format: 'A4', printBackground: true });
    pdfToPngs(path, `${ARTIFACTS}handout-de-print`);
    const text = pdfText(path);
    for (const expected of ['Strategietag Team Süd', '09:00', '09:20', 'Zeit der Moderation', 'Stationen', 'Breakout 1', 'Jana Größer', 'Özlem Yılmaz', 'Namensschilder, Stifte', 'Klebepunkte']) expect(text).toContain(expected);
    for (const pageText of text.split('\f').filter((part) => part.trim() !== '')) expect(pageText).toMatch(/Teilnehmer-Version · Strategietag Team Süd/);
    for (const absent of ['Budget', 'Pünktlich', 'Abstimmung Team', 'Link kopieren']) expect(text).not.toContain(absent);
    expect(pageErrors).toEqual([]);
    await tab.close();
    await page.close();
  });

  it('a category marked "Facilitators only" in the planner is left out; the handout opens from the keyboard (English)', async () => {
    const viewer = english();
    const link = await createLink(viewer.server.url, germanWorkshopPlan());
    const { page } = await visit(viewer.browser.context, onServer(viewer.server.url, link));
    await page.getByRole('button', { name: 'Edit plan' }).click();
    const pauseEntry = page.locator('#edit-categories ~ .edit-entries > .edit-entry').nth(2);
    expect(await pauseEntry.getByRole('textbox', { name: 'Category name' }).inputValue()).toBe('Pause');
    await pauseEntry.getByRole('checkbox', { name: 'Facilitators only (not in the handout)' }).check();
    await expect.poll(() => page.url()).not.toBe(onServer(viewer.server.url, link));
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForSelector('#app[data-state="plan"]');
    expect(await page.locator('.legend').innerText()).toContain('🔒 Pause');

    // The menu from the keyboard: Enter opens it, End goes to its last item, arrows walk it.
    const tab = await handoutTab(viewer, async () => {
      await page.locator('.toolbar .menu-button').focus();
      await page.keyboard.press('Enter');
      const items = await page.getByRole('menuitem').allInnerTexts();
      const steps = items.indexOf('Handout');
      expect(steps).toBeGreaterThan(0);
      for (let step = 0; step < steps; step += 1) await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Handout');
      await page.keyboard.press('Enter');
    });
    expect(await tab.locator('.handout-badge').innerText()).toMatch(/^handout for participants$/i);
    expect(await tab.locator('[data-item-id="mittag"] .item-title').innerText()).toBe('Facilitator time');
    expect(await tab.locator('.legend').innerText()).not.toContain('Pause');
    expect(await shownTimes(tab)).toEqual(await shownTimes(page));
    await tab.close();
    await page.close();
  });
});
