// Pasting a spreadsheet into the planner, in real Chromium: main-thread CPU from the paste to the preview on screen
// (read, every row built, create's check of the plan it would make, the preview laid out), for a ~500-row table
// beside its peer in the same tabs, the viewer's open of the same plan.
// Run: npm run bench:table -- [--tabs N]
import { cpus, loadavg } from 'node:os';
import { createViewerLocale } from '../src/plan-view/i18n/locale.js';
import type { Plan } from '../src/plan-view/plan.js';
import { loadCodec } from '../src/codec/node.js';
import { createSessionOperations } from '../src/session/operations.js';
import { planTableRows } from '../src/viewer/export/table-csv.js';
import { generatePlan } from '../test/fixtures/plans.js';
import { launchChromium } from '../test/support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { markCpu as cpu, marksDuring, median, option, spread } from './trace.js';

const GOAL_MS = 200;
const tabs = option('tabs', 7);

ensureViewerBuilt();
const server = await startViewerServer();
const browser = await launchChromium();
try {
  // A spreadsheet of a whole day's ~500 items, as a spreadsheet's clipboard holds it (tab-separated).
  const plan = generatePlan({ seed: 7, items: 500, textPerItem: 200 });
  const rows = planTableRows(plan as unknown as Plan, createViewerLocale('en'), { notes: true });
  const text = rows.map((cells) => cells.map((cell) => cell.replace(/[\t\n\r]+/g, ' ')).join('\t')).join('\n');
  const codec = await loadCodec();
  const link = (await createSessionOperations(async () => codec, { baseUrl: `${server.url}/` }).createSessionLink(plan)).link;

  const preview: number[] = [];
  const view: number[] = [];
  for (let tab = 0; tab < tabs; tab += 1) {
    const page = await browser.context.newPage();
    const opened = await marksDuring(browser.context, page, async () => {
      await page.goto(`${server.url}/?lang=en${link.slice(link.indexOf('#'))}`);
      await page.waitForSelector('#app[data-state="plan"]');
    });
    view.push(cpu(opened, 'sessionplan:decode-start', 'sessionplan:render-end'));
    await page.getByRole('button', { name: 'Edit plan' }).click();
    await page.waitForSelector('#app[data-state="editing"]');
    await page.getByRole('button', { name: 'Import table' }).click();
    await page.waitForSelector('#table-paste');
    const marks = await marksDuring(browser.context, page, async () => {
      await page.evaluate((table) => {
        const area = document.querySelector<HTMLTextAreaElement>('#table-paste')!;
        const dialog = area.closest('dialog')!;
        // The preview is on screen once its table is in the DOM and laid out.
        const observer = new MutationObserver(() => {
          if (dialog.querySelector('.table-preview caption') === null) return;
          observer.disconnect();
          void dialog.offsetHeight;
          performance.mark('bench:preview-shown');
        });
        observer.observe(dialog, { childList: true, subtree: true });
        performance.mark('bench:paste');
        area.value = table;
        area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
      }, text);
      await page.waitForSelector('.table-preview caption');
    });
    preview.push(cpu(marks, 'bench:paste', 'bench:preview-shown'));
    const caption = await page.locator('.table-preview caption').innerText();
    if (tab === 0) console.log(`table: ${rows.length - 1} rows, ${text.length.toLocaleString('en-US')} characters; preview says "${caption}"`);
    await page.close();
  }
  console.log(`machine load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores; main-thread CPU, median (min–max) of ${tabs} fresh tabs`);
  console.log(`paste to preview on screen (goal ≤ ${GOAL_MS} ms): ${median(preview).toFixed(1)} ms (${spread(preview)})`);
  console.log(`peer, same tabs: the viewer opening the same plan ${median(view).toFixed(1)} ms (${spread(view)}); ratio ${(median(preview) / median(view)).toFixed(2)}×`);
} finally {
  await browser.close();
  await server.close();
}
