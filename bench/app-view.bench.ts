// The MCP App plan view's first render of the largest in-budget plan, fed through the host protocol in Chromium (the
// official ext-apps AppBridge, test/support/app-host.ts), side by side in one run with the viewer page opening the same
// plan. Main-thread CPU from the trace's thread clock, from the host message's arrival in the view (before the browser
// deserializes it) to the plan laid out. With --baseline <git ref>, that ref's view (built in a temporary worktree) is
// fed the same messages, the two builds alternating. Run (built first): npx tsx bench/app-view.bench.ts [--loads N]
// [--baseline main]
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { BASE_URL_PLACEHOLDER } from '../src/assets/app-view.js';
import { startAppHost, type AppHost } from '../test/support/app-host.js';
import { appViewInputs, type ViewTool } from './app-view-inputs.js';
import { buildBaseline, type BaselineBuild } from './browser-baseline.js';
import { writeResults } from './results.js';
import { median, option, spread, textOption } from './stats.js';
import { marksDuring, type TraceEvent } from './trace.js';

/** The plan view's goal: its first render within this much main-thread CPU. */
const GOAL_MS = 100;

/** Thread CPU and wall time between two marks of one thread (the last `from` before `to`). */
function between(events: readonly TraceEvent[], from: string, to: string): { cpuMs: number; wallMs: number } {
  const end = events.find((event) => event.name === to);
  if (end?.tts === undefined) throw new Error(`the trace has no thread time for ${to}`);
  const start = events.filter((event) => event.name === from && event.pid === end.pid && event.tid === end.tid && event.ts <= end.ts).at(-1);
  if (start?.tts === undefined) throw new Error(`the trace has no ${from} before ${to}`);
  return { cpuMs: (end.tts - start.tts) / 1000, wallMs: (end.ts - start.ts) / 1000 };
}


/** A first render: CPU and wall time in all, the message's arrival (deserialization) and, where the build marks it, the first screen laid out. */
interface Run { cpuMs: number; wallMs: number; arrivalCpuMs: number; firstScreenCpuMs?: number }
/** One build of the view and what it measured. */
interface Build { label: string; html: string; create: Run[]; decode: Run[] }

const loads = option('loads', 7);
const baselineRef = textOption('baseline');
const inputs = await appViewInputs();
const { html, plan, link, decoded } = inputs;
const fragment = link.slice(link.indexOf('#'));
const jsonChars = JSON.stringify((decoded as { structuredContent: { session: unknown } }).structuredContent.session).length;

const builds: Build[] = [{ label: 'this build', html, create: [], decode: [] }];
const page: Run[] = [];
let baseline: BaselineBuild | undefined;
let host: AppHost | undefined;
try {
  if (baselineRef !== undefined) {
    baseline = buildBaseline(baselineRef, 'app-view');
    // Completed with the same base URL as the server's document (the meta attribute, already escaped).
    const baseUrl = /<meta name="sessionplan-base-url" content="([^"]*)">/.exec(html)?.[1] ?? '';
    builds.push({ label: baseline.label, html: readFileSync(baseline.appView, 'utf8').replace(BASE_URL_PLACEHOLDER, () => baseUrl), create: [], decode: [] });
  }
  const appHost = await startAppHost();
  host = appHost;
  const { browser } = appHost;
  const viewLoad = async (build: Build, tool: ViewTool): Promise<Run> => {
    const view = await appHost.open(build.html, { theme: 'light', locale: 'en-GB', toolInfo: { tool: inputs.tool(tool) } });
    try {
      const events = await marksDuring(browser.context, view.page, async () => {
        if (tool === 'create_session_link') await view.sendToolInput({ session: plan });
        else {
          await view.sendToolInput({ link });
          await view.sendToolResult(decoded);
        }
        await view.frame.locator('main[data-state="plan"]').waitFor({ timeout: 30_000 });
      });
      const problems = await view.problems();
      if (problems.cspViolations.length + problems.pageErrors.length > 0) throw new Error(`the view failed: ${JSON.stringify(problems)}`);
      const whole = between(events, 'sessionplan-view:message', 'sessionplan-view:rendered');
      const arrival = between(events, 'sessionplan-view:message', 'sessionplan-view:received');
      const firstScreen = events.some((event) => event.name === 'sessionplan-view:first-screen') ? between(events, 'sessionplan-view:message', 'sessionplan-view:first-screen').cpuMs : undefined;
      return { ...whole, arrivalCpuMs: arrival.cpuMs, firstScreenCpuMs: firstScreen };
    } finally {
      await view.close();
    }
  };
  const pageLoad = async (): Promise<Run> => {
    const tab = await browser.context.newPage();
    try {
      const events = await marksDuring(browser.context, tab, async () => {
        await tab.goto(`${inputs.serverUrl}/${fragment}`);
        await tab.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
      });
      return { ...between(events, 'sessionplan:decode-start', 'sessionplan:render-end'), arrivalCpuMs: 0 };
    } finally {
      await tab.close();
    }
  };
  const views = (build: Build) => [
    async () => { build.create.push(await viewLoad(build, 'create_session_link')); },
    async () => { build.decode.push(await viewLoad(build, 'decode_session_link')); },
  ];
  for (let load = 0; load < loads; load += 1) {
    // A different case first each time (and the builds in turn), so a slow minute of the machine falls on all of them.
    const ordered = load % 2 === 0 ? builds : [...builds].reverse();
    const cases = [...ordered.flatMap(views), async () => { page.push(await pageLoad()); }];
    for (let i = 0; i < cases.length; i += 1) await cases[(load + i) % cases.length]!();
    const last = (runs: Run[]): string => `${runs.at(-1)!.cpuMs.toFixed(1)} (message ${runs.at(-1)!.arrivalCpuMs.toFixed(1)})`;
    console.log(`load ${load + 1}: ${builds.map((build) => `${build.label}: view create ${last(build.create)}, decode ${last(build.decode)}`).join('; ')}; viewer page ${page.at(-1)!.cpuMs.toFixed(1)} ms CPU`);
  }
} finally {
  await host?.close();
  await inputs.close();
  baseline?.remove();
}

