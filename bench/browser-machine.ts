// What the viewer's open costs on a given machine beyond its own work: a first touch of fresh memory in a new Chromium
// page, how many fresh pages each phase of an open touches, and the same open once the tab's memory and code are warm.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';

/** Bytes written in the first-touch probe: far more than any cache, small enough to be quick. */
const PROBE_BYTES = 64 << 20;
const PAGE_BYTES = 4096;

export interface FirstTouchCost {
  /** µs per 4 KB page the first time a fresh buffer is written (the kernel maps and zeroes each page). */
  firstMicros: number;
  /** µs per 4 KB page for the same writes again (mapped already): the loop's own cost. */
  againMicros: number;
}

/**
 * Writes one byte per 4 KB page of a fresh 64 MB buffer in a new blank page, twice. A new renderer touches only fresh
 * memory while it decodes and renders a plan (JavaScript heap, DOM, layout), so the first figure times every page of
 * memory that work needs; on typical hardware it is around a microsecond or less.
 */
export async function firstTouchCost(context: BrowserContext): Promise<FirstTouchCost> {
  const page = await context.newPage();
  try {
    await page.goto('about:blank');
    // A string expression, so no test-runner code is serialized into the page.
    return await page.evaluate(`(() => {
      const bytes = new Uint8Array(${PROBE_BYTES});
      const pages = ${PROBE_BYTES / PAGE_BYTES};
      const pass = (value) => {
        const start = performance.now();
        for (let offset = 0; offset < bytes.length; offset += ${PAGE_BYTES}) bytes[offset] = value;
        return ((performance.now() - start) * 1000) / pages;
      };
      const firstMicros = pass(1);
      return { firstMicros, againMicros: pass(2) };
    })()`) as FirstTouchCost;
  } finally {
    await page.close();
  }
}

/**
 * The viewer's own measure (`sessionplan:open`, decode + whole plan rendered) when a tab that has shown the plan opens
 * another plan and then this one again by hashchange: the same work as a new tab's first open, on warm memory and code.
 */
export async function warmReopenMs(context: BrowserContext, url: string, fragment: string, otherFragment: string): Promise<number> {
  const page = await context.newPage();
  try {
    const opened = (count: number) => page.waitForFunction(`performance.getEntriesByName('sessionplan:open').length === ${count}`, undefined, { timeout: 30_000 });
    await page.goto(`${url}/${fragment}`);
    await opened(1);
    await page.evaluate(`location.hash = ${JSON.stringify(otherFragment)}`);
    await opened(2);
    await page.evaluate(`location.hash = ${JSON.stringify(fragment)}`);
    await opened(3);
    return await page.evaluate(`performance.getEntriesByName('sessionplan:open')[2].duration`) as number;
  } finally {
    await page.close();
  }
}

/** Fresh 4 KB pages the page's renderer main thread touched in each phase of one open (minor page faults). */
export interface PhaseFaults {
  decode: number;
  firstScreen: number;
  rest: number;
}

const MARKS = ['sessionplan:decode-start', 'sessionplan:decode-end', 'sessionplan:first-screen', 'sessionplan:render-end'] as const;
const PROBE_PATH = '/__bench_fault_probe__/';

/** Renderer processes by pid (Linux /proc); the page's renderer is found afterwards, as the one that faulted most. */
function rendererFaults(): Map<string, number> {
  const faults = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      // Field 10 of the main thread's stat (minflt), counted after the parenthesised command name.
      const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      faults.set(pid, Number(fields[7]));
    } catch {
      // the process ended meanwhile
    }
  }
  return faults;
}

/**
 * Counts the renderer main thread's minor page faults between the viewer's marks. An init script makes each mark send a
 * synchronous request that the bench answers after reading /proc, so the counts are taken while the page waits at
 * the mark. Only the bench's pages get the script; the viewer itself is unchanged. `open` opens the plan on the page
 * (the bench's own navigation). Linux only (undefined elsewhere).
 */
export async function faultsPerPhase(context: BrowserContext, url: string, open: (page: Page) => Promise<void>): Promise<PhaseFaults | undefined> {
  if (!existsSync('/proc/self/stat')) return undefined;
  const snapshots = new Map<string, Map<string, number>>();
  const pattern = `${url}${PROBE_PATH}*`;
  await context.route(pattern, async (route) => {
    snapshots.set(decodeURIComponent(route.request().url().slice(url.length + PROBE_PATH.length)), rendererFaults());
    await route.fulfill({ status: 204 });
  });
  const page = await context.newPage();
  try {
    await page.addInitScript(`(() => {
      const mark = performance.mark.bind(performance);
      const marks = new Set(${JSON.stringify(MARKS)});
      performance.mark = (name, options) => {
        if (marks.has(name)) {
          const request = new XMLHttpRequest();
          request.open('GET', ${JSON.stringify(PROBE_PATH)} + encodeURIComponent(name), false);
          request.send();
        }
        return mark(name, options);
      };
    })()`);
    await open(page);
  } finally {
    await page.close();
    await context.unroute(pattern);
  }
  const [start, decoded, firstScreen, end] = MARKS.map((name) => snapshots.get(name));
  if (!start || !decoded || !firstScreen || !end) throw new Error(`the fault probe saw ${snapshots.size} of ${MARKS.length} marks`);
  const pids = [...end.keys()].filter((pid) => start.has(pid) && decoded.has(pid) && firstScreen.has(pid));
  const grown = (pid: string) => end.get(pid)! - start.get(pid)!;
  const pid = pids.sort((a, b) => grown(b) - grown(a))[0];
  if (pid === undefined) throw new Error('the fault probe found no renderer process in /proc');
  return {
    decode: decoded.get(pid)! - start.get(pid)!,
    firstScreen: firstScreen.get(pid)! - decoded.get(pid)!,
    rest: end.get(pid)! - firstScreen.get(pid)!,
  };
}
