// The library in the page, in real Chromium: the empty page's templates open edit mode on a whole plan (its link is
// the template's document), "Insert method" inserts a method as a block with its source named, from the keyboard and
// undoably, and both show the methods' licence; German and English, axe-clean, at 390 and 1280 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { libraryCatalogue } from '../../src/library/catalogue.js';
import { addressBar, documentInAddressBar, editMenuItem, row } from '../support/planner-steps.js';
import { useEnglishAndGermanPages } from '../support/viewer-harness.js';
import { germanWorkshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, onServer, seriousAxeViolations } from '../support/viewer-visit.js';

const { english, german } = useEnglishAndGermanPages();
const catalogue = libraryCatalogue();
const LICENSE = 'https://creativecommons.org/licenses/by-sa/4.0/';

async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${ARTIFACTS}${name}-${width}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('templates on the empty page', () => {
  it('offers the four templates with their source; one opens edit mode and its link holds the template (German)', async () => {
    const { browser, server } = german();
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/`);
    const templates = page.getByRole('region', { name: 'Oder mit einer Vorlage beginnen' });
    await expect.poll(() => templates.getByRole('button').allInnerTexts()).toEqual(catalogue.templates.map((template) => template.title.de));
    expect(await templates.getByRole('link', { name: 'Lizenz' }).getAttribute('href')).toBe(LICENSE);
    expect(await templates.innerText()).toContain('Nach Liberating Structures (liberatingstructures.com) von Henri Lipmanowicz und Keith McCandless, CC BY-SA 4.0.');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshots(page, 'templates-de');

    // From the keyboard: the template's button, Enter.
    await templates.getByRole('button', { name: 'Retrospektive (90 Minuten)' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#app[data-state="editing"]');
    await expect.poll(() => addressBar(page)).toContain('#data=v2:');
    const { session } = await documentInAddressBar(page);
    expect(session).toEqual(catalogue.templates.find((template) => template.key === 'retrospective')!.documents.de);
    await page.getByRole('button', { name: 'Fertig' }).click();
    await page.waitForSelector('#app[data-state="plan"]');
    expect(await page.locator('.plan-title').innerText()).toBe(session.workshop.title);
    expect(await page.locator('.item-description').allInnerTexts()).toContainEqual(expect.stringContaining('CC BY-SA 4.0'));
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('"Insert method" in edit mode', () => {
  it('inserts a method as a block with its length, texts and source, from the keyboard, and undo takes it out (English)', async () => {
    const { browser, server } = english();
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(onServer(server.url, await createLink(server.url, germanWorkshopPlan()), '?lang=en'));
    await page.waitForSelector('#app[data-state="plan"]');
    await page.getByRole('button', { name: 'Edit plan' }).click();
    await page.waitForSelector('#app[data-state="editing"]');

    // From the keyboard: the toolbar's menu, ArrowDown to "Insert method", Enter.
    await page.locator('.edit-toolbar .menu-button').focus();
    await page.keyboard.press('ArrowDown');
    for (let step = 0; step < 2; step += 1) await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Insert method');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Methods to insert' });
    await expect.poll(() => dialog.getByRole('button', { name: /^Insert: / }).count()).toBe(catalogue.methods.length);
    expect(await dialog.getByRole('link', { name: 'Licence' }).getAttribute('href')).toBe(LICENSE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshots(page, 'methods-en');
    // Escape closes it and focus goes back to the menu's button.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('More');

    await (await editMenuItem(page, 'Insert method')).click();
    await dialog.getByRole('button', { name: 'Insert: 1-2-4-All' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    // Focus is in the new block's title; the block is the method, its source at the end of its description.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('1-2-4-All');
    const method = catalogue.methods.find((entry) => entry.key === '1-2-4-all')!;
    await expect.poll(async () => (await documentInAddressBar(page)).session.items.at(-1)).toMatchObject({
      type: 'block', title: '1-2-4-All', duration: method.duration, material: method.material.en,
      description: `${method.description.en}\n\n${catalogue.methodSource.en}`,
    });
    expect(await page.locator('.edit-message').innerText()).toContain('“1-2-4-All” inserted');
    expect(await row(page, 'Details: 1-2-4-All').count()).toBe(1);
    await page.keyboard.press('Control+z');
    await expect.poll(() => row(page, 'Details: 1-2-4-All').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
