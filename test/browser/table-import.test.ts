// Spreadsheets in and out in real Chromium: "Download CSV" saves a file Papa Parse reads back (BOM, the language's
// separator, umlauts); "Import table" takes a table pasted with the keyboard from the clipboard or a CSV file, shows
// the rows and every problem before anything changes, replaces the agenda as one undoable step, and refuses a formula
// and a file that is not UTF-8 without changing the plan. German and English, axe-clean, at 1280 and 390 px.
import { readFileSync, writeFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addressBar, documentInAddressBar, editMenuItem, row } from '../support/planner-steps.js';
import { useEnglishAndGermanPages } from '../support/viewer-harness.js';
import { germanWorkshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, menuItem, onServer, seriousAxeViolations } from '../support/viewer-visit.js';

const { english, german } = useEnglishAndGermanPages();

const SHEET = [
  ['Uhrzeit', 'Thema', 'Dauer (Min.)', 'Wer', 'Art', 'Raum'],
  ['9:00', 'Begrüßung', '30', 'Jana Größer', 'Impuls', 'Saal'],
  ['9:30', 'Input Strategie', '45', 'Timo Weiß und Özlem Yılmaz', 'Impuls', 'Saal'],
  ['10:15', 'Kaffeepause', '15', '', 'Pause', 'Foyer'],
  ['11:00', 'Übung in Gruppen', '1:30', 'Jana Größer', 'Übung', 'Raum 2'],
];

async function openEditor(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name }).click();
  await page.waitForSelector('#app[data-state="editing"]');
}

