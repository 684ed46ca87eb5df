// The planner in real Chromium on the real server: built from an empty page through accessible names, in English and German;
// after every step the address bar's link decodes (lz-string) to a document the server's REST create turns into the same link.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import LZString from 'lz-string';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressBar, checkLink, documentInAddressBar, editMenuItem, row, seriousViolations } from '../support/planner-steps.js';
import { openViewerPage, type ViewerPage } from '../support/viewer-harness.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';
import { generatePlan } from '../fixtures/plans.js';
import { LONG_LINK_CHARS } from '../../src/planner/ui/mount.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
let viewer: ViewerPage;
let serverUrl: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  viewer = await openViewerPage();
  serverUrl = viewer.server.url;
});

afterAll(() => viewer?.close());

async function newPlan(language: 'en' | 'de'): Promise<{ page: Page; errors: string[] }> {
  const page = await viewer.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${serverUrl}/?lang=${language}`);
  await page.waitForSelector('#app[data-state="empty"]');
  await page.getByRole('button', { name: language === 'de' ? 'Neuer Plan' : 'New plan' }).click();
  await page.waitForSelector('#app[data-state="editing"] .editor');
  return { page, errors };
}

/** Opens the workshop plan's link (made by the server's REST create) in `page` and enters edit mode; returns that link. */
async function editWorkshopPlan(page: Page): Promise<string> {
  const response = await fetch(`${serverUrl}/api/session-links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: workshopPlan() }) });
  const created = ((await response.json()) as { link: string }).link;
  await page.goto(`${serverUrl}/${created.slice(created.indexOf('#'))}`);
  await page.waitForSelector('#app[data-state="plan"]');
  const opened = await addressBar(page);
  await page.getByRole('button', { name: 'Edit plan' }).click();
  await page.waitForSelector('#app[data-state="editing"] .editor');
  return opened;
}

/**
 * Where each row's duration field, times and Details button sit, per list: the distinct left edges (and Details widths)
 * of the rows of every list, so a list whose columns line up gives one value per column.
 */
async function rowColumns(page: Page): Promise<{ rows: number; duration: number[]; time: number[]; details: number[]; detailsWidth: number[] }[]> {
  return page.locator('.edit-list').evaluateAll((lists) => lists.map((list) => {
    const rows = [...list.children].map((item) => item.querySelector(':scope > .edit-row')).filter((row): row is HTMLElement => row !== null);
    const left = (selector: string) => [...new Set(rows.map((row) => Math.round(row.querySelector(selector)!.getBoundingClientRect().left)))];
    return {
      rows: rows.length,
      duration: left('input[data-control="duration"]'),
      time: left('.edit-time'),
      details: left('[data-control="details"]'),
      detailsWidth: [...new Set(rows.map((row) => Math.round(row.querySelector('[data-control="details"]')!.getBoundingClientRect().width)))],
    };
  }).filter((list) => list.rows > 0));
}

const items = (session: Record<string, any>): string[] => session.items.map((item: { title: string }) => item.title);

