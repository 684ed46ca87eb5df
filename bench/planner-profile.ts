// Where a planner field edit's main-thread time goes, in real Chromium: a trace with the V8 sampling profiler of keystrokes in
// the first title of the 50-item and the largest plan, split into the planner's work, rendering, style/layout/paint and the
// address bar's write. The page's bundles are served unminified (same sources) so the samples carry function names.
// Run: npx tsx bench/planner-profile.ts [--edits N]   (under `flock /work/locks/cpu.lock`; a diagnosis, not a figure)
//      npx tsx bench/planner-profile.ts --saved <prefix>   (analyses results/local/<prefix>-fifty.json and -largest.json again)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { loadCodec } from '../src/codec/node.js';
import { countItems, type Item } from '../src/planner/tree.js';
import { createSessionOperations } from '../src/session/operations.js';
import { generatePlan } from '../test/fixtures/plans.js';
import { launchChromium } from '../test/support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import { option, traceEvents, type TraceEvent } from './trace.js';
import { TYPE_IN_FIRST_TITLE } from './planner-typing.js';

const root = new URL('../', import.meta.url);
const edits = option('edits', 6);
const manifest = ensureViewerBuilt();

/** The page's entry bundles built again without minifying (names kept), served in place of the hashed files. */
async function readableBundles(): Promise<Map<string, string>> {
  const common: BuildOptions = { bundle: true, write: false, minify: false, keepNames: true, format: 'esm', platform: 'browser', conditions: ['browser'], target: 'es2022', logLevel: 'warning' };
  const one = async (entry: string, extra: BuildOptions): Promise<string> => {
    const result = await build({ ...common, entryPoints: [fileURLToPath(new URL(entry, root))], ...extra });
    return result.outputFiles![0]!.text;
  };
  const files = new Map<string, string>();
  files.set(manifest.assets.js, await one('src/viewer/main.ts', {
    define: {
      __CODEC_WASM_FILE__: JSON.stringify(`./${manifest.assets.wasm}`),
      __EXPORT_MODULE_FILE__: JSON.stringify(`./${manifest.onDemand.export}`),
      __EDITOR_MODULE_FILE__: JSON.stringify(`./${manifest.onDemand.editor}`),
      __EDITOR_STYLE_FILE__: JSON.stringify(`./${manifest.onDemand.editorCss}`),
    },
  }));
  const worker = manifest.onDemand.editorWorker;
  files.set(manifest.onDemand.editor, await one('src/planner/ui/mount.tsx', { jsx: 'automatic', jsxImportSource: 'preact', define: { __PLANNER_WORKER_FILE__: JSON.stringify(`./${worker}`) } }));
  files.set(worker, await one('src/planner/worker.ts', { define: { __CODEC_WASM_FILE__: JSON.stringify(`./${manifest.assets.wasm}`) } }));
  return files;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  parent?: number;
}

