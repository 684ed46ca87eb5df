// Shared by the Chromium benchmarks: a trace of what a page does during an action, and the CPU between two of its marks.
import type { BrowserContext, Page } from 'playwright-core';

/** A Chrome trace event: `ts` wall clock, `tts`/`tdur` the thread's CPU clock (µs). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  tts?: number;
  tdur?: number;
  pid: number;
  tid: number;
  cat?: string;
}

/** The trace events of the given categories recorded while `action` runs in `page`. */
export async function traceEvents(context: BrowserContext, page: Page, categories: string, action: () => Promise<void>): Promise<TraceEvent[]> {
  const cdp = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (message) => events.push(...(message.value as unknown as TraceEvent[])));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  await action();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return events;
}

/** The user-timing marks (performance.mark) recorded while `action` runs, from every process of the page. */
export async function marksDuring(context: BrowserContext, page: Page, action: () => Promise<void>): Promise<TraceEvent[]> {
  const events = await traceEvents(context, page, 'blink.user_timing', action);
  return events.filter((event) => event.ph === 'I' && event.cat?.includes('blink.user_timing'));
}

/** CPU ms of the page's main thread between the first user-timing marks `from` and `to` (their thread clocks). */
export function markCpu(events: readonly TraceEvent[], from: string, to: string): number {
  const find = (name: string) => events.find((event) => event.name === name && event.ph === 'I' && event.tts !== undefined);
  const start = find(from);
  const end = find(to);
  if (!start || !end) throw new Error(`the trace has no thread time for ${from} or ${to}`);
  return (end.tts! - start.tts!) / 1000;
}