describe('planner in Chromium (English)', () => {
  it('builds a plan from an empty page, edits every field kind, nests, moves, undoes, refuses invalid input, imports and exports', async () => {
    const { page, errors } = await newPlan('en');
    const check = () => checkLink(page, serverUrl);
    const historyLength = await page.evaluate(() => history.length);

    // An empty valid document is in the address bar at once.
    expect((await check()).workshop.title).toBe('New plan');

    // Workshop fields.
    await page.getByLabel('Workshop title').fill('Team day');
    await page.getByLabel('Workshop title').blur();
    expect((await check()).workshop.title).toBe('Team day');
    await page.getByLabel('Date', { exact: true }).fill('2026-03-14');
    await page.getByLabel('Start time', { exact: true }).fill('09:00');
    await page.getByLabel('Workshop description').fill('Planning the year');
    expect((await check()).workshop).toEqual({ title: 'Team day', description: 'Planning the year', date: '2026-03-14', startTime: '09:00' });

    // Categories and people.
    await page.getByRole('button', { name: 'Add category' }).click();
    await page.getByLabel('Category name').fill('Talk');
    await page.getByLabel('Colour').fill('#aa3355');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByLabel('Name', { exact: true }).nth(0).fill('Ana');
    await page.getByLabel('Role', { exact: true }).nth(0).fill('Facilitator');
    await page.getByLabel('Name', { exact: true }).nth(1).fill('Ben');
    let session = await check();
    expect(session.blockTypes).toEqual([{ id: 'type-1', name: 'Talk', color: '#aa3355' }]);
    expect(session.persons).toEqual([{ id: 'person-1', name: 'Ana', role: 'Facilitator' }, { id: 'person-2', name: 'Ben', role: '' }]);

    // Items: a block, its fields, a group with a block inside (added while the group is selected), a breakout.
    await page.getByRole('button', { name: 'Add block' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-control'))).toBe('title');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Welcome');
    await page.getByRole('textbox', { name: 'Duration (min)' }).fill('20');
    await page.getByRole('button', { name: 'Details: Welcome', exact: true }).click();
    const welcome = row(page, 'Details: Welcome');
    await welcome.getByLabel('Description').fill('Why we are here');
    await welcome.getByLabel('Notes', { exact: true }).fill('Keep it short');
    await welcome.getByLabel('Material').fill('Name tags');
    await welcome.getByLabel('Fixed start time').fill('09:15');
    await welcome.getByLabel('Category').selectOption({ label: 'Talk' });
    await welcome.getByRole('checkbox', { name: 'Ana' }).check();
    session = await check();
    expect(session.items[0]).toEqual({
      type: 'block', id: 'block-1', title: 'Welcome', duration: 20, blockTypeId: 'type-1', personIds: ['person-1'],
      description: 'Why we are here', notes: 'Keep it short', material: 'Name tags', fixedStartTime: '09:15', laneIndex: 0,
    });
    // Live times: the pinned start moves the block; the total follows.
    await expect.poll(() => welcome.locator('.edit-time').first().innerText()).toBe('09:15–09:35');
    await expect.poll(() => page.locator('.edit-total').innerText()).toMatch(/35 min.*09:00–09:35/);

    await (await editMenuItem(page, 'Add group')).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Morning');
    await page.getByRole('button', { name: 'Add block' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Input');
    session = await check();
    expect(items(session)).toEqual(['Welcome', 'Morning']);
    expect(session.items[1].children.map((child: { title: string }) => child.title)).toEqual(['Input']);

    // A breakout inside the group (the group's block is selected, so new items go into the group).
    await (await editMenuItem(page, 'Add breakout')).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Tables');
    await page.getByRole('button', { name: 'Details: Tables', exact: true }).click();
    const tables = row(page, 'Details: Tables');
    await tables.getByLabel('Parallel breakouts').fill('3');
    await tables.getByRole('group', { name: 'People in Breakout 3' }).getByRole('checkbox', { name: 'Ben' }).check();
    await page.getByRole('button', { name: 'Add block' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Table A');
    await page.getByRole('button', { name: 'Details: Table A', exact: true }).click();
    await row(page, 'Details: Table A').getByLabel('In breakout').selectOption({ label: 'Breakout 2' });
    session = await check();
    const breakout = session.items[1].children[1];
    expect(breakout).toMatchObject({ type: 'breakout', title: 'Tables', lanes: 3, sameInAllBreakouts: false, lanePersons: { '2': ['person-2'] } });
    expect(breakout.children[0]).toMatchObject({ title: 'Table A', laneIndex: 1 });
    await tables.getByLabel('Same in all breakouts').check();
    session = await check();
    expect(session.items[1].children[1]).toMatchObject({ sameInAllBreakouts: true });
    expect(session.items[1].children[1].children[0].laneIndex).toBe(0);

    // Invalid input is marked at the field and never reaches the link.
    const before = await addressBar(page);
    const duration = row(page, 'Details: Welcome').getByRole('textbox', { name: 'Duration (min)' }).first();
    await duration.fill('-5');
    await expect.poll(() => duration.getAttribute('aria-invalid')).toBe('true');
    // In the page's words, counting minutes as the field does (the API says "must be at least 0, not -5").
    expect(await page.locator(`[id="${await duration.getAttribute('aria-describedby')}"]`).innerText()).toBe('at least 0 minutes');
    expect(await addressBar(page)).toBe(before);
    await page.getByLabel('Workshop title').fill('');
    await expect.poll(() => page.getByLabel('Workshop title').getAttribute('aria-invalid')).toBe('true');
    expect(await addressBar(page)).toBe(before);
    await duration.fill('25');
    await page.getByLabel('Workshop title').fill('Team day');
    await expect.poll(() => addressBar(page)).not.toBe(before);
    expect((await check()).items[0].duration).toBe(25);

    // Keyboard moves: Move down, then Move to (into the group) and Move up inside it.
    await page.getByRole('button', { name: 'Move down: Welcome' }).focus();
    await page.keyboard.press('Enter');
    expect(items(await check())).toEqual(['Morning', 'Welcome']);
    // Welcome is last now, so "Move down" is disabled: focus went to its "Move up".
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move up: Welcome');
    await welcome.getByLabel('Move “Welcome” to').selectOption({ label: 'Group: Morning' });
    await welcome.getByRole('button', { name: 'Move: Welcome' }).press('Enter');
    session = await check();
    expect(items(session)).toEqual(['Morning']);
    expect(session.items[0].children.map((child: { title: string }) => child.title)).toEqual(['Input', 'Tables', 'Welcome']);
    await page.getByRole('button', { name: 'Move up: Welcome' }).click();
    expect((await check()).items[0].children.map((child: { title: string }) => child.title)).toEqual(['Input', 'Welcome', 'Tables']);

    // Drag and drop: Input out of the group onto the top level, below the group.
    await page.getByRole('button', { name: 'Add block' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Wrap-up');
    // The new block went into the group (a block in it was selected); drag it to the top level's end.
    const wrap = row(page, 'Details: Wrap-up').locator(':scope > .edit-row .drag-handle');
    const topList = page.locator('.edit-agenda > .edit-list');
    const box = (await topList.boundingBox())!;
    await wrap.hover();
    await page.mouse.down();
    await page.mouse.move(box.x + 40, box.y + box.height + 5, { steps: 12 });
    await page.mouse.move(box.x + 40, box.y + box.height - 4, { steps: 6 });
    await page.mouse.up();
    session = await check();
    expect(items(session)).toEqual(['Morning', 'Wrap-up']);
    expect(session.items[0].children.map((child: { title: string }) => child.title)).toEqual(['Input', 'Welcome', 'Tables']);

    // Undo / redo: buttons and shortcuts.
    await page.getByRole('button', { name: 'Undo' }).click();
    expect(items(await check())).toEqual(['Morning']);
    await page.keyboard.press('Control+Shift+Z');
    expect(items(await check())).toEqual(['Morning', 'Wrap-up']);
    await page.getByLabel('Workshop title').click();
    await page.getByLabel('Workshop title').pressSequentially(' 2027');
    expect((await check()).workshop.title).toBe('Team day 2027');
    await page.keyboard.press('Control+Z');
    // Typing " 2027" was one undo step.
    expect((await check()).workshop.title).toBe('Team day');
    await page.getByRole('button', { name: 'Redo' }).click();
    expect((await check()).workshop.title).toBe('Team day 2027');

    // Delete, duplicate.
    await page.getByRole('button', { name: 'Details: Wrap-up', exact: true }).click();
    await page.getByRole('button', { name: 'Duplicate: Wrap-up' }).click();
    session = await check();
    expect(items(session)).toEqual(['Morning', 'Wrap-up', 'Wrap-up']);
    expect(session.items[2].id).not.toBe(session.items[1].id);
    await page.getByRole('button', { name: 'Delete: Wrap-up' }).first().click();
    expect(items(await check())).toEqual(['Morning', 'Wrap-up']);

    // Export and import JSON.
    const download = page.waitForEvent('download');
    await (await editMenuItem(page, 'Download JSON')).click();
    const file = await download;
    const saved = `${artifacts}planner-export.json`;
    await file.saveAs(saved);
    expect(file.suggestedFilename()).toBe('sessionplan-team-day-2027-2026-03-14.json');
    const exported = JSON.parse(readFileSync(saved, 'utf8'));
    expect(exported).toEqual((await documentInAddressBar(page)).session);
    const broken = `${artifacts}planner-import-broken.json`;
    writeFileSync(broken, JSON.stringify({ ...exported, items: [{ ...exported.items[1], duration: -1, extra: 1 }] }));
    const linkBeforeImport = await addressBar(page);
    let chooser = page.waitForEvent('filechooser');
    await (await editMenuItem(page, 'Open JSON file')).click();
    await (await chooser).setFiles(broken);
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/cannot be opened as a plan[\s\S]*Duration \(min\) \(items\[0\]\.duration\): at least 0 minutes[\s\S]*items\[0\]\.extra/);
    expect(await addressBar(page)).toBe(linkBeforeImport);
    const good = `${artifacts}planner-import.json`;
    writeFileSync(good, JSON.stringify({ ...exported, workshop: { ...exported.workshop, title: 'Imported day' } }, null, 2));
    chooser = page.waitForEvent('filechooser');
    await (await editMenuItem(page, 'Open JSON file')).click();
    await (await chooser).setFiles(good);
    await expect.poll(async () => (await check()).workshop.title).toBe('Imported day');

    // The editor: no serious or critical axe-core violation; Back is not hijacked (replaceState only).
    await page.getByRole('button', { name: 'Details: Morning', exact: true }).click();
    expect(await seriousViolations(page)).toEqual([]);
    // One h1 names the page while editing (axe's page-has-heading-one); the editor region is named by it.
    expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Plan editor']);
    await expect.poll(() => page.getByRole('region', { name: 'Plan editor' }).count()).toBe(1);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    // Columns line up: in every list, each row's duration, times and Details button start at the same place, and
    // Details is an icon button whose name (and tooltip) carries the item's title, whatever the title's length.
    const details = page.getByRole('button', { name: 'Details: Morning', exact: true });
    expect(await details.innerText()).toBe('');
    expect(await details.getAttribute('title')).toBe('Details: Morning');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      const lists = await rowColumns(page);
      expect(lists.some((list) => list.rows >= 2)).toBe(true);
      for (const list of lists) {
        expect(list, `${width} px`).toMatchObject({ duration: [expect.any(Number)], time: [expect.any(Number)], details: [expect.any(Number)], detailsWidth: [expect.any(Number)] });
        expect(list.detailsWidth[0]).toBeLessThanOrEqual(40);
      }
      if (width === 1280) await page.screenshot({ path: `${artifacts}planner-en-desktop.png`, fullPage: true });
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.locator('.edit-agenda').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}planner-en-phone.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('planner in Chromium (German)', () => {
  it('builds, moves, undoes and marks invalid input through the German names', async () => {
    const { page, errors } = await newPlan('de');
    const check = () => checkLink(page, serverUrl);
    expect((await check()).workshop.title).toBe('Neuer Plan');
    await page.getByLabel('Workshop-Titel').fill('Klausur');
    await page.getByRole('button', { name: 'Block hinzufügen' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Begrüßung');
    await (await editMenuItem(page, 'Gruppe hinzufügen')).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Vormittag');
    await (await editMenuItem(page, 'Breakout hinzufügen')).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Tische');
    let session = await check();
    expect(items(session)).toEqual(['Begrüßung', 'Vormittag']);
    expect(session.items[1].children[0]).toMatchObject({ type: 'breakout', title: 'Tische' });

    const duration = row(page, 'Details: Begrüßung').getByRole('textbox', { name: 'Dauer (Min.)' }).first();
    const before = await addressBar(page);
    await duration.fill('2000');
    await expect.poll(() => duration.getAttribute('aria-invalid')).toBe('true');
    expect(await addressBar(page)).toBe(before);
    // The problem in German, in the field's own words, at the field and in the list above the plan.
    expect(await page.locator(`[id="${await duration.getAttribute('aria-describedby')}"]`).innerText()).toBe('höchstens 1.440 Minuten');
    expect(await page.getByRole('region', { name: '1 Problem zu beheben' }).innerText()).toContain('Dauer (Min.) von „Begrüßung“: höchstens 1.440 Minuten');
    await duration.fill('12.5');
    await expect.poll(() => page.locator(`[id="${'field:items[0].duration:problem'}"]`).innerText()).toBe('muss eine ganze Zahl sein');
    await duration.fill('30');
    expect((await check()).items[0].duration).toBe(30);

    await page.getByRole('button', { name: 'Nach unten: Begrüßung' }).click();
    expect(items(await check())).toEqual(['Vormittag', 'Begrüßung']);
    await page.getByRole('button', { name: 'Nach oben: Begrüßung' }).click();
    expect(items(await check())).toEqual(['Begrüßung', 'Vormittag']);
    await page.getByRole('button', { name: 'Details: Begrüßung', exact: true }).click();
    await page.getByRole('button', { name: 'Löschen: Begrüßung' }).click();
    expect(items(await check())).toEqual(['Vormittag']);
    await page.getByRole('button', { name: 'Rückgängig' }).click();
    expect(items(await check())).toEqual(['Begrüßung', 'Vormittag']);
    await page.getByRole('button', { name: 'Wiederholen' }).click();
    expect(items(await check())).toEqual(['Vormittag']);

    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Plan-Editor']);
    await page.screenshot({ path: `${artifacts}planner-de-desktop.png`, fullPage: true });
    // The toolbar is one row at any width (German labels are the longest): the rest is in its menu.
    const toolbarRows = () => page.evaluate(() => new Set([...document.querySelectorAll('.edit-toolbar > button, .edit-toolbar .menu-button')].map((control) => { const box = control.getBoundingClientRect(); return Math.round((box.top + box.bottom) / 2); })).size);
    expect(await toolbarRows()).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${artifacts}planner-de-phone.png` });
    expect(await toolbarRows()).toBe(1);
    expect(await page.locator('.edit-toolbar > button, .edit-toolbar .menu-button').evaluateAll((controls) => controls.map((control) => control.getAttribute('aria-label') ?? control.textContent))).toEqual(['Rückgängig', 'Wiederholen', 'Block hinzufügen', 'Mehr', 'Fertig']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await (await editMenuItem(page, 'Gruppe hinzufügen')).focus();
    await page.screenshot({ path: `${artifacts}planner-de-phone-menu.png` });
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${artifacts}planner-de-phone.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const language of ['de', 'en'] as const) {
    it(`the field just edited says what its change broke elsewhere, with a link to that field (${language})`, async () => {
      const plan = language === 'de' ? germanWorkshopPlan() : workshopPlan();
      const response = await fetch(`${serverUrl}/api/session-links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: plan }) });
      const created = ((await response.json()) as { link: string }).link;
      const page = await viewer.browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${serverUrl}/?lang=${language}${created.slice(created.indexOf('#'))}`);
      await page.waitForSelector('#app[data-state="plan"]');
      await page.getByRole('button', { name: language === 'de' ? 'Plan bearbeiten' : 'Edit plan' }).click();
      await page.waitForSelector('#app[data-state="editing"] .editor');
      const w = language === 'de'
        ? { details: 'Details: Stationen', lanes: 'Parallele Breakouts', broke: 'Durch diese Änderung stimmt nicht mehr: Personen in Breakout 2 von „Stationen“: dieser Breakout hat nur 1 parallelen Breakout: wählen Sie Breakout 1; Im Breakout von „Was lernen wir?“: dieser Breakout hat nur 1 parallelen Breakout: wählen Sie Breakout 1', link: 'Im Breakout von „Was lernen wir?“', lane: 'Im Breakout' }
        : { details: 'Details: Interview pairs', lanes: 'Parallel breakouts', broke: 'This change breaks: People in Breakout 2 of “Interview pairs”: this breakout has only 1 parallel breakout: choose Breakout 1; In breakout of “Pair B: operators”: this breakout has only 1 parallel breakout: choose Breakout 1', link: 'In breakout of “Pair B: operators”', lane: 'In breakout' };
      await page.getByRole('button', { name: w.details }).click();
      const lanes = page.getByRole('textbox', { name: w.lanes });
      await lanes.fill('1');
      const note = page.locator('.field-caused');
      await note.waitFor();
      expect(await note.innerText()).toBe(w.broke);
      // The note is the edited field's description, and its link takes focus to the field that broke.
      expect(await lanes.getAttribute('aria-describedby')).toContain(await note.getAttribute('id'));
      await note.getByRole('link', { name: w.link }).click();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('.field')?.querySelector('label')?.textContent)).toBe(w.lane);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `${artifacts}planner-${language}-change-broke.png` });
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`Done with a field still invalid stays, names the field, and offers to discard or keep editing (${language})`, async () => {
      const { page, errors } = await newPlan(language);
      const w = language === 'de'
        ? { addBlock: 'Block hinzufügen', title: 'Titel', duration: 'Dauer (Min.)', done: 'Fertig', discard: 'Meine ungültigen Änderungen verwerfen', keep: 'Weiter bearbeiten', behind: 'Der Link behält den letzten gültigen Plan, bis Dauer (Min.) von „Check-in“ korrigiert ist.', invalid: /^Dauer \(Min\.\) von „Check-in“ ist ungültig, deshalb enthält der Link noch den letzten gültigen Plan\./ }
        : { addBlock: 'Add block', title: 'Title', duration: 'Duration (min)', done: 'Done', discard: 'Discard my invalid changes', keep: 'Keep editing', behind: 'The link keeps the last valid plan until Duration (min) of “Check-in” is fixed.', invalid: /^Duration \(min\) of “Check-in” is not valid, so the link still holds the last valid plan\./ };
      await page.getByRole('button', { name: w.addBlock, exact: true }).click();
      await page.keyboard.type('Check-in');
      const duration = page.getByRole('textbox', { name: w.duration }).first();
      await duration.fill('200');
      await duration.blur();
      expect((await checkLink(page, serverUrl)).items[0].duration).toBe(200);
      for (const typed of ['2000', '12.5']) {
        await duration.fill(typed);
        await page.waitForSelector('.field--invalid');
        // The address bar keeps the last valid plan, and the status says on which field it is behind.
        expect((await documentInAddressBar(page)).session.items[0].duration).toBe(200);
        expect(await page.locator('.edit-link').innerText()).toContain(w.behind);
      }

      // Done stays: one sentence, focus on the invalid field, and the two ways on.
      await page.getByRole('button', { name: w.done }).click();
      const question = page.getByRole('alert').filter({ hasText: w.invalid });
      await question.waitFor();
      expect(await page.locator('#app').getAttribute('data-state')).toBe('editing');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute('aria-invalid'))).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `${artifacts}planner-${language}-done-invalid.png` });
      // On a phone the toolbar scrolls away; the question stays on screen above the field.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await question.evaluate((node) => { const box = node.getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight; })).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${artifacts}planner-${language}-done-invalid-phone.png` });
      await page.getByRole('button', { name: w.keep }).click();
      await question.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('12.5');

      // Discard: the view opens the link's plan, which nobody changed to a value nobody meant.
      await page.getByRole('button', { name: w.done }).click();
      await question.waitFor();
      await page.getByRole('button', { name: w.discard }).click();
      await page.waitForSelector('#app[data-state="plan"]');
      expect((await documentInAddressBar(page)).session.items[0].duration).toBe(200);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`a group whose items take longer says so at the group as it is typed, in the view's words, and the link follows (${language})`, async () => {
      const { page, errors } = await newPlan(language);
      const w = language === 'de'
        ? { start: 'Beginn', addGroup: 'Gruppe hinzufügen', addBlock: 'Block hinzufügen', duration: 'Dauer (Min.)', done: 'Fertig', hint: 'Die Punkte darin dauern 15 Min. länger als diese Gruppe.' }
        : { start: 'Start time', addGroup: 'Add group', addBlock: 'Add block', duration: 'Duration (min)', done: 'Done', hint: 'The items inside take 15 mins longer than this group.' };
      await page.getByLabel(w.start, { exact: true }).fill('09:00');
      await (await editMenuItem(page, w.addGroup)).click();
      await page.keyboard.type(language === 'de' ? 'Vormittag' : 'Morning');
      await page.getByRole('button', { name: w.addBlock, exact: true }).click();
      await page.keyboard.type('Impuls');
      const durations = page.getByRole('textbox', { name: w.duration });
      await durations.nth(0).fill('60');
      await durations.nth(1).fill('75');
      const hint = page.locator('[data-kind="group"] > .edit-hint');
      await hint.waitFor();
      expect(await hint.innerText()).toBe(w.hint);
      await page.screenshot({ path: `${artifacts}planner-${language}-group-overrun.png` });
      // A hint, not a problem: nothing is marked invalid, and the link holds what was typed.
      expect(await page.locator('.field--invalid').count()).toBe(0);
      const session = await checkLink(page, serverUrl);
      expect([session.items[0].duration, session.items[0].children[0].duration]).toEqual([60, 75]);
      await durations.nth(1).fill('45');
      await hint.waitFor({ state: 'detached' });
      await durations.nth(1).fill('75');
      await hint.waitFor();
      // The view says the same.
      await page.getByRole('button', { name: w.done }).click();
      await page.waitForSelector('#app[data-state="plan"]');
      expect(await page.locator('.overrun').innerText()).toBe(w.hint);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`a date partly cleared is marked and never reaches the link; cleared completely it means no date (${language})`, async () => {
      const { page, errors } = await newPlan(language);
      const date = page.getByLabel(language === 'de' ? 'Datum' : 'Date', { exact: true });
      expect(await date.getAttribute('max')).toBe('9999-12-31');
      await date.fill('2027-01-20');
      expect((await checkLink(page, serverUrl)).workshop.date).toBe('2027-01-20');
      // One segment cleared from the keyboard: the browser reports an empty value, the field is incomplete.
      await date.focus();
      await page.keyboard.press('Backspace');
      expect(await date.evaluate((input: HTMLInputElement) => input.validity.badInput)).toBe(true);
      await page.waitForSelector('.field--invalid input[type="date"]');
      expect(await date.getAttribute('aria-invalid')).toBe('true');
      expect((await documentInAddressBar(page)).session.workshop.date).toBe('2027-01-20');
      // Every segment cleared: no date, and the link says so.
      await date.fill('');
      await page.waitForSelector('.field--invalid', { state: 'detached' });
      expect((await checkLink(page, serverUrl)).workshop.date).toBeNull();
      // A year longer than four digits cannot be typed.
      await date.fill('2027-01-20');
      await date.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('152027');
      const shown = await date.inputValue();
      expect(shown).toMatch(/^\d{4}-01-20$/);
      expect((await checkLink(page, serverUrl)).workshop.date).toBe(shown);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`every Add moves focus into the new entry's first field with its text selected, so keys typed next name it (${language}, keyboard only)`, async () => {
      const { page, errors } = await newPlan(language);
      const words = language === 'de'
        ? { person: 'Person hinzufügen', category: 'Kategorie hinzufügen', block: 'Block hinzufügen', name: 'Name', role: 'Rolle', categoryName: 'Name der Kategorie', title: 'Titel' }
        : { person: 'Add person', category: 'Add category', block: 'Add block', name: 'Name', role: 'Role', categoryName: 'Category name', title: 'Title' };
      const focusedLabel = () => page.evaluate(() => {
        const active = document.activeElement as HTMLInputElement | null;
        return { label: active?.labels?.[0]?.textContent ?? null, selected: active?.value.slice(active.selectionStart ?? 0, active.selectionEnd ?? 0) ?? '', value: active?.value ?? '' };
      });
      // Enter on each button, then only typing and Tab: a space in a name must not press the button again.
      await page.getByRole('button', { name: words.person }).focus();
      await page.keyboard.press('Enter');
      const person = await focusedLabel();
      expect(person.label).toBe(words.name);
      expect(person.selected).toBe(person.value);
      await page.keyboard.type('Anna Berg');
      await page.keyboard.press('Tab');
      expect((await focusedLabel()).label).toBe(words.role);
      await page.keyboard.type('Moderation');
      await page.keyboard.press('Tab');

      await page.getByRole('button', { name: words.category }).focus();
      await page.keyboard.press('Enter');
      expect((await focusedLabel()).label).toBe(words.categoryName);
      await page.keyboard.type('Impuls');
      await page.keyboard.press('Tab');

      await page.getByRole('button', { name: words.block, exact: true }).focus();
      await page.keyboard.press('Enter');
      const block = await focusedLabel();
      expect(block.label).toBe(words.title);
      expect(block.selected).toBe(block.value);
      await page.keyboard.type('Check-in');
      await page.keyboard.press('Tab');

      const session = await checkLink(page, serverUrl);
      expect(session.persons.map((entry: { name: string; role: string }) => [entry.name, entry.role])).toEqual([['Anna Berg', 'Moderation']]);
      expect(session.blockTypes.map((entry: { name: string }) => entry.name)).toEqual(['Impuls']);
      expect(items(session)).toEqual(['Check-in']);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

describe('edit mode from an opened link', () => {
  it('"Edit plan" edits the plan on screen; "Done" shows the edited plan; Back leaves the page', async () => {
    const page = await viewer.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${serverUrl}/`);
    const opened = await editWorkshopPlan(page);
    // Nothing changed yet: the address bar still holds the opened link.
    expect(await addressBar(page)).toBe(opened);
    // Edit mode checks drafts in its worker (src/planner/worker.ts).
    await expect.poll(() => page.workers().map((worker) => new URL(worker.url()).pathname)).toEqual([expect.stringMatching(/^\/assets\/planner-worker-[\w-]+\.js$/)]);
    await row(page, 'Details: Warm-up').getByRole('textbox', { name: 'Duration (min)' }).fill('25');
    const session = await checkLink(page, serverUrl);
    expect(session.items[1]).toMatchObject({ title: 'Warm-up', duration: 25 });
    // The worker answered: one that failed would have been stopped and the page would have answered instead.
    expect(page.workers()).toHaveLength(1);
    // Live times follow: Warm-up now ends at 09:55, and the group after it starts there.
    await expect.poll(() => row(page, 'Details: Understand the problem').locator('.edit-time').first().innerText()).toBe('09:55–11:25');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForSelector('#app[data-state="plan"]');
    expect(await page.locator('[data-item-id="warmup"] .slot-time').first().innerText()).toMatch(/09:30.*09:55/s);
    // Leaving edit mode stops the worker.
    await expect.poll(() => page.workers().length).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Edit plan');
    // Back goes to the page before, not through the edits (replaceState only).
    await page.goBack();
    await expect.poll(() => addressBar(page)).toBe(`${serverUrl}/`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('without its worker (the bundle fails to load) the page checks drafts itself: same links, same marks', async () => {
    // The worker's bundle is asked for under a name the server does not have (the page's service worker, which keeps
    // the real bundle on the device, passes unknown names to the network): it fails to load as a missing file would.
    const page = await viewer.browser.context.newPage();
    await page.addInitScript(() => {
      const Native = Worker;
      window.Worker = class extends Native {
        constructor(_url: string | URL, options?: WorkerOptions) {
          super(new URL('/assets/planner-worker-gone.js', location.href), options);
        }
      };
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const opened = await editWorkshopPlan(page);
    const duration = row(page, 'Details: Warm-up').getByRole('textbox', { name: 'Duration (min)' });
    await duration.fill('-5');
    await expect.poll(() => duration.getAttribute('aria-invalid')).toBe('true');
    expect(await addressBar(page)).toBe(opened);
    await duration.fill('25');
    const session = await checkLink(page, serverUrl);
    expect(session.items[1]).toMatchObject({ title: 'Warm-up', duration: 25 });
    expect(page.workers()).toHaveLength(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an older document shows its problems in edit mode and keeps its link until they are resolved', async () => {
    const older = { workshop: { title: 'Retro', venue: 'Hall 2' }, items: [{ type: 'block', id: 'a', title: 'Check-in', duration: -5 }] };
    const page = await viewer.browser.context.newPage();
    await page.goto(`${serverUrl}/#data=v2:${LZString.compressToEncodedURIComponent(JSON.stringify(older))}`);
    await page.waitForSelector('#app[data-state="plan"]');
    const opened = await addressBar(page);
    await page.getByRole('button', { name: 'Edit plan' }).click();
    await page.waitForSelector('#app[data-state="editing"] .editor');
    const problems = page.getByRole('region', { name: '2 problems to fix' });
    // Each problem names its field as the editor labels it, in the page's words.
    await expect.poll(() => problems.innerText()).toMatch(/is not a field of a plan; remove it[\s\S]*Duration \(min\) of “Check-in”: at least 0 minutes/);
    const duration = page.getByRole('textbox', { name: 'Duration (min)' });
    expect(await duration.getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Remove field workshop.venue' }).click();
    expect(await addressBar(page)).toBe(opened);
    await duration.fill('5');
    const session = await checkLink(page, serverUrl);
    expect(session.workshop).toEqual({ title: 'Retro', description: '', date: null, startTime: null });
    expect(await addressBar(page)).not.toBe(opened);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
  it('a long link is written once typing pauses, and the status names the link in the address bar: it never says the bar holds the plan before it does', async () => {
    const response = await fetch(`${serverUrl}/api/session-links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: generatePlan({ seed: 3, items: 30 }) }) });
    const created = ((await response.json()) as { link: string }).link;
    const page = await viewer.browser.context.newPage();
    await page.goto(`${serverUrl}/${created.slice(created.indexOf('#'))}`);
    await page.waitForSelector('#app[data-state="plan"]');
    const opened = await page.evaluate(() => location.href);
    expect(opened.length).toBeGreaterThanOrEqual(LONG_LINK_CHARS);
    await page.getByRole('button', { name: 'Edit plan' }).click();
    await page.waitForSelector('#app[data-state="editing"] .editor');
    const status = page.locator('.edit-link');
    await expect.poll(() => status.innerText()).toContain('holds this plan');
    // Every text the status shows, with the address bar at that moment (a MutationObserver runs in the task that changed it).
    await page.evaluate(() => {
      const seen: { text: string; href: string }[] = [];
      (window as unknown as { statusSeen: typeof seen }).statusSeen = seen;
      const line = document.querySelector('.edit-link')!;
      new MutationObserver(() => seen.push({ text: line.textContent ?? '', href: location.href })).observe(line, { subtree: true, characterData: true, childList: true });
    });
    const title = page.locator('[data-control="title"]').first();
    await title.focus();
    await title.press('End');
    await title.pressSequentially('Quiz', { delay: 30 });
    // The link follows once typing pauses (LONG_LINK_PAUSE_MS), not per keystroke.
    await expect.poll(() => page.evaluate(() => location.href), { timeout: 10_000 }).not.toBe(opened);
    await expect.poll(() => status.innerText()).toContain('holds this plan');
    const seen = await page.evaluate(() => (window as unknown as { statusSeen: { text: string; href: string }[] }).statusSeen);
    expect(seen.length).toBeGreaterThan(0);
    for (const { text, href } of seen) {
      // The length shown is the address bar's link's, and "holds this plan" is said only once the typed title is in it.
      expect(Number(/Link: ([\d,]+)/.exec(text)?.[1]?.replaceAll(',', '')), text).toBe(href.length);
      if (text.includes('holds this plan')) expect(href).not.toBe(opened);
    }
    expect((await checkLink(page, serverUrl)).items[0].title).toMatch(/Quiz$/);
    await page.close();
  });
});