/** The sampling profiler's nodes and samples (time, leaf node) of one thread, from the trace's ProfileChunk events. */
function samplesOf(events: readonly TraceEvent[], pid: number, tid: number): { nodes: Map<number, ProfileNode>; samples: { ts: number; node: number }[] } {
  const nodes = new Map<number, ProfileNode>();
  const samples: { ts: number; node: number }[] = [];
  const profiles = new Map<string, number>();
  type Data = { startTime?: number; cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
  for (const event of events as (TraceEvent & { id?: string; args?: { data?: Data } })[]) {
    if (event.pid !== pid) continue;
    const data = event.args?.data;
    if (event.name === 'Profile' && event.tid === tid && data?.startTime !== undefined) profiles.set(event.id ?? '', data.startTime);
    if (event.name !== 'ProfileChunk' || !profiles.has(event.id ?? '')) continue;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    let ts = profiles.get(event.id ?? '')!;
    const deltas = data?.timeDeltas ?? [];
    (data?.cpuProfile?.samples ?? []).forEach((node, index) => {
      ts += deltas[index] ?? 0;
      samples.push({ ts, node });
    });
    profiles.set(event.id ?? '', ts);
  }
  return { nodes, samples };
}

/** The bucket a sample's stack belongs to: the first rule matching a frame from the leaf up. */
const BUCKETS: [string, RegExp][] = [
  ['address bar: replaceState', /^replaceState$/],
  ['worker messages (postMessage, clone)', /^(postMessage|structuredClone)$/],
  ['compress (WASM codec)', /^(compress|compressUnits)$/],
  ['limits (UTF-8 length of the JSON)', /^measureLimits$/],
  ['validate + normalize + JSON', /^(validateForCreate|checkForCreate|checkRules|isExactlyCanonical|encodeSession|encodeDraft|checkShape|jsonText|stringify)$/],
  ['times (computeTimes)', /^computeTimes$/],
  ['edit + history', /^(applyEdit|record)$/],
  ['render: editor components', /^(EditorRoot|ItemList|ItemRow|Row|RowField|Status|Toolbar|WorkshopSection|CategoriesSection|PeopleSection|Memo|problemsUnder|addTarget)$/],
  ['bench: typing loop and polling', /^(written|getEntriesByName|mark)$/],
];

function bucketOf(nodes: Map<number, ProfileNode>, leaf: number): string {
  const leafName = nodes.get(leaf)?.callFrame.functionName ?? '';
  if (leafName === '(garbage collector)') return 'garbage collection';
  if (leafName === '(program)') return 'native work outside JS (style, layout, paint, tasks)';
  if (leafName === '(idle)') return '(idle)';
  let minified = false;
  for (const [bucket, pattern] of BUCKETS) {
    for (let id: number | undefined = leaf; id !== undefined; id = nodes.get(id)?.parent) {
      const name = nodes.get(id)?.callFrame.functionName ?? '';
      if (pattern.test(name)) return bucket;
      if (/^[\w$]{1,3}$|\.[\w$]{1,3}$/.test(name)) minified = true;
    }
  }
  // Preact, its signals and SortableJS ship minified: their frames have one- to three-letter names.
  return minified ? 'render: Preact and signals (minified frames)' : `other JS (${leafName || '(anonymous)'})`;
}

/** Main-thread CPU (tdur) of the rendering pipeline's events that ran outside JS, and the forced ones inside it. */
const PIPELINE = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'UpdateLayer', 'PaintImage', 'RasterTask', 'HitTest', 'IntersectionObserverController::computeIntersections']);

/** The main thread's time in the traced edits, task by task, split by the samples inside each task; other threads beside. */
function analyse(title: string, events: readonly TraceEvent[]): string[] {
  const marks = events.filter((event) => event.ph === 'I' && event.cat?.includes('blink.user_timing'));
  const starts = marks.filter((mark) => mark.name === 'bench:edit-start');
  const dones = marks.filter((mark) => mark.name === 'bench:edit-done');
  const main = starts[0];
  if (main === undefined) throw new Error('the trace has no bench:edit-start mark');
  const { nodes, samples } = samplesOf(events, main.pid, main.tid);
  const threadNames = new Map<number, string>();
  for (const event of events as (TraceEvent & { args?: { name?: string } })[]) if (event.name === 'thread_name' && event.pid === main.pid && event.args?.name) threadNames.set(event.tid, event.args.name);
  const tasks = events.filter((event) => event.ph === 'X' && event.name === 'RunTask' && event.tdur !== undefined && event.pid === main.pid) as (TraceEvent & { dur: number; tdur: number })[];
  const buckets = new Map<string, number>();
  const pipeline = new Map<string, number>();
  const threads = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let cpu = 0;
  let inTasks = 0;
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i]!;
    const to = dones[i]!;
    cpu += (to.tts! - from.tts!) / 1000;
    for (const task of tasks) {
      if (task.ts + task.dur < from.ts || task.ts > to.ts) continue;
      if (task.tid !== main.tid) {
        add(threads, threadNames.get(task.tid) ?? `thread ${task.tid}`, task.tdur / 1000);
        continue;
      }
      // Sampling goes by the wall clock and a busy machine deschedules the thread, so a task's thread CPU is split by
      // the shares of its samples rather than counting samples.
      const inside = samples.filter((sample) => sample.ts >= task.ts && sample.ts <= task.ts + task.dur).map((sample) => bucketOf(nodes, sample.node)).filter((bucket) => bucket !== '(idle)');
      if (inside.length === 0) add(buckets, 'tasks without a sample', task.tdur / 1000);
      for (const bucket of inside) add(buckets, bucket, task.tdur / 1000 / inside.length);
      inTasks += task.tdur / 1000;
    }
    for (const event of events) {
      if (event.ph === 'X' && event.ts >= from.ts && event.ts <= to.ts && event.tdur !== undefined && event.pid === main.pid && event.tid === main.tid && PIPELINE.has(event.name)) add(pipeline, event.name, event.tdur / 1000);
    }
  }
  const perEdit = (value: number) => (value / starts.length).toFixed(1);
  const lines = [`${title}; ${starts.length} traced edits, main-thread CPU ${perEdit(cpu)} ms per edit (tracing with the profiler on adds to it)`];
  lines.push(`  main-thread tasks in the edits: ${perEdit(inTasks)} ms per edit, split by the profiler's samples in each task:`);
  for (const [bucket, ms] of [...buckets].sort((a, b) => b[1] - a[1])) if (ms / starts.length >= 0.05) lines.push(`    ${bucket.padEnd(52)} ${(100 * ms / inTasks).toFixed(0).padStart(3)} %  ${perEdit(ms)} ms`);
  lines.push('  of which rendering pipeline events (thread CPU, ms per edit):');
  for (const [event, ms] of [...pipeline].sort((a, b) => b[1] - a[1])) if (ms / starts.length >= 0.05) lines.push(`    ${event.padEnd(52)} ${perEdit(ms)} ms`);
  lines.push('  other threads of the page, CPU in the same windows (ms per edit):');
  for (const [thread, ms] of [...threads].sort((a, b) => b[1] - a[1])) if (ms / starts.length >= 0.05) lines.push(`    ${thread.padEnd(52)} ${perEdit(ms)} ms`);
  return lines;
}

