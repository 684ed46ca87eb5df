// Planner figures in real Chromium, side by side with the read-only view in one run: entering edit mode, and a field edit to
// the new link in the address bar, on a 50-item plan and on the largest in-budget plan; and a ~500-row table pasted into
// "Import table" until its preview is on screen (main-thread CPU from the trace).
// With --baseline <git ref>, that ref's build (built in a temporary worktree, served by a second server) is measured the
// same way, the two builds loaded alternately in one browser.
// Run: npm run bench:planner -- [--loads N] [--edits N] [--baseline main]   (under `flock /work/locks/cpu.lock` on a shared machine)
import { cpus, loadavg } from 'node:os';
import { loadCodec } from '../src/codec/node.js';
import { countItems, type Item } from '../src/planner/tree.js';
import { createSessionOperations } from '../src/session/operations.js';
import type { StartedServer } from '../src/server/start-server.js';
import { generatePlan } from '../test/fixtures/plans.js';
import { launchChromium } from '../test/support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import { buildBaseline, startServerFor, type BaselineBuild } from './browser-baseline.js';
import { PASTE_TABLE, TYPE_IN_FIRST_TITLE } from './planner-typing.js';
import { createViewerLocale } from '../src/plan-view/i18n/locale.js';
import type { Plan } from '../src/plan-view/plan.js';
import { planTableRows } from '../src/viewer/export/table-csv.js';
import { writeResults } from './results.js';
import { option, textOption } from './stats.js';
import { marksDuring, traceEvents, type TraceEvent } from './trace.js';

/** The planner's goals, main-thread CPU in ms (docs/benchmarks.md, "Planner"). */
const GOALS = { editFifty: 16, editLargest: 50, enterLargest: 200, pasteTable: 200 };

/** CPU ms between the n-th mark `from` and the n-th mark `to`. */
function cpuBetween(marks: readonly TraceEvent[], from: string, to: string, nth = 0): number {
  const start = marks.filter((mark) => mark.name === from)[nth];
  const end = marks.filter((mark) => mark.name === to)[nth];
  if (start?.tts === undefined || end?.tts === undefined) throw new Error(`no marks ${from} → ${to} (#${nth}) in the trace`);
  return (end.tts - start.tts) / 1000;
}

/**
 * CPU ms of the page's process's other threads in the n-th `from` → `to` window: compositor and IO threads on either
 * build, and the planner's worker where there is one. Reported beside the main-thread figure (the goal) so that the work
 * moved off the main thread stays visible: the worker's share is the difference to a build without it.
 */
function otherThreadsBetween(events: readonly TraceEvent[], marks: readonly TraceEvent[], from: string, to: string, nth: number): number {
  const start = marks.filter((mark) => mark.name === from)[nth]!;
  const end = marks.filter((mark) => mark.name === to)[nth]!;
  let us = 0;
  for (const event of events) {
    if (event.ph !== 'X' || event.tdur === undefined || event.pid !== start.pid || event.tid === start.tid) continue;
    if (event.name !== 'ThreadControllerImpl::RunTask' && event.name !== 'RunTask') continue;
    if (event.ts >= start.ts && event.ts <= end.ts) us += event.tdur;
  }
  return us / 1000;
}

function spread(values: readonly number[]): { median: number; min: number; max: number; all: number[] } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]!, all: [...values] };
}

const show = (s: { median: number; min: number; max: number }): string => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;


