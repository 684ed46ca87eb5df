// Planner figures in real Chromium, side by side with the read-only view in one run: entering edit mode, and a field edit to
// the new link in the address bar, on a 50-item plan and on the largest in-budget plan (main-thread CPU from the trace).
// Run: npm run bench:planner -- [--loads N] [--edits N]   (under `flock /work/locks/cpu.lock` on a shared machine)
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { loadCodec } from '../src/codec/node.js';
import { countItems, type Item } from '../src/planner/tree.js';
import { createSessionOperations } from '../src/session/operations.js';
import { generatePlan } from '../test/fixtures/plans.js';
import { launchChromium } from '../test/support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import { marksDuring, option, type TraceEvent } from './trace.js';

/** Issue 30's targets, main-thread CPU in ms. */
const GOALS = { editFifty: 16, editLargest: 50, enterLargest: 200 };

/** CPU ms between the n-th mark `from` and the n-th mark `to`. */
function cpuBetween(marks: readonly TraceEvent[], from: string, to: string, nth = 0): number {
  const start = marks.filter((mark) => mark.name === from)[nth];
  const end = marks.filter((mark) => mark.name === to)[nth];
  if (start?.tts === undefined || end?.tts === undefined) throw new Error(`no marks ${from} → ${to} (#${nth}) in the trace`);
  return (end.tts - start.tts) / 1000;
}

function spread(values: readonly number[]): { median: number; min: number; max: number; all: number[] } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]!, all: [...values] };
}

const show = (s: { median: number; min: number; max: number }): string => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;

/**
 * Keystrokes in the first item's title, in the page (a string: code compiled by tsx cannot be sent as a function). The
 * edit is done when its link is in the address bar and its rows are rendered and laid out, whichever comes last (a
 * long link is written once typing pauses: mount.tsx LONG_LINK_PAUSE_MS; the pause is idle time, not CPU).
 */
const TYPE_IN_FIRST_TITLE = (count: number): string => `(async () => {
  const input = document.querySelector('[data-control="title"]');
  input.focus();
  const written = () => performance.getEntriesByName('sessionplan:link-written').length;
  for (let i = 0; i < ${count}; i++) {
    const before = written();
    performance.mark('bench:edit-start');
    input.value = input.value.slice(0, 40) + String.fromCharCode(97 + (i % 26));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    while (written() === before) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 0));
    void document.body.offsetHeight;
    performance.mark('bench:edit-done');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})()`;

const loads = option('loads', 5);
const edits = option('edits', 6);
ensureViewerBuilt();
const operations = createSessionOperations(loadCodec, { baseUrl: 'http://127.0.0.1/' });
const largest = await largestInBudgetPlan((candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
/** The first generated plan with 50 items in its whole tree (containers and children count). */
let fifty = generatePlan({ seed: 3, items: 1 });
for (let top = 1; countItems(fifty.items as Item[]) < 50; top++) fifty = generatePlan({ seed: 3, items: top });

const server = await startViewerServer({ RATE_LIMIT: '1000' });
const browser = await launchChromium();
try {
  const results: Record<string, unknown> = {};
  for (const [name, plan] of [['fifty', fifty], ['largest', largest]] as const) {
    const { link } = await operations.createSessionLink(plan);
    const fragment = link.slice(link.indexOf('#'));
    const view: number[] = [];
    const enter: number[] = [];
    const edit: number[] = [];
    for (let load = 0; load < loads; load++) {
      // The peer: the read-only view opening the same link (decode + whole plan rendered and laid out).
      const viewer = await browser.context.newPage();
      const viewMarks = await marksDuring(browser.context, viewer, async () => {
        await viewer.goto(`${server.url}/${fragment}`);
        await viewer.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
      });
      view.push(cpuBetween(viewMarks, 'sessionplan:decode-start', 'sessionplan:render-end'));
      await viewer.close();

      // Edit mode on the same link, from the "Edit plan" click to the editor built and laid out (its bundle and styles
      // loaded on demand and compiled included); then keystrokes in the first item's title.
      const editor = await browser.context.newPage();
      await editor.goto(`${server.url}/${fragment}`);
      await editor.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
      const enterMarks = await marksDuring(browser.context, editor, async () => {
        await editor.getByRole('button', { name: 'Edit plan' }).click();
        await editor.waitForSelector('#app[data-state="editing"] .editor', { timeout: 60_000 });
      });
      enter.push(cpuBetween(enterMarks, 'sessionplan:edit-start', 'sessionplan:edit-ready'));
      const editMarks = await marksDuring(browser.context, editor, () => editor.evaluate(TYPE_IN_FIRST_TITLE(edits)));
      for (let i = 0; i < edits; i++) edit.push(cpuBetween(editMarks, 'bench:edit-start', 'bench:edit-done', i));
      await editor.close();
    }
    results[name] = { items: countItems(plan.items as Item[]), jsonChars: JSON.stringify(plan).length, linkChars: link.length, view: spread(view), enter: spread(enter), edit: spread(edit) };
  }

  const figures = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, browser: browser.context.browser()?.version() ?? 'chromium', loadAverage: loadavg() },
    date: new Date().toISOString(),
    loads,
    edits,
    goals: GOALS,
    results,
  };
  const out = new URL('results/local/', import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(new URL('planner.json', out), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`machine load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores; main-thread CPU from the trace, median (min–max)`);
  for (const [name, result] of Object.entries(results) as [string, { items: number; jsonChars: number; linkChars: number; view: ReturnType<typeof spread>; enter: ReturnType<typeof spread>; edit: ReturnType<typeof spread> }][]) {
    const editGoal = name === 'fifty' ? GOALS.editFifty : GOALS.editLargest;
    console.log(`${name}: ${result.items} items, ${result.jsonChars} chars JSON, link ${result.linkChars} chars (${loads} loads, ${edits} edits each)`);
    console.log(`  read-only view, decode + whole plan: ${show(result.view)}`);
    console.log(`  entering edit mode:                 ${show(result.enter)}  = ${(result.enter.median / result.view.median).toFixed(2)}× the view${name === 'largest' ? ` (goal ≤ ${GOALS.enterLargest} ms)` : ''}`);
    console.log(`  field edit → link in address bar:   ${show(result.edit)}  = ${(result.edit.median / result.view.median).toFixed(2)}× the view (goal ≤ ${editGoal} ms)`);
  }
} finally {
  await browser.close();
  await server.close();
}
