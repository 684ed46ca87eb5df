// The viewer's toolbar and paste field in real Chromium against the real server: notes toggle, copy link (clipboard),
// calendar and agenda downloads read back with real parsers, print to PDF read back with pdftotext, paste a link.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventUid, planKey } from '../../src/viewer/export/calendar.js';
import { en } from '../../src/plan-view/i18n/en.js';
import type { Plan } from '../../src/plan-view/plan.js';
import { readAgenda, readCalendar } from '../support/export-readers.js';
import { pdfText, pdfToPngs } from '../support/poppler.js';
import { useEnglishAndGermanPages } from '../support/viewer-harness.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, dataOf, menuItem, onServer, visit } from '../support/viewer-visit.js';

const { english, german } = useEnglishAndGermanPages();

const server = () => english().server;
const context = () => english().browser.context;

/** Chooses a toolbar menu item that starts a download and returns the saved file's name and text (kept as an artefact). */
async function download(page: Page, name: string, artefact: string): Promise<{ fileName: string; text: string }> {
  const item = await menuItem(page, name);
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), item.click()]);
  const path = `${ARTIFACTS}${artefact}`;
  await file.saveAs(path);
  return { fileName: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

/** Start and end of every block as the page shows it ("09:00", "09:20"), by item id. */
async function shownBlockTimes(page: Page): Promise<Map<string, { start: string; end: string }>> {
  const ids = await dataOf(page, 'li.slot--block', 'itemId');
  const starts = await dataOf(page, 'li.slot--block', 'start');
  const ends = await dataOf(page, 'li.slot--block', 'end');
  return new Map(ids.map((id, index) => [id, { start: starts[index]!, end: ends[index]! }]));
}

describe('notes', () => {
  it('are folded behind "Show notes", which shows all of them at once and then reads "Hide notes"; the choice survives a reload, not the link', async () => {
    const link = await createLink(server().url, germanWorkshopPlan());
    const url = onServer(server().url, link, '?lang=en');
    const { page, pageErrors } = await visit(context(), url);
    const notes = page.locator('.item-notes');
    expect(await notes.count()).toBe(4);
    for (const note of await notes.all()) expect(await note.isVisible()).toBe(false);

    await (await menuItem(page, 'Show notes')).click();
    for (const note of await notes.all()) expect(await note.isVisible()).toBe(true);
    // The menu closed and gave focus back to its button; the toggle now says what it does next.
    expect(await page.getByRole('menu').isVisible()).toBe(false);
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-haspopup")')).toBe('menu');
    expect(await (await menuItem(page, 'Hide notes')).count()).toBe(1);
    expect(await page.getByRole('menuitem', { name: 'Show notes' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    const note = page.locator('[data-item-id="ankommen"] .item-notes');
    expect(await note.innerText()).toBe('Pünktlich anfangen, Nachzügler später abholen.');
    // Its label is the page language's, from the locale's style sheet.
    expect(await note.evaluate((node) => getComputedStyle(node, '::before').content)).toBe('"Notes: "');
    expect(page.url()).toBe(url);

    await page.reload();
    await page.waitForSelector('#app[data-state="plan"]');
    for (const note of await notes.all()) expect(await note.isVisible()).toBe(true);
    await (await menuItem(page, 'Hide notes')).click();
    await page.reload();
    await page.waitForSelector('#app[data-state="plan"]');
    expect(await (await menuItem(page, 'Show notes')).count()).toBe(1);
    expect(await notes.first().isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
    await page.close();

    // A plan without notes offers no toggle.
    const plain = await visit(context(), onServer(server().url, await createLink(server().url, { ...workshopPlan(), items: [] })));
    expect(await (await menuItem(plain.page, 'Show notes')).count()).toBe(0);
    expect(await plain.page.getByRole('menuitem').allInnerTexts()).toEqual(['Live', 'Print', 'Handout', 'Download calendar (.ics)', 'Download agenda (Markdown)', 'Download CSV']);
    await plain.page.close();
  });
});

describe('copy link', () => {
  it('puts the page\'s own address on the clipboard (without ?lang) and says so', async () => {
    await context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server().url });
    const link = await createLink(server().url, workshopPlan());
    const { page, pageErrors } = await visit(context(), onServer(server().url, link, '?lang=en'));
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').filter({ hasText: en.linkCopied }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(onServer(server().url, link));
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

describe('downloads', () => {
  it('saves an .ics that ical.js reads: one event per block at the times the page shows, one per group and breakout, lanes named, stable UIDs', async () => {
    const source = germanWorkshopPlan();
    const { page, pageErrors } = await visit(german().browser.context, onServer(german().server.url, await createLink(server().url, source)));
    const first = await download(page, 'Kalender herunterladen (.ics)', 'viewer-de.ics');
    expect(first.fileName).toBe('strategietag-team-sued.ics');
    await page.getByRole('status').filter({ hasText: 'Gespeichert als strategietag-team-sued.ics.' }).waitFor();
    const calendar = readCalendar(first.text);
    const shown = await shownBlockTimes(page);
    expect(shown.size).toBe(8);
    // UIDs are hashes of the plan's key and the item id: read them back through the same hash.
    const key = planKey(source as unknown as Plan);
    const idOf = new Map([...shown.keys()].map((id) => [eventUid(key, id), id]));
    const blockEvents = calendar.events.filter((event) => idOf.has(event.uid));
    expect(blockEvents).toHaveLength(shown.size);
    // The plan's one group and two breakouts are events of their own.
    expect(calendar.events.filter((event) => !idOf.has(event.uid)).map((event) => event.summary.replace(/:.*/, '')).sort()).toEqual(['Breakout', 'Breakout', 'Gruppe']);
    for (const event of blockEvents) {
      const id = idOf.get(event.uid) ?? event.uid;
      const times = shown.get(id);
      expect(times, event.uid).toBeDefined();
      expect(event.start, id).toBe(`2027-01-20T${times!.start}:00`);
      expect(event.end, id).toBe(`2027-01-20T${times!.end}:00`);
      expect(event.floating).toBe(true);
    }
    expect(calendar.events.find((event) => event.uid === eventUid(key, 'station-b'))!.summary).toBe('Was lernen wir? (Stationen, Breakout 2)');
    const again = readCalendar((await download(page, 'Kalender herunterladen (.ics)', 'viewer-de-again.ics')).text);
    expect(again.events.map((event) => event.uid)).toEqual(calendar.events.map((event) => event.uid));
    // The export code came on demand: one extra script, after the page was up.
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says why there is no calendar for a plan without a date, and downloads nothing', async () => {
    const { page } = await visit(context(), onServer(server().url, await createLink(server().url, { ...workshopPlan(), workshop: { title: 'Undated', description: '', date: null, startTime: '10:00' } })));
    const item = await menuItem(page, 'Download calendar (.ics)');
    expect(await item.getAttribute('aria-disabled')).toBe('true');
    expect(await item.getAttribute('title')).toBe(en.calendarNeedsDate);
    expect(await item.evaluate((node) => document.getElementById(node.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(en.calendarNeedsDate);
    let downloads = 0;
    page.on('download', () => { downloads += 1; });
    // Reachable and pressable from the keyboard (aria-disabled, not disabled): it answers with the reason.
    await item.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: en.calendarNeedsDate }).waitFor();
    await page.waitForTimeout(500);
    expect(downloads).toBe(0);
    await page.close();
  });

  it('saves a Markdown agenda that marked reads as one table with the times the page shows', async () => {
    const { page, pageErrors } = await visit(context(), onServer(server().url, await createLink(server().url, workshopPlan())));
    const { fileName, text } = await download(page, 'Download agenda (Markdown)', 'viewer-en-agenda.md');
    expect(fileName).toBe('design-sprint-kickoff-agenda.md');
    const agenda = readAgenda(text);
    expect(agenda.heading).toBe('Design Sprint Kickoff');
    expect(agenda.header).toEqual(['Time', 'Title', 'Duration', 'People', 'Material']);
    const starts = await dataOf(page, 'li.slot', 'start');
    const ends = await dataOf(page, 'li.slot', 'end');
    const itemRows = agenda.rows.filter((row) => !/^(↳ )*Breakout \d$/.test(row[1]!));
    expect(itemRows.map((row) => row[0]!.replace(' (fixed)', ''))).toEqual(starts.map((start, index) => `${start}–${ends[index]}`));
    expect(itemRows.map((row) => row[1])).toContain('Group: Understand the problem');
    expect(itemRows.map((row) => row[1])).toContain('Breakout: Sketch tracks (3 parallel breakouts)');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

describe('print', () => {
  it('prints A4 without the toolbar, lanes side by side where they fit, a footer with title and date on every page', async () => {
    const { page } = await visit(context(), onServer(server().url, await createLink(server().url, workshopPlan())));
    const path = `${ARTIFACTS}viewer-en-print.pdf`;
    await page.pdf({ path, format: 'A4', printBackground: true });
    pdfToPngs(path, `${ARTIFACTS}viewer-en-print`);
    const text = pdfText(path);
    const pages = text.split('\f').filter((part) => part.trim() !== '');
    expect(pages.length).toBeGreaterThanOrEqual(1);
    for (const [index, part] of pages.entries()) {
      expect(part, `page ${index + 1}`).toMatch(/Design Sprint Kickoff · Saturday, 14 March 2026/);
      expect(part).toMatch(new RegExp(`\\b${index + 1}\\s*/\\s*${pages.length}\\s*$`, 'm'));
    }
    for (const control of ['Copy link', 'Download calendar', 'Show notes', 'Read in your browser']) expect(text).not.toContain(control);
    for (const title of ['Welcome and goals', 'Expert interviews', 'Crazy 8s', 'Storyboard', 'Solution', 'Wrap-up']) expect(text).toContain(title); // a narrow lane may wrap a title
    // The three lanes of "Sketch tracks" side by side: their titles on one line.
    expect(text.split('\n').some((line) => /Breakout 1\s+Breakout 2\s+Breakout 3/.test(line))).toBe(true);
    expect(await page.evaluate(`(() => { const [sheet] = document.adoptedStyleSheets.slice(-1); return [...sheet.cssRules].map((rule) => rule.cssText).join(' '); })()`)).toContain('@bottom-left');
    await page.close();
  });

  it('stacks lanes that do not fit across the page and cuts nothing at the right edge', async () => {
    const plan = workshopPlan() as { items: unknown[] };
    const block = (id: string, laneIndex: number) => ({ type: 'block', id, title: `Station ${laneIndex + 1} with a long title that needs room`, duration: 30, blockTypeId: null, personIds: ['alice', 'bob'], description: 'x'.repeat(200), notes: '', material: '', fixedStartTime: null, laneIndex });
    plan.items.push({ type: 'breakout', id: 'ten', title: 'Ten stations', duration: 30, description: '', notes: '', fixedStartTime: null, lanes: 10, sameInAllBreakouts: false, lanePersons: {},
      children: Array.from({ length: 10 }, (_, lane) => block(`station-${lane}`, lane)) });
    const { page } = await visit(context(), onServer(server().url, await createLink(server().url, plan)));
    const path = `${ARTIFACTS}viewer-en-print-wide.pdf`;
    await page.pdf({ path, format: 'A4', printBackground: true });
    pdfToPngs(path, `${ARTIFACTS}viewer-en-print-wide`);
    const text = pdfText(path);
    for (let lane = 1; lane <= 10; lane += 1) expect(text).toMatch(new RegExp(`Station ${lane}\\b`));
    const laneLines = text.split('\n').filter((line) => /Breakout (10|[4-9])\b/.test(line));
    expect(new Set(laneLines).size, 'lanes 4 to 10 wrap onto further rows').toBeGreaterThan(1);

    // In print layout at the printable width of A4 (210 mm less 24 mm of margins), every box ends inside the page.
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: Math.floor((186 / 25.4) * 96), height: 1000 });
    const printable = await page.evaluate('innerWidth') as number;
    const rightmost = await page.evaluate(`Math.max(...[...document.querySelectorAll('#app *')].map((node) => node.getBoundingClientRect().right))`) as number;
    expect(rightmost).toBeLessThanOrEqual(printable);
    expect(await page.locator('.page-header').isVisible()).toBe(false);
    expect(await page.locator('.block').first().evaluate((node) => getComputedStyle(node).breakInside)).toBe('avoid');
    await page.close();
  });

  it('keeps the German "fixed time" label inside its time column on paper, wrapped, never cut at the left edge', async () => {
    const link = await createLink(server().url, workshopPlan());
    const { page } = await visit(context(), `${server().url}/?lang=de${link.slice(link.indexOf('#'))}`);
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: Math.floor((186 / 25.4) * 96), height: 1000 });
    const pin = page.locator('.slot-pin').first();
    expect(await pin.innerText()).toMatch(/^FESTE\s+ZEIT$/);
    const [pinBox, columnBox] = [await pin.boundingBox(), await page.locator('.slot-time', { has: pin }).boundingBox()];
    expect(pinBox!.x).toBeGreaterThanOrEqual(columnBox!.x);
    expect(pinBox!.x + pinBox!.width).toBeLessThanOrEqual(columnBox!.x + columnBox!.width + 0.5);
    const leftmost = await page.evaluate(`Math.min(...[...document.querySelectorAll('#app *')].map((node) => node.getBoundingClientRect().left))`) as number;
    expect(leftmost).toBeGreaterThanOrEqual(0);
    await page.close();
  });
});

describe('paste a link', () => {
  it('opens a whole URL, a #data=v2: hash or a bare v2: code with Enter, and marks a bad link at the field without touching the address', async () => {
    const link = await createLink(server().url, workshopPlan());
    const code = link.slice(link.indexOf('v2:'));
    for (const input of [link, `#data=${code}`, code]) {
      const { page, pageErrors } = await visit(context(), `${server().url}/`);
      const field = page.getByRole('textbox', { name: 'Paste a Sessionplan link' });
      await field.fill(`  ${input}  `);
      await field.press('Enter');
      await page.waitForSelector('#app[data-state="plan"]');
      expect(await page.locator('.plan-title').innerText()).toBe('Design Sprint Kickoff');
      expect(new URL(page.url()).hash).toBe(`#data=${code}`);
      expect(await page.evaluate('document.activeElement?.className')).toBe('plan-title');
      expect(pageErrors).toEqual([]);
      await page.close();
    }

    const { page } = await visit(context(), `${server().url}/`);
    const field = page.getByRole('textbox', { name: 'Paste a Sessionplan link' });
    for (const [input, sentence] of [
      ['', en.pasteEmpty],
      [code.slice(0, Math.floor(code.length / 2)), en.brokenLink],
      ['v1:N4IgzgpgTg', en.legacyLink],
      ['v3:N4IgzgpgTg', en.newerFormat],
      ['https://sessionplan.de/s/abc123', en.dynamicLink],
      ['https://example.com/page', en.noSnapshot],
      ['/home/anna/plans/offsite.json', en.noSnapshot],
    ] as const) {
      await field.fill(input);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.waitForFunction(`document.querySelector('.paste-error')?.textContent === ${JSON.stringify(sentence)}`);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.evaluate((node) => document.getElementById(node.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(sentence);
      expect(new URL(page.url()).hash, input).toBe('');
      expect(await page.locator('#app').getAttribute('data-state')).toBe('empty');
    }
    await page.screenshot({ path: `${ARTIFACTS}viewer-en-paste-error.png` });
    await page.close();
  });
});