describe('spreadsheets in and out', () => {
  it('downloads the plan as CSV and imports a table pasted from the clipboard, undoably (German)', async () => {
    const { browser, server } = german();
    const link = await createLink(server.url, germanWorkshopPlan());
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(onServer(server.url, link));
    await page.waitForSelector('#app[data-state="plan"]');

    const [file] = await Promise.all([page.waitForEvent('download'), (await menuItem(page, 'CSV herunterladen')).click()]);
    expect(file.suggestedFilename()).toBe('strategietag-team-sued.csv');
    const path = `${ARTIFACTS}table-de.csv`;
    await file.saveAs(path);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = Papa.parse<string[]>(bytes.toString('utf8').slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Startzeit', 'Titel', 'Dauer (Min.)', 'Beschreibung', 'Material', 'Personen', 'Kategorie', 'Breakout']);
    expect(rows.map((cells) => cells[1])).toContain('↳ ↳ Was lernen wir?');
    expect(rows.find((cells) => cells[1] === 'Ankommen & Check-in')).toEqual(['09:00', 'Ankommen & Check-in', '20', 'Kaffee, Namensschilder, eine Runde „Wie geht’s?“', 'Namensschilder, Stifte', 'Jana Größer', 'Impuls', '']);

    await openEditor(page, 'Plan bearbeiten');
    const before = await addressBar(page);
    // From the keyboard: the button, Enter; the table from a spreadsheet on the clipboard, Ctrl+V.
    await page.locator('.edit-toolbar .menu-button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Gruppe hinzufügen');
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Tabelle importieren');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Tabelle importieren' });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.evaluate((text) => navigator.clipboard.writeText(text), SHEET.map((cells) => cells.join('\t')).join('\n'));
    await dialog.getByRole('textbox', { name: /^Tabelle hier einfügen/ }).focus();
    await page.keyboard.press('Control+V');
    const table = dialog.getByRole('table', { name: '4 Einträge aus der Tabelle' });
    await expect.poll(() => table.locator('tbody tr').allInnerTexts()).toEqual([
      '2\t09:00–09:30\tBegrüßung\t30 Min.',
      '3\t09:30–10:15\tInput Strategie\t45 Min.',
      '4\t10:15–10:30\tKaffeepause\t15 Min.',
      '5\t11:00–12:30\tÜbung in Gruppen\t1 Std. 30 Min.',
    ]);
    expect(await dialog.innerText()).toContain('Erkannte Spalten: Uhrzeit, Thema, Dauer (Min.), Wer, Art. Nicht übernommen: Raum.');
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${ARTIFACTS}table-import-de-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // Nothing changed yet.
    expect(await addressBar(page)).toBe(before);

    await dialog.getByRole('button', { name: 'Ablauf durch 4 Einträge ersetzen' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(async () => (await documentInAddressBar(page)).session.items.map((item: { title: string }) => item.title)).toEqual(['Begrüßung', 'Input Strategie', 'Kaffeepause', 'Übung in Gruppen']);
    const { session } = await documentInAddressBar(page);
    expect(session.persons.map((person: { name: string }) => person.name)).toEqual(['Jana Größer', 'Özlem Yılmaz', 'Timo Weiß']);
    expect(session.items[3]).toMatchObject({ duration: 90, fixedStartTime: '11:00', blockTypeId: 'uebung', personIds: ['jana'] });
    expect(await page.locator('.edit-message').innerText()).toContain('4 Einträge aus der eingefügten Tabelle übernommen.');
    // One step back: the agenda as it was.
    await page.getByRole('button', { name: 'Rückgängig' }).click();
    await expect.poll(() => row(page, 'Details: Ankommen & Check-in').count()).toBe(1);
    expect(await row(page, 'Details: Begrüßung').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads the downloaded CSV file back as the same agenda, and refuses a formula and a file that is not UTF-8 (English)', async () => {
    const { browser, server } = english();
    const link = await createLink(server.url, germanWorkshopPlan());
    const page = await browser.context.newPage();
    await page.goto(onServer(server.url, link, '?lang=en'));
    await page.waitForSelector('#app[data-state="plan"]');
    const [file] = await Promise.all([page.waitForEvent('download'), (await menuItem(page, 'Download CSV')).click()]);
    const path = `${ARTIFACTS}table-en.csv`;
    await file.saveAs(path);
    expect(readFileSync(path, 'utf8').split('\r\n')[0]).toBe('\uFEFFStart time,Title,Duration (min),Description,Material,People,Category,Breakout');

    await openEditor(page, 'Edit plan');
    const { session: original } = await documentInAddressBar(page);
    await (await editMenuItem(page, 'Import table')).click();
    const dialog = page.getByRole('dialog', { name: 'Import a table' });
    const apply = dialog.getByRole('button', { name: /^Replace the agenda/ });

    // A formula: named at its row and column, nothing to apply.
    await dialog.getByRole('textbox', { name: /^Paste a table here/ }).fill('Title,Duration,Description\nIntro,10,"=HYPERLINK(""https://example.org"",""x"")"');
    await expect.poll(() => dialog.getByRole('status').innerText()).toContain('Row 2, Description: “=HYPERLINK("https://example.org","x")” is a formula.');
    expect(await apply.isDisabled()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: /^Paste a table here/ }).getAttribute('aria-invalid')).toBe('true');

    // A Windows-1252 file: refused whole.
    const latin = `${ARTIFACTS}table-latin1.csv`;
    writeFileSync(latin, Buffer.from('Titel;Dauer\nBegr\xfc\xdfung;10\n', 'latin1'));
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Open CSV file' }).click();
    await (await chooser).setFiles(latin);
    await expect.poll(() => dialog.getByRole('status').innerText()).toContain('The file is not UTF-8 text.');
    expect(await apply.isDisabled()).toBe(true);

    // The download itself: the same agenda.
    const again = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Open CSV file' }).click();
    await (await again).setFiles(path);
    await expect.poll(() => apply.isDisabled()).toBe(false);
    await apply.click();
    await expect.poll(() => page.locator('.edit-message').innerText()).toContain('imported from table-en.csv');
    const { session } = await documentInAddressBar(page);
    const shape = (items: { type: string; title: string; duration: number; fixedStartTime: string | null; children?: unknown[] }[]): unknown[] =>
      items.map((item) => [item.type, item.title, item.duration, item.fixedStartTime, item.children ? shape(item.children as never) : null]);
    expect(shape(session.items)).toEqual(shape(original.items));
    await page.close();
  });
});
