// Links made to cost the page: the viewer draws at most what a plan may hold and says what it left out, and its
// downloads stay safe (calendar without injected properties, a portable file name), in real Chromium.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import lz from 'lz-string';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHIPS_PER_LIST } from '../../src/plan-view/render-items.js';
import { openViewerPage, type ViewerPage } from '../support/viewer-harness.js';
import { ARTIFACTS, menuItem, seriousAxeViolations, visit } from '../support/viewer-visit.js';

let english: ViewerPage | undefined;
let german: ViewerPage | undefined;

beforeAll(async () => {
  english = await openViewerPage({}, { locale: 'en-GB' });
  german = await openViewerPage({}, { locale: 'de-DE' });
}, 60_000);

afterAll(async () => {
  await english?.close();
  await german?.close();
});

const block = (id: string, extra: Record<string, unknown> = {}) => ({ type: 'block', id, title: `Block ${id}`, duration: 5, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0, ...extra });
const linkOf = (document: unknown): string => `#data=v2:${lz.compressToEncodedURIComponent(JSON.stringify(document))}`;
const workshop = { title: 'Hostile', description: '', date: '2026-03-14', startTime: '09:00' };

/** Elements in the page, and main-thread time of the load so far (long tasks summed). */
async function weight(page: Page): Promise<{ elements: number }> {
  return { elements: await page.evaluate(() => document.getElementsByTagName('*').length) };
}

describe('the viewer draws at most what a plan may hold', () => {
  it('1,000 items in a link: the first 500 are drawn, and a line says how many were left out (English and German)', async () => {
    const link = linkOf({ version: '1.0', workshop, blockTypes: [], persons: [], items: Array.from({ length: 1000 }, (_, i) => block(`b${i}`)) });
    for (const [viewer, says] of [
      [english!, 'This link holds 1,000 items; only the first 500 are shown, as a plan holds at most 500.'],
      [german!, 'Dieser Link enthält 1.000 Einträge; nur die ersten 500 werden gezeigt, denn ein Plan hat höchstens 500.'],
    ] as const) {
      const { page, pageErrors } = await visit(viewer.browser.context, `${viewer.server.url}/${link}`);
      expect(await page.locator('[data-item-id]').count()).toBe(500);
      expect(await page.locator('.plan-omitted').innerText()).toBe(says);
      expect(pageErrors).toEqual([]);
      await page.close();
    }
  });

  it('a 13 KB link naming 470,000 people who are not in the list: 20 chips a block and "and 980 more", a page of bounded size', async () => {
    const items = Array.from({ length: 470 }, (_, i) => block(`b${i}`, { personIds: Array(1000).fill('x') }));
    const link = linkOf({ version: '1.0', workshop, blockTypes: [], persons: [], items });
    expect(link.length).toBeLessThan(20_000);
    const { page, pageErrors } = await visit(english!.browser.context, `${english!.server.url}/${link}`);
    expect(await page.locator('[data-item-id]').count()).toBe(470);
    expect(await page.locator('li.person--unknown').count()).toBe(470 * MAX_CHIPS_PER_LIST);
    const more = page.locator('li.person--more');
    expect(await more.count()).toBe(470);
    expect(await more.first().innerText()).toBe('and 980 more');
    // Without the caps this link drew about a million elements.
    expect((await weight(page)).elements).toBeLessThan(40_000);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}viewer-hostile-people-en.png` });
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

describe('downloads of a hostile link', () => {
  it('the calendar holds its events and nothing else, under a portable file name', async () => {
    const injected = 'x\r\nATTENDEE:mailto:evil@example.com\r\nURL:https://evil.example/\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM';
    const link = linkOf({
      version: '1.0',
      workshop: { ...workshop, title: 'Plan\u202esci.exe 😀\ud83d' },
      blockTypes: [],
      persons: [],
      items: [block(injected, { title: `T\u2028${injected}`, description: `\u0085\u000b\u000c\u0000${injected}` }), block('ok')],
    });
    const { page, pageErrors } = await visit(english!.browser.context, `${english!.server.url}/${link}`);
    const item = await menuItem(page, 'Download calendar (.ics)');
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), item.click()]);
    expect(file.suggestedFilename()).toBe('plan-sci-exe.ics');
    const path = `${ARTIFACTS}hostile.ics`;
    await file.saveAs(path);
    const text = readFileSync(path, 'utf8');
    for (const line of text.slice(0, -2).split('\r\n')) expect(line, JSON.stringify(line)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/);
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(event.getAllSubcomponents()).toEqual([]);
      expect(event.getAllProperties().map((property) => property.name).sort()).toEqual(event.hasProperty('description') ? ['description', 'dtend', 'dtstamp', 'dtstart', 'summary', 'uid'] : ['dtend', 'dtstamp', 'dtstart', 'summary', 'uid']);
    }
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
