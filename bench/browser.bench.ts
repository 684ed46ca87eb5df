// Browser figures in real Chromium, side by side in one page: viewer decode + render of the largest in-budget plan, and
// the shipped WASM codec vs lz-string 1.5.0 (ratios). benny cannot run inside a page, so the page samples both itself.
// With --baseline <git ref>, the open is also measured against that ref's build (built in a temporary worktree, served
// by a second server), the two builds loaded alternately in one browser; and the calendar and agenda downloads are timed,
// with --baseline also on the other build, tab for tab.
// Run: npm run bench:browser -- [--baseline main] [--loads N] [--rounds N] [--save]  (--save also writes the baseline bench/results/browser.json)
import { cpus, loadavg } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';
import { loadCodec } from '../src/codec/node.js';
import { createSessionOperations } from '../src/session/operations.js';
import { launchChromium } from '../test/support/chromium.js';
import { callPageCodec, ensureViewerBuilt, servePageCodec, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import type { Timing } from '../test/support/page-codec.js';
import { buildBaseline, startServerFor, type BaselineBuild } from './browser-baseline.js';
import type { StartedServer } from '../src/server/start-server.js';
import { writeResults } from './results.js';
import { median, option, spread, textOption } from './stats.js';
import { markCpu, traceEvents, type TraceEvent } from './trace.js';

/** The page's goals: opening and the codec, opening within 10 % of the previous build, and exports within 20 ms. */
const GOALS = { openMs: 100, codecRatio: 8, openRatioToBaseline: 1.1, exportMs: 20 };
/** How long after the page's last mark the trace keeps recording the rendering that follows, in how many extra loads. */
const AFTER_MARKS_MS = 500;
const AFTER_MARKS_LOADS = 3;
/** Alternating loads per build in the A/B against --baseline. */
const abLoads = option('ab-loads', 9);
/** Fresh tabs per download kind and build, and downloads per tab (the first is cold, the rest warm). */
const EXPORT_TABS = 5;
const EXPORT_CLICKS = 5;
/**
 * Marks each click on the page as `bench:click` (capture phase, before the page's own handler, in the same task), so
 * the first download is also timed from the click: loading the export bundle included. Only the bench's tabs get it.
 */
const CLICK_MARK_SCRIPT = `addEventListener('click', () => performance.mark('bench:click'), { capture: true })`;

/**
 * Main-thread CPU time between the page's marks, from the trace's thread clock (`tts`): unlike wall time it does not
 * count time spent waiting for a core, which matters on a shared machine. It counts everything the main thread does in
 * between (JS, HTML parsing, style, layout, garbage collection), whichever task it runs in.
 */
async function traceMainThreadCpu(context: BrowserContext, page: Page, action: () => Promise<void>): Promise<{ firstScreen: number; wholePlan: number }> {
  const events = await traceEvents(context, page, 'blink.user_timing', action);
  const start = markOf(events, 'sessionplan:decode-start').tts;
  return {
    firstScreen: (markOf(events, 'sessionplan:first-screen').tts - start) / 1000,
    wholePlan: (markOf(events, 'sessionplan:render-end').tts - start) / 1000,
  };
}

/**
 * Style, layout and paint CPU in the frames of the half second after the page's last mark: it stays small only while
 * the marks leave no rendering work (such as content-visibility boxes near the viewport) for the first paint. Traced
 * in loads of its own: recording every layout event slows the page down, which must not show in the figures above.
 */
async function traceRenderingAfterMarks(context: BrowserContext, page: Page, action: () => Promise<void>): Promise<number> {
  const events = await traceEvents(context, page, 'blink.user_timing,devtools.timeline', async () => {
    await action();
    await page.waitForTimeout(AFTER_MARKS_MS);
  });
  const end = markOf(events, 'sessionplan:render-end').ts;
  const rendering = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint']);
  return events
    .filter((event) => event.ph === 'X' && rendering.has(event.name) && event.ts > end && event.ts < end + AFTER_MARKS_MS * 1000)
    .reduce((sum, event) => sum + (event.tdur ?? 0), 0) / 1000;
}


/**
 * All main-thread CPU of a page load up to the whole plan: the CPU time of every top-level task of the renderer's main
 * thread that started before the last mark (module evaluation, Intl set-up, codec instantiation, decode and render).
 * Traced in loads of its own, since recording every task costs a little in each.
 */
async function traceLoadCpu(context: BrowserContext, page: Page, action: () => Promise<void>): Promise<number> {
  const events = await traceEvents(context, page, 'blink.user_timing,toplevel', action);
  const end = events.find((event) => event.name === 'sessionplan:render-end' && event.ph === 'I');
  if (!end) throw new Error('the trace has no render-end mark');
  return events
    .filter((event) => event.ph === 'X' && event.cat === 'toplevel' && event.pid === end.pid && event.tid === end.tid && event.ts <= end.ts)
    .reduce((sum, event) => sum + (event.tdur ?? 0), 0) / 1000;
}

/** Main-thread CPU between each pair of `<name>-start` / `<name>-end` marks in the trace, in order. */
function markPairsCpu(events: readonly TraceEvent[], name: string): number[] {
  const starts = events.filter((event) => event.name === `${name}-start` && event.ph === 'I' && event.tts !== undefined);
  const ends = events.filter((event) => event.name === `${name}-end` && event.ph === 'I' && event.tts !== undefined);
  return starts.map((start, index) => (ends[index]!.tts! - start.tts!) / 1000);
}

function markOf(events: readonly TraceEvent[], name: string): { ts: number; tts: number } {
  const mark = events.find((event) => event.name === name && event.ph === 'I' && event.cat?.includes('blink.user_timing'));
  if (mark?.tts === undefined) throw new Error(`the trace has no thread time for the mark ${name}`);
  return { ts: mark.ts, tts: mark.tts };
}

const loads = option('loads', 7);
const baselineRef = textOption('baseline');
const rounds = option('rounds', 9);
const manifest = ensureViewerBuilt();
const operations = createSessionOperations(loadCodec, { baseUrl: 'http://127.0.0.1/' });
const plan = await largestInBudgetPlan((candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
const { link } = await operations.createSessionLink(plan);
const json = JSON.stringify((await operations.decodeSessionLink(link)).session);
const fragment = link.slice(link.indexOf('#'));

const server = await startViewerServer({ RATE_LIMIT: '1000' });
const browser = await launchChromium();
let baseline: { build: BaselineBuild; server: StartedServer } | undefined;
try {
  if (baselineRef !== undefined) {
    const build = buildBaseline(baselineRef);
    try {
      baseline = { build, server: await startServerFor(build.viewer, { RATE_LIMIT: '1000' }) };
    } catch (error) {
      build.remove();
      throw error;
    }
  }
  await servePageCodec(browser.context, server.url);
  const decode: number[] = [];
  const open: number[] = [];
  const firstScreen: number[] = [];
  const firstScreenCpu: number[] = [];
  const wholePlanCpu: number[] = [];
  const afterMarksCpu: number[] = [];
  const sinceNavigation: number[] = [];
  const openOn = (page: Page, on: StartedServer) => async (): Promise<void> => {
    await page.goto(`${on.url}/${fragment}`);
    await page.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
  };
  for (let load = 0; load < loads; load += 1) {
    const page = await browser.context.newPage();
    const cpu = await traceMainThreadCpu(browser.context, page, openOn(page, server));
    decode.push(await page.evaluate(`performance.getEntriesByName('sessionplan:decode')[0].duration`) as number);
    open.push(await page.evaluate(`performance.getEntriesByName('sessionplan:open')[0].duration`) as number);
    sinceNavigation.push(await page.evaluate(`performance.getEntriesByName('sessionplan:render-end')[0].startTime`) as number);
    firstScreen.push(await page.evaluate(`performance.getEntriesByName('sessionplan:first-screen')[0].duration`) as number);
    firstScreenCpu.push(cpu.firstScreen);
    wholePlanCpu.push(cpu.wholePlan);
    await page.close();
  }
  for (let load = 0; load < AFTER_MARKS_LOADS; load += 1) {
    const page = await browser.context.newPage();
    afterMarksCpu.push(await traceRenderingAfterMarks(browser.context, page, openOn(page, server)));
    await page.close();
  }

  // Side by side with the previous build: the same open, the two builds alternating (ABBA…) in one browser.
  const side: { label: string; server: StartedServer; wholePlanCpu: number[]; firstScreenCpu: number[]; open: number[]; toPlan: number[]; loadCpu: number[] }[] = [
    { label: 'this build', server, wholePlanCpu: [], firstScreenCpu: [], open: [], toPlan: [], loadCpu: [] },
  ];
  if (baseline) side.push({ label: baseline.build.label, server: baseline.server, wholePlanCpu: [], firstScreenCpu: [], open: [], toPlan: [], loadCpu: [] });
  if (baseline) {
    for (let load = 0; load < abLoads; load += 1) {
      for (const build of load % 2 === 0 ? side : [...side].reverse()) {
        const tab = await browser.context.newPage();
        const cpu = await traceMainThreadCpu(browser.context, tab, openOn(tab, build.server));
        build.wholePlanCpu.push(cpu.wholePlan);
        build.firstScreenCpu.push(cpu.firstScreen);
        build.open.push(await tab.evaluate(`performance.getEntriesByName('sessionplan:open')[0].duration`) as number);
        build.toPlan.push(await tab.evaluate(`performance.getEntriesByName('sessionplan:render-end')[0].startTime`) as number);
        await tab.close();
      }
    }
    for (let load = 0; load < AFTER_MARKS_LOADS + 2; load += 1) {
      for (const build of load % 2 === 0 ? side : [...side].reverse()) {
        const tab = await browser.context.newPage();
        build.loadCpu.push(await traceLoadCpu(browser.context, tab, openOn(tab, build.server)));
        await tab.close();
      }
    }
  }

  // The downloads of the largest plan: the first of a fresh tab (code and memory cold) and the repeats after it; with a
  // baseline, the same on the other build, the builds alternating tab by tab.
  type ExportFigures = { first: number[]; fromClick: number[]; again: number[]; firstWall: number[] };
  const exportsCpu = side.map((build) => ({
    label: build.label,
    server: build.server,
    calendar: { first: [], fromClick: [], again: [], firstWall: [] } as ExportFigures,
    agenda: { first: [], fromClick: [], again: [], firstWall: [] } as ExportFigures,
  }));
  const buttons = { calendar: 'Download calendar (.ics)', agenda: 'Download agenda (Markdown)' } as const;
  const chooseAction = async (tab: Page, name: string): Promise<void> => {
    await tab.locator('.toolbar .menu-button').click();
    await tab.getByRole('menuitem', { name, exact: true }).click();
  };
  for (let tabIndex = 0; tabIndex < EXPORT_TABS; tabIndex += 1) {
    for (const build of tabIndex % 2 === 0 ? exportsCpu : [...exportsCpu].reverse()) {
      for (const kind of ['calendar', 'agenda'] as const) {
        const tab = await browser.context.newPage();
        await tab.addInitScript(CLICK_MARK_SCRIPT);
        await openOn(tab, build.server)();
        const events = await traceEvents(browser.context, tab, 'blink.user_timing', async () => {
          for (let click = 0; click < EXPORT_CLICKS; click += 1) {
            const saved = tab.waitForEvent('download');
            await chooseAction(tab, buttons[kind]);
            await (await saved).path();
          }
        });
        const cpu = markPairsCpu(events, `sessionplan:${kind}`);
        build[kind].first.push(cpu[0]!);
        build[kind].again.push(...cpu.slice(1));
        // From the click: the first download, bundle load included.
        build[kind].fromClick.push(markCpu(events, 'bench:click', `sessionplan:${kind}-end`));
        build[kind].firstWall.push(await tab.evaluate(`performance.getEntriesByName('sessionplan:${kind}')[0].duration`) as number);
        await tab.close();
      }
    }
  }
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/`);
  const timing = await page.evaluate(callPageCodec('timeCodecs', `/assets/${manifest.assets.wasm}`, json, rounds)) as Timing;
  await page.close();

  const figures = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, browser: browser.context.browser()?.version() ?? 'chromium' },
    date: new Date().toISOString(),
    plan: { jsonChars: json.length, payloadChars: link.length - link.indexOf('v2:') - 3 },
    // Every sample in ms (main-thread CPU where the name says so); the medians are printed below.
    viewer: { loads, decode, open, firstScreen, firstScreenCpu, wholePlanCpu, afterMarksCpu, sinceNavigation, goalMs: GOALS.openMs, loadAverage: loadavg() },
    baseline: baseline === undefined ? null : { loadsPerBuild: abLoads, builds: side.map(({ server: _, ...build }) => build), goalRatio: GOALS.openRatioToBaseline },
    exports: { tabs: EXPORT_TABS, clicksPerTab: EXPORT_CLICKS, builds: exportsCpu.map(({ server: _, ...build }) => build), goalMs: GOALS.exportMs },
    codec: {
      rounds,
      ms: timing,
      compressRatio: timing.lzCompress / timing.wasmCompress,
      decompressRatio: timing.lzDecompress / timing.wasmDecompress,
      goalRatio: GOALS.codecRatio,
    },
  };
  console.log(`saved ${writeResults('browser.json', figures).join(' and ')}`);
  console.log(`plan: ${figures.plan.jsonChars} chars JSON → ${figures.plan.payloadChars} chars payload`);
  console.log(`machine load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores (wall times include waiting for the CPU)`);
  console.log(`viewer, median of ${loads} loads (goal: decode + render < ${GOALS.openMs} ms):`);
  console.log(`  decode + first screen: ${median(firstScreen).toFixed(1)} ms wall, ${median(firstScreenCpu).toFixed(1)} ms main-thread CPU (decode ${median(decode).toFixed(1)} ms wall)`);
  console.log(`  decode + whole plan rendered: ${median(open).toFixed(1)} ms wall, ${median(wholePlanCpu).toFixed(1)} ms main-thread CPU; whole plan on screen ${median(sinceNavigation).toFixed(0)} ms after navigation`);
  console.log(`  style, layout and paint in the ${AFTER_MARKS_MS} ms after the marks (first paint included): ${median(afterMarksCpu).toFixed(1)} ms main-thread CPU (median of ${AFTER_MARKS_LOADS} more loads)`);
  if (baseline) {
    const [mine, theirs] = side as [typeof side[0], typeof side[0]];
    console.log(`side by side, ${abLoads} alternating loads per build (median, spread min–max; goal: this build ≤ ${GOALS.openRatioToBaseline}× the other's whole-plan CPU):`);
    for (const build of [mine, theirs]) {
      console.log(`  ${build.label.padEnd(22)} decode + whole plan ${median(build.wholePlanCpu).toFixed(1)} ms main-thread CPU (${spread(build.wholePlanCpu)}), first screen ${median(build.firstScreenCpu).toFixed(1)} ms CPU, `
        + `${median(build.open).toFixed(1)} ms wall; navigation to the whole plan ${median(build.toPlan).toFixed(0)} ms wall (${spread(build.toPlan)}); `
        + `whole load to the plan ${median(build.loadCpu).toFixed(1)} ms main-thread CPU (${spread(build.loadCpu)}, ${build.loadCpu.length} loads)`);
    }
    console.log(`  ratio (this build / ${theirs.label}): whole plan CPU ${(median(mine.wholePlanCpu) / median(theirs.wholePlanCpu)).toFixed(3)}×, whole load CPU ${(median(mine.loadCpu) / median(theirs.loadCpu)).toFixed(3)}×`);
  }
  console.log(`downloads of the largest plan, ${EXPORT_TABS} fresh tabs per build and kind, ${EXPORT_CLICKS} downloads each (median, spread min–max; goal: the making ≤ ${GOALS.exportMs} ms):`);
  for (const kind of ['calendar', 'agenda'] as const) {
    for (const build of exportsCpu) {
      const figure = build[kind];
      console.log(`  ${kind === 'calendar' ? '.ics' : 'Markdown'}, ${build.label.padEnd(22)} first download of a tab: making ${median(figure.first).toFixed(1)} ms main-thread CPU (${spread(figure.first)}; wall ${spread(figure.firstWall)} ms), `
        + `from the click (export bundle loaded) ${median(figure.fromClick).toFixed(1)} ms (${spread(figure.fromClick)}); again ${median(figure.again).toFixed(1)} ms (${spread(figure.again)}, ${figure.again.length} downloads)`);
    }
    if (exportsCpu.length === 2) {
      const [mine, theirs] = exportsCpu;
      console.log(`  ${kind === 'calendar' ? '.ics' : 'Markdown'} ratio (this build / ${theirs!.label}): first download making ${(median(mine![kind].first) / median(theirs![kind].first)).toFixed(3)}×, from the click ${(median(mine![kind].fromClick) / median(theirs![kind].fromClick)).toFixed(3)}×`);
    }
  }
  console.log(`in-page compress:   wasm ${timing.wasmCompress.toFixed(2)} ms, lz-string ${timing.lzCompress.toFixed(2)} ms → ${figures.codec.compressRatio.toFixed(1)}×`);
  console.log(`in-page decompress: wasm ${timing.wasmDecompress.toFixed(2)} ms, lz-string ${timing.lzDecompress.toFixed(2)} ms → ${figures.codec.decompressRatio.toFixed(1)}×  (goal ≥ ${GOALS.codecRatio}×)`);
} finally {
  await browser.close();
  await server.close();
  await baseline?.server.close();
  baseline?.build.remove();
}
