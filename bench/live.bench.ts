// The live view's figures in real Chromium on the largest in-budget plan, dated today so an item runs: main-thread CPU
// to open Live (the mount, and from the click with its bundle loaded) beside its peer in the same tab, the viewer's
// open of the same plan; what a clock tick costs once a second; and how soon the projector window shows a press of the
// presenter's +5 or Back, beside how soon the presenter's own screen does.
// Run: npm run bench:live -- [--tabs N] [--ticks N] [--presses N]
import { cpus, loadavg } from 'node:os';
import { loadCodec } from '../src/codec/node.js';
import { createSessionOperations } from '../src/session/operations.js';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import { median, option, quantile, spread as spreadOf } from './stats.js';
import { markCpu, traceEvents } from './trace.js';

const spread = (values: number[]): string => spreadOf(values, 2);

const GOALS = { openMs: 50, tickMs: 2, followP95Ms: 100 };
const tabs = option('tabs', 5);
const ticks = option('ticks', 20);
const presses = option('presses', 40);
const CLICK_MARK_SCRIPT = `addEventListener('click', () => performance.mark('bench:click'), { capture: true })`;

const p95 = (values: number[]): number => quantile(values, 0.95);
/**
 * Records, in the page, the wall time of every change under `selector` (MutationObserver), on the clock every window
 * of this browser shares (timeOrigin + now), so one window's click and another's change can be subtracted.
 */
const OBSERVE_SCRIPT = ([selector, options]: [string, MutationObserverInit]): void => {
  const times: number[] = [];
  (globalThis as unknown as { benchChanges: number[] }).benchChanges = times;
  new MutationObserver(() => times.push(performance.timeOrigin + performance.now())).observe(document.querySelector(selector)!, options);
};
const changesOf = (page: Page): Promise<number[]> => page.evaluate(() => (globalThis as unknown as { benchChanges: number[] }).benchChanges);

ensureViewerBuilt();
const server = await startViewerServer();
const browser = await launchChromium();
try {
  const codec = await loadCodec();
  const operations = createSessionOperations(async () => codec, { baseUrl: `${server.url}/` });
  const accepts = async (plan: Record<string, unknown>) => (await operations.createSessionLink(plan).then(() => true, () => false));
  const source = await largestInBudgetPlan(accepts);
  // Dated today, starting an hour ago (the browser runs in UTC): the first screen of Live has a running item.
  const now = new Date();
  const start = new Date(now.getTime() - 60 * 60_000);
  const workshop = { ...(source['workshop'] as object), date: now.toISOString().slice(0, 10), startTime: start.toISOString().slice(11, 16) };
  const created = await operations.createSessionLink({ ...source, workshop });
  const link = `${server.url}/${created.link.slice(created.link.indexOf('#'))}`;

  const view: number[] = [];
  const open: number[] = [];
  const fromClick: number[] = [];
  const tickCpu: number[] = [];
  const projectorFollow: number[] = [];
  const presenterFollow: number[] = [];
  for (let tab = 0; tab < tabs; tab += 1) {
    const page = await browser.context.newPage();
    await page.addInitScript(CLICK_MARK_SCRIPT);
    const loading = await traceEvents(browser.context, page, 'blink.user_timing', async () => {
      await page.goto(link);
      await page.waitForSelector('#app[data-state="plan"]');
    });
    view.push(markCpu(loading, 'sessionplan:decode-start', 'sessionplan:render-end'));
    await page.evaluate(() => localStorage.clear());
    await page.locator('.toolbar .menu-button').click();
    const events = await traceEvents(browser.context, page, 'blink.user_timing', async () => {
      await page.getByRole('menuitem', { name: 'Live', exact: true }).click();
      await page.waitForSelector('.live-main > section');
    });
    open.push(markCpu(events, 'sessionplan:live-start', 'sessionplan:live-ready'));
    fromClick.push(markCpu(events, 'bench:click', 'sessionplan:live-ready'));
    if (tab === 0) {
      // The clock ticks once a second: each tick is one timer task on the main thread.
      const timeline = await traceEvents(browser.context, page, 'devtools.timeline', () => page.waitForTimeout(ticks * 1000 + 500));
      const tasks = timeline.filter((event) => event.name === 'TimerFire' && event.ph === 'X' && event.tdur !== undefined);
      tickCpu.push(...tasks.map((event) => event.tdur! / 1000));
      await followPresses(page);
    }
    await page.close();
  }

  /** Opens the projector from the live view in `page`, then presses +5 and Back in turn, timing both windows' change. */
  async function followPresses(presenter: Page): Promise<void> {
    const opened = browser.context.waitForEvent('page');
    await presenter.getByRole('button', { name: 'Projector window' }).click();
    const projector = await opened;
    await projector.waitForSelector('.projector-main section');
    await projector.evaluate(OBSERVE_SCRIPT, ['.projector', { attributes: true, attributeFilter: ['data-version'] }] as [string, MutationObserverInit]);
    await presenter.evaluate(OBSERVE_SCRIPT, ['.live-main', { childList: true, subtree: true, characterData: true }] as [string, MutationObserverInit]);
    for (let press = 0; press < presses; press += 1) {
      const [projectorBefore, presenterBefore] = [(await changesOf(projector)).length, (await changesOf(presenter)).length];
      const clicked = await presenter.evaluate((name) => {
        const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent === name)!;
        const at = performance.timeOrigin + performance.now();
        button.click();
        return at;
      }, press % 2 === 0 ? '+5 min' : 'Back');
      const firstAfter = async (page: Page, before: number): Promise<number> => {
        await page.waitForFunction((count) => (globalThis as unknown as { benchChanges: number[] }).benchChanges.length > count, before, { timeout: 1_000 });
        return (await changesOf(page))[before]! - clicked;
      };
      projectorFollow.push(await firstAfter(projector, projectorBefore));
      presenterFollow.push(await firstAfter(presenter, presenterBefore));
    }
    await projector.close();
  }

  console.log(`machine load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores; main-thread CPU, median (min–max)`);
  console.log(`opening Live on the largest plan (${(source['items'] as unknown[]).length} top-level items), ${tabs} fresh tabs (goal ≤ ${GOALS.openMs} ms):`);
  console.log(`  mount and first screen: ${median(open).toFixed(1)} ms (${spread(open)}); the viewer's open of the same plan ${median(view).toFixed(1)} ms (${spread(view)}), ratio ${(median(open) / median(view)).toFixed(2)}×`);
  console.log(`  from the click, bundle and styles loaded: ${median(fromClick).toFixed(1)} ms (${spread(fromClick)})`);
  console.log(`a clock tick, ${tickCpu.length} ticks (goal ≤ ${GOALS.tickMs} ms): ${median(tickCpu).toFixed(3)} ms (${spread(tickCpu)})`);
  console.log(`a press of +5 or Back, ${presses} presses, wall time from the click (goal: projector p95 ≤ ${GOALS.followP95Ms} ms):`);
  console.log(`  projector window shows it: median ${median(projectorFollow).toFixed(1)} ms, p95 ${p95(projectorFollow).toFixed(1)} ms (${spread(projectorFollow)})`);
  console.log(`  presenter's own screen: median ${median(presenterFollow).toFixed(1)} ms, p95 ${p95(presenterFollow).toFixed(1)} ms (${spread(presenterFollow)}); projector p95 − presenter p95 ${(p95(projectorFollow) - p95(presenterFollow)).toFixed(1)} ms`);
} finally {
  await browser.close();
  await server.close();
}