const out = new URL('results/local/', import.meta.url);
mkdirSync(out, { recursive: true });
const report: string[] = [];
const saved = process.argv.indexOf('--saved');
if (saved !== -1) {
  // Analyse traces written by an earlier run (`--saved <prefix>`: <prefix>-fifty.json, <prefix>-largest.json in results/local).
  const prefix = process.argv[saved + 1] ?? 'planner-profile';
  for (const name of ['fifty', 'largest']) {
    const { traceEvents } = JSON.parse(readFileSync(new URL(`${prefix}-${name}.json`, out), 'utf8')) as { traceEvents: TraceEvent[] };
    report.push(...analyse(`${name} (${prefix})`, traceEvents));
  }
} else {
  const operations = createSessionOperations(loadCodec, { baseUrl: 'http://127.0.0.1/' });
  const largest = await largestInBudgetPlan((candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
  let fifty = generatePlan({ seed: 3, items: 1 });
  for (let top = 1; countItems(fifty.items as Item[]) < 50; top++) fifty = generatePlan({ seed: 3, items: top });
  const bundles = await readableBundles();
  const server = await startViewerServer({ RATE_LIMIT: '1000' });
  const browser = await launchChromium();
  try {
    await browser.context.route(`${server.url}/assets/*.js`, async (route) => {
      const body = bundles.get(new URL(route.request().url()).pathname.split('/').pop()!);
      if (body === undefined) return route.continue();
      return route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body });
    });
    for (const [name, plan] of [['fifty', fifty], ['largest', largest]] as const) {
      const { link } = await operations.createSessionLink(plan);
      const page = await browser.context.newPage();
      await page.goto(`${server.url}/${link.slice(link.indexOf('#'))}`);
      await page.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
      await page.getByRole('button', { name: 'Edit plan' }).click();
      await page.waitForSelector('#app[data-state="editing"] .editor', { timeout: 60_000 });
      // One warm-up keystroke (first calls compile), then the traced ones.
      await page.evaluate(TYPE_IN_FIRST_TITLE(1));
      const categories = '__metadata,blink.user_timing,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-v8.cpu_profiler,v8.execute';
      const events = await traceEvents(browser.context, page, categories, () => page.evaluate(TYPE_IN_FIRST_TITLE(edits)));
      await page.close();
      writeFileSync(new URL(`planner-profile-${name}.json`, out), JSON.stringify({ traceEvents: events }));
      report.push(...analyse(`${name}: ${countItems(plan.items as Item[])} items, link ${link.length} chars`, events));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
writeFileSync(new URL('planner-profile.txt', out), `${report.join('\n')}\n`);
console.log(report.join('\n'));
