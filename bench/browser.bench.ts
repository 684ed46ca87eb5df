// Browser figures in real Chromium, side by side in one page: viewer decode + render of the largest in-budget plan, and
// the shipped WASM codec vs lz-string 1.5.0 (ratios). benny cannot run inside a page, so the page samples both itself.
// Run: npx tsx bench/browser.bench.ts [--loads N] [--rounds N]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { loadCodec } from '../src/codec/node.js';
import { createSessionOperations } from '../src/session/operations.js';
import { launchChromium } from '../test/support/chromium.js';
import { callPageCodec, ensureViewerBuilt, servePageCodec, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';
import type { Timing } from '../test/support/page-codec.js';

/** The targets of issue 6. */
const GOALS = { openMs: 100, codecRatio: 8 };

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const loads = option('loads', 7);
const rounds = option('rounds', 9);
const manifest = ensureViewerBuilt();
const operations = createSessionOperations(loadCodec, { baseUrl: 'http://127.0.0.1/' });
const plan = await largestInBudgetPlan((candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
const { link } = await operations.createSessionLink(plan);
const json = JSON.stringify((await operations.decodeSessionLink(link)).session);
const fragment = link.slice(link.indexOf('#'));

const server = await startViewerServer({ RATE_LIMIT: '1000' });
const browser = await launchChromium();
try {
  await servePageCodec(browser.context, server.url);
  const decode: number[] = [];
  const open: number[] = [];
  for (let load = 0; load < loads; load += 1) {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/${fragment}`);
    await page.waitForSelector('#app[data-state="plan"]', { timeout: 30_000 });
    decode.push(await page.evaluate(`performance.getEntriesByName('sessionplan:decode')[0].duration`) as number);
    open.push(await page.evaluate(`performance.getEntriesByName('sessionplan:open')[0].duration`) as number);
    await page.close();
  }

  const page = await browser.context.newPage();
  await page.goto(`${server.url}/`);
  const timing = await page.evaluate(callPageCodec('timeCodecs', `/assets/${manifest.assets.wasm}`, json, rounds)) as Timing;
  await page.close();

  const figures = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, browser: browser.context.browser()?.version() ?? 'chromium' },
    date: new Date().toISOString(),
    plan: { jsonChars: json.length, payloadChars: link.length - link.indexOf('v2:') - 3 },
    viewer: { loads, decodeMedianMs: median(decode), openMedianMs: median(open), openAllMs: open, goalMs: GOALS.openMs },
    codec: {
      rounds,
      ms: timing,
      compressRatio: timing.lzCompress / timing.wasmCompress,
      decompressRatio: timing.lzDecompress / timing.wasmDecompress,
      goalRatio: GOALS.codecRatio,
    },
  };
  const out = new URL('results/local/', import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(new URL('browser.json', out), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`plan: ${figures.plan.jsonChars} chars JSON → ${figures.plan.payloadChars} chars payload`);
  console.log(`viewer decode + render (median of ${loads} loads): ${figures.viewer.openMedianMs.toFixed(1)} ms (decode ${figures.viewer.decodeMedianMs.toFixed(1)} ms), goal < ${GOALS.openMs} ms`);
  console.log(`in-page compress:   wasm ${timing.wasmCompress.toFixed(2)} ms, lz-string ${timing.lzCompress.toFixed(2)} ms → ${figures.codec.compressRatio.toFixed(1)}×`);
  console.log(`in-page decompress: wasm ${timing.wasmDecompress.toFixed(2)} ms, lz-string ${timing.lzDecompress.toFixed(2)} ms → ${figures.codec.decompressRatio.toFixed(1)}×  (goal ≥ ${GOALS.codecRatio}×)`);
} finally {
  await browser.close();
  await server.close();
}
