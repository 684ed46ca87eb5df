// The live view's figures in real Chromium on the largest in-budget plan, dated today so an item runs: main-thread CPU
// to open Live (the mount, and from the click with its bundle loaded) beside its peer in the same tab, the viewer's
// open of the same plan; and what a clock tick costs once a second.
// Run: npm run bench:live -- [--tabs N] [--ticks N]
import { cpus, loadavg } from 'node:os';
import { loadCodec } from '../src/codec/node.js';
import { createSessionOperations } from '../src/session/operations.js';
import { launchChromium } from '../test/support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import { option, traceEvents, type TraceEvent } from './trace.js';

const GOALS = { openMs: 50, tickMs: 2 };
const tabs = option('tabs', 5);
const ticks = option('ticks', 20);
const CLICK_MARK_SCRIPT = `addEventListener('click', () => performance.mark('bench:click'), { capture: true })`;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[]): string => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

function markCpu(events: readonly TraceEvent[], from: string, to: string): number {
  const find = (name: string) => events.find((event) => event.name === name && event.ph === 'I' && event.tts !== undefined);
  const start = find(from);
  const end = find(to);
  if (!start || !end) throw new Error(`the trace has no thread time for ${from} or ${to}`);
  return (end.tts! - start.tts!) / 1000;
}

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
    }
    await page.close();
  }

  console.log(`machine load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores; main-thread CPU, median (min–max)`);
  console.log(`opening Live on the largest plan (${(source['items'] as unknown[]).length} top-level items), ${tabs} fresh tabs (goal ≤ ${GOALS.openMs} ms):`);
  console.log(`  mount and first screen: ${median(open).toFixed(1)} ms (${spread(open)}); the viewer's open of the same plan ${median(view).toFixed(1)} ms (${spread(view)}), ratio ${(median(open) / median(view)).toFixed(2)}×`);
  console.log(`  from the click, bundle and styles loaded: ${median(fromClick).toFixed(1)} ms (${spread(fromClick)})`);
  console.log(`a clock tick, ${tickCpu.length} ticks (goal ≤ ${GOALS.tickMs} ms): ${median(tickCpu).toFixed(3)} ms (${spread(tickCpu)})`);
} finally {
  await browser.close();
  await server.close();
}
