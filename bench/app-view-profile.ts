// Where the plan view's first render goes (docs/benchmarks.md): the view's main thread from the host message's arrival to
// the plan laid out, split by the trace's own events (the message's deserialization, HTML parsing, style and layout,
// garbage collection, the rest: script), with the first-touch page faults of each part when `perf` is installed
// (Debian's linux-perf). A blank frame that only reads the same messages shows what the message costs by itself, and
// reading the decode result without its text block, or only that block, what each copy of the plan in it costs.
// Run (built first, under the lock): npx tsx bench/app-view-profile.ts [--loads N]
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppHost } from '../test/support/app-host.js';
import { appViewInputs, type ViewTool } from './app-view-inputs.js';
import { option, traceEvents, type TraceEvent as RecordedEvent } from './trace.js';

const CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink,blink.user_timing,toplevel';
/** How long after the plan is laid out the view's thread is still watched. */
const AFTER_MS = 1500;

/** trace.ts's events, with the wall duration of complete events. */
type TraceEvent = RecordedEvent & { dur?: number };

/** The floor: a frame that answers the handshake and reads each message, nothing else; its marks are the view's. */
const BLANK_FRAME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><main data-state="waiting">…</main>
<script type="module">
const main = document.querySelector('main');
window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  performance.clearMarks('sessionplan-view:message');
  performance.mark('sessionplan-view:message');
  const message = event.data;
  if (message.id === 1 && message.result) window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  if (message.method === 'ui/notifications/tool-result' || message.params?.arguments?.session !== undefined) {
    performance.mark('sessionplan-view:received');
    main.dataset.state = 'plan';
    performance.mark('sessionplan-view:rendered');
  }
});
window.parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'blank', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } }, '*');
</script></body></html>`;

const hasPerf = spawnSync('perf', ['--version'], { stdio: 'ignore' }).status === 0;

/** Records every first-touch page fault of Chromium's renderer processes (CLOCK_MONOTONIC, the trace's clock) while it runs. */
async function faultsDuring(action: () => Promise<void>): Promise<{ tid: number; ts: number }[]> {
  if (!hasPerf) {
    await action();
    return [];
  }
  const renderers = readdirSync('/proc').filter((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
  const file = join(tmpdir(), `sessionplan-faults-${process.pid}.data`);
  const recorder = spawn('perf', ['record', '-q', '-e', 'page-faults', '-c', '1', '-k', 'CLOCK_MONOTONIC', '-p', renderers.join(','), '-o', file], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await action();
  } finally {
    recorder.kill('SIGINT');
    await new Promise((resolve) => recorder.once('exit', resolve));
  }
  const script = spawnSync('perf', ['script', '-i', file, '-F', 'tid,time'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  rmSync(file, { force: true });
  return script.stdout.split('\n').filter((line) => line.trim() !== '').map((line) => {
    const [tid, time] = line.trim().split(/\s+/);
    return { tid: Number(tid), ts: Number(time!.replace(':', '')) * 1e6 };
  });
}

type Parts = Record<string, number>;

/** The parts of one first render, in ms of the view thread's CPU (faults: counts). */
function partsOf(events: readonly TraceEvent[], faults: readonly { tid: number; ts: number }[]): Parts {
  const rendered = events.find((event) => event.name === 'sessionplan-view:rendered');
  if (rendered?.tts === undefined) throw new Error('the trace has no rendered mark');
  const onThread = events.filter((event) => event.pid === rendered.pid && event.tid === rendered.tid);
  const last = (name: string): TraceEvent => {
    const mark = onThread.filter((event) => event.name === name && event.ts <= rendered.ts).at(-1);
    if (mark?.tts === undefined) throw new Error(`the trace has no ${name} mark`);
    return mark;
  };
  const message = last('sessionplan-view:message');
  const received = last('sessionplan-view:received');
  const completed = onThread.filter((event) => event.ph === 'X' && event.tdur !== undefined);
  const complete = completed.filter((event) => event.ts >= received.ts && event.ts < rendered.ts);
  const later = completed.filter((event) => event.ts > rendered.ts);
  const isGc = (event: TraceEvent): boolean => event.name === 'MinorGC' || event.name === 'MajorGC';
  const gcs = complete.filter(isGc);
  // Thread time of the named events, without the collections that ran inside them.
  const exclusive = (names: readonly string[], within = complete): number => within.filter((event) => names.includes(event.name)).reduce((sum, event) => {
    const inner = within.filter((gc) => isGc(gc) && gc.ts >= event.ts && gc.ts < event.ts + event.dur!).reduce((total, gc) => total + gc.tdur!, 0);
    return sum + event.tdur! - inner;
  }, 0) / 1000;
  const own = (rendered.tts - received.tts!) / 1000;
  const parse = exclusive(['ParseHTML']);
  const layout = exclusive(['UpdateLayoutTree', 'Layout']);
  const gc = gcs.reduce((sum, event) => sum + event.tdur!, 0) / 1000;
  const firstScreen = onThread.find((event) => event.name === 'sessionplan-view:first-screen' && event.ts >= received.ts && event.ts <= rendered.ts);
  const threadFaults = faults.filter((fault) => fault.tid === rendered.tid);
  const count = (from: number, to: number): number => threadFaults.filter((fault) => fault.ts >= from && fault.ts < to).length;
  const parts: Parts = {
    total: (rendered.tts - message.tts!) / 1000,
    message: (received.tts! - message.tts!) / 1000,
    own,
    parse,
    'style+layout': layout,
    gc,
    'script+rest': own - parse - layout - gc,
  };
  if (firstScreen?.tts !== undefined) parts['first screen'] = (firstScreen.tts - message.tts!) / 1000;
  // The view thread's tasks that start after the mark (size reports, the host's resize, layout of the parts, paint).
  parts[`after, ${AFTER_MS / 1000} s`] = later.filter((event) => event.name === 'ThreadControllerImpl::RunTask').reduce((sum, event) => sum + event.tdur!, 0) / 1000;
  parts['after: style+layout'] = exclusive(['UpdateLayoutTree', 'Layout'], later);
  parts['after: paint'] = exclusive(['Paint', 'PrePaint', 'Layerize', 'UpdateLayer', 'Commit'], later);
  if (hasPerf) {
    parts['faults: message'] = count(message.ts, received.ts);
    parts['faults: own'] = count(received.ts, rendered.ts);
  }
  return parts;
}

const loads = option('loads', 5);
const inputs = await appViewInputs();
const host = await startAppHost();
// The decode result holds the plan twice: structuredContent.session, and the same JSON as the first text block.
const decoded = inputs.decoded as { content: unknown[]; structuredContent: unknown };
const cases: { label: string; html: string; tool: ViewTool; result?: unknown; runs: Parts[] }[] = [
  { label: 'view, create', html: inputs.html, tool: 'create_session_link', runs: [] },
  { label: 'view, decode', html: inputs.html, tool: 'decode_session_link', runs: [] },
  { label: 'blank frame, create message', html: BLANK_FRAME, tool: 'create_session_link', runs: [] },
  { label: 'blank frame, decode messages', html: BLANK_FRAME, tool: 'decode_session_link', runs: [] },
  { label: 'blank frame, decode result without its text blocks', html: BLANK_FRAME, tool: 'decode_session_link', result: { ...decoded, content: [] }, runs: [] },
  { label: 'blank frame, decode result of its text blocks only', html: BLANK_FRAME, tool: 'decode_session_link', result: { content: decoded.content }, runs: [] },
];
try {
  for (let load = 0; load < loads; load += 1) {
    for (let i = 0; i < cases.length; i += 1) {
      const one = cases[(load + i) % cases.length]!;
      const view = await host.open(one.html, { theme: 'light', locale: 'en-GB', toolInfo: { tool: inputs.tool(one.tool) } });
      try {
        let events: TraceEvent[] = [];
        const faults = await faultsDuring(async () => {
          events = await traceEvents(host.browser.context, view.page, CATEGORIES, async () => {
            if (one.tool === 'create_session_link') await view.sendToolInput({ session: inputs.plan });
            else {
              await view.sendToolInput({ link: inputs.link });
              await view.sendToolResult(one.result ?? inputs.decoded);
            }
            await view.frame.locator('main[data-state="plan"]').waitFor({ timeout: 30_000 });
            // What follows the mark: the host sizes the frame to the reported height, the parts then come into view.
            await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
          });
        });
        one.runs.push(partsOf(events, faults));
      } finally {
        await view.close();
      }
    }
    console.log(`load ${load + 1} of ${loads}`);
  }
} finally {
  await host.close();
  await inputs.close();
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\nthe view's main thread from the host message's arrival to the plan laid out, ${loads} fresh frames per case, medians (min–max), ms of CPU${hasPerf ? '' : ' (page faults: install linux-perf)'}:`);
for (const one of cases) {
  const keys = Object.keys(one.runs[0]!);
  const cells = keys.map((key) => {
    const values = one.runs.map((run) => run[key] ?? 0);
    const digits = key.startsWith('faults') ? 0 : 1;
    return `${key} ${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  });
  console.log(`  ${one.label}: ${cells.join(', ')}`);
}