const bytes = Buffer.byteLength(html);
const figures = (runs: Run[]) => ({
  cpuMs: runs.map((run) => run.cpuMs),
  wallMs: runs.map((run) => run.wallMs),
  messageCpuMs: runs.map((run) => run.arrivalCpuMs),
  firstScreenCpuMs: runs.map((run) => run.firstScreenCpuMs ?? null),
});
const summary = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((value) => Math.round(value * 100) / 100), node: process.version },
  plan: { jsonChars, payloadChars: link.length - link.indexOf('v2:') - 3 },
  document: { bytes, gzipBytes: gzipSync(html, { level: 9 }).length },
  loads,
  builds: builds.map((build) => ({ label: build.label, viewCreate: figures(build.create), viewDecode: figures(build.decode) })),
  viewerPage: { cpuMs: page.map((run) => run.cpuMs), wallMs: page.map((run) => run.wallMs) },
  goalMs: GOAL_MS,
};
const line = (name: string, runs: Run[]): string => {
  const cpu = runs.map((run) => run.cpuMs);
  const wall = runs.map((run) => run.wallMs);
  const message = runs.map((run) => run.arrivalCpuMs);
  const own = runs.map((run) => run.cpuMs - run.arrivalCpuMs);
  const firstScreen = runs.flatMap((run) => (run.firstScreenCpuMs === undefined ? [] : [run.firstScreenCpuMs]));
  const split = runs[0]!.arrivalCpuMs > 0 ? `; of it the message's arrival (deserialization) ${median(message).toFixed(1)} ms (${spread(message)}), the view's own work ${median(own).toFixed(1)} ms (${spread(own)})` : '';
  const first = firstScreen.length > 0 ? `; first screen laid out at ${median(firstScreen).toFixed(1)} ms (${spread(firstScreen)})` : '';
  return `  ${name}: main-thread CPU median ${median(cpu).toFixed(1)} ms (${spread(cpu)}), wall median ${median(wall).toFixed(1)} ms (${spread(wall)})${split}${first}`;
};
const cpuMedian = (runs: Run[]): number => median(runs.map((run) => run.cpuMs));
console.log(`\nplan: ${jsonChars} chars of JSON, ${summary.plan.payloadChars} chars of payload; view document ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB), gzip -9 ${summary.document.gzipBytes} bytes`);
console.log(`first render through the host protocol, ${loads} fresh views each (host message arrives → plan laid out), load average ${loadavg().map((value) => value.toFixed(1)).join(' ')}:`);
for (const build of builds) {
  const label = builds.length > 1 ? `${build.label}: ` : '';
  console.log(line(`${label}view, create (plan from tool-input, checked by the session code)`, build.create));
  console.log(line(`${label}view, decode (plan from tool-result structuredContent)`, build.decode));
}
console.log(line('peer: viewer page, decode + render of the same link', page));
const [mine, theirs] = builds as [Build, Build | undefined];
if (theirs !== undefined) console.log(`ratio (this build / ${theirs.label}): create ${(cpuMedian(mine.create) / cpuMedian(theirs.create)).toFixed(3)}×, decode ${(cpuMedian(mine.decode) / cpuMedian(theirs.decode)).toFixed(3)}×`);
const worst = Math.max(cpuMedian(mine.create), cpuMedian(mine.decode));
console.log(`goal: ≤ ${GOAL_MS} ms main-thread CPU: ${worst <= GOAL_MS ? 'met' : 'NOT met'} (view/page ratio: create ${(cpuMedian(mine.create) / cpuMedian(page)).toFixed(2)}×, decode ${(cpuMedian(mine.decode) / cpuMedian(page)).toFixed(2)}×)`);
console.log(`written: ${writeResults('app-view.json', summary, { save: false }).join(', ')}`);