const loads = option('loads', 5);
const edits = option('edits', 6);
const baselineRef = textOption('baseline');
ensureViewerBuilt();
const operations = createSessionOperations(loadCodec, { baseUrl: 'http://127.0.0.1/' });
const largest = await largestInBudgetPlan((candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
/** The first generated plan with 50 items in its whole tree (containers and children count). */
let fifty = generatePlan({ seed: 3, items: 1 });
for (let top = 1; countItems(fifty.items as Item[]) < 50; top++) fifty = generatePlan({ seed: 3, items: top });
/** A whole day's ~500 items as a spreadsheet's clipboard holds them (tab-separated, one line a row). */
const tableRows = planTableRows(generatePlan({ seed: 7, items: 500, textPerItem: 200 }) as unknown as Plan, createViewerLocale('en'), { notes: true });
const table = tableRows.map((cells) => cells.map((cell) => cell.replace(/[\t\n\r]+/g, ' ')).join('\t')).join('\n');

interface Side {
  readonly label: string;
  readonly server: StartedServer;
  readonly view: number[];
  readonly enter: number[];
  readonly edit: number[];
  /** CPU of the page's other threads (compositor, IO, the worker) in the same edits. */
  readonly editElsewhere: number[];
  /** The table pasted until its preview is on screen (a build with "Import table"). */
  readonly paste: number[];
}

const server = await startViewerServer({ RATE_LIMIT: '1000' });
const browser = await launchChromium();
let baseline: BaselineBuild | undefined;
let baselineServer: StartedServer | undefined;
try {
  if (baselineRef !== undefined) {
    baseline = buildBaseline(baselineRef);
    baselineServer = await startServerFor(baseline.viewer, { RATE_LIMIT: '1000' });
  }
  const results: Record<string, { items: number; jsonChars: number; linkChars: number; builds: Record<string, { view: ReturnType<typeof spread>; enter: ReturnType<typeof spread>; edit: ReturnType<typeof spread>; editElsewhere: ReturnType<typeof spread>; paste: ReturnType<typeof spread> | null }> }> = {};
  for (const [name, plan] of [['fifty', fifty], ['largest', largest]] as const) {
    const { link } = await operations.createSessionLink(plan);
    const fragment = link.slice(link.indexOf('#'));
    const sides: Side[] = [{ label: 'this build', server, view: [], enter: [], edit: [], editElsewhere: [], paste: [] }];
    if (baseline && baselineServer) sides.push({ label: baseline.label, server: baselineServer, view: [], enter: [], edit: [], editElsewhere: [], paste: [] });
    for (let load = 0; load < loads; load++) {
      // ABBA: neither build always goes first on a machine whose load drifts.
      for (const side of load % 2 === 0 ? sides : [...sides].reverse()) {
        // The peer: the read-only view opening the same link (decode + whole plan rendered and laid out).
        const viewer = await browser.context.newPage();
        const viewMarks = await marksDuring(browser.context, viewer, async () => {
          await viewer.goto(`${side.server.url}/${fragment}`);
          await viewer.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
        });
        side.view.push(cpuBetween(viewMarks, 'sessionplan:decode-start', 'sessionplan:render-end'));
        await viewer.close();

        // Edit mode on the same link, from the "Edit plan" click to the editor built and laid out (its bundle and styles
        // loaded on demand and compiled included); then keystrokes in the first item's title.
        const editor = await browser.context.newPage();
        await editor.goto(`${side.server.url}/${fragment}`);
        await editor.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
        const enterMarks = await marksDuring(browser.context, editor, async () => {
          await editor.getByRole('button', { name: 'Edit plan' }).click();
          await editor.waitForSelector('#app[data-state="editing"] .editor', { timeout: 60_000 });
        });
        side.enter.push(cpuBetween(enterMarks, 'sessionplan:edit-start', 'sessionplan:edit-ready'));
        // 'toplevel' adds each task's thread CPU, so the worker's share can be shown beside the main thread's.
        const editEvents = await traceEvents(browser.context, editor, 'blink.user_timing,toplevel', () => editor.evaluate(TYPE_IN_FIRST_TITLE(edits)));
        const editMarks = editEvents.filter((event) => event.ph === 'I' && event.cat?.includes('blink.user_timing'));
        for (let i = 0; i < edits; i++) {
          side.edit.push(cpuBetween(editMarks, 'bench:edit-start', 'bench:edit-done', i));
          side.editElsewhere.push(otherThreadsBetween(editEvents, editMarks, 'bench:edit-start', 'bench:edit-done', i));
        }
        const more = editor.locator('.edit-toolbar .menu-button');
        if (name === 'fifty' && await more.count() === 1) {
          await more.click();
          await editor.getByRole('menuitem', { name: 'Import table' }).click();
          let caption = '';
          const pasteMarks = await marksDuring(browser.context, editor, async () => { caption = await editor.evaluate(PASTE_TABLE(table)) as string; });
          if (!caption.startsWith(`${tableRows.length - 1} items`)) throw new Error(`the preview says "${caption}"`);
          side.paste.push(cpuBetween(pasteMarks, 'bench:paste', 'bench:preview-shown'));
        }
        await editor.close();
      }
    }
    const builds = Object.fromEntries(sides.map((side) => [side.label, { view: spread(side.view), enter: spread(side.enter), edit: spread(side.edit), editElsewhere: spread(side.editElsewhere), paste: side.paste.length > 0 ? spread(side.paste) : null }]));
    results[name] = { items: countItems(plan.items as Item[]), jsonChars: JSON.stringify(plan).length, linkChars: link.length, builds };
  }

  const figures = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, browser: browser.context.browser()?.version() ?? 'chromium', loadAverage: loadavg() },
    date: new Date().toISOString(),
    loads,
    edits,
    goals: GOALS,
    results,
  };
  writeResults('planner.json', figures, { save: false });
  console.log(`machine load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores; main-thread CPU from the trace, median (min–max)`);
  for (const [name, result] of Object.entries(results)) {
    const editGoal = name === 'fifty' ? GOALS.editFifty : GOALS.editLargest;
    console.log(`${name}: ${result.items} items, ${result.jsonChars} chars JSON, link ${result.linkChars} chars (${loads} loads, ${edits} edits each)`);
    for (const [label, build] of Object.entries(result.builds)) {
      if (baseline) console.log(`  ${label}:`);
      console.log(`  read-only view, decode + whole plan: ${show(build.view)}`);
      console.log(`  entering edit mode:                 ${show(build.enter)}  = ${(build.enter.median / build.view.median).toFixed(2)}× the view${name === 'largest' ? ` (goal ≤ ${GOALS.enterLargest} ms)` : ''}`);
      console.log(`  field edit → link in address bar:   ${show(build.edit)}  = ${(build.edit.median / build.view.median).toFixed(2)}× the view (goal ≤ ${editGoal} ms)`);
      console.log(`    + other threads of the page (compositor, IO; the worker where there is one): ${show(build.editElsewhere)}`);
      if (build.paste) console.log(`  a ${tableRows.length - 1}-row table (${table.length} chars) pasted → preview on screen: ${show(build.paste)}  = ${(build.paste.median / build.view.median).toFixed(2)}× the view (goal ≤ ${GOALS.pasteTable} ms)`);
    }
    const [mine, theirs] = Object.values(result.builds);
    if (baseline && mine && theirs) {
      const ratio = (key: 'view' | 'enter' | 'edit') => (mine[key].median / theirs[key].median).toFixed(2);
      console.log(`  this build / ${baseline.label}: view ${ratio('view')}×, entering edit mode ${ratio('enter')}×, field edit ${ratio('edit')}×`);
    }
  }
} finally {
  await browser.close();
  await server.close();
  await baselineServer?.close();
  baseline?.remove();
}
