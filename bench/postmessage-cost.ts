// What the host's message costs the plan view with no DevTools session attached (bench/app-view.bench.ts traces through
// one): Chromium headless without a driver (--dump-dom) loads a host page on 127.0.0.1 that posts the real decode result
// a few times into a frame on localhost (another site, so another renderer process, as in every MCP Apps host) and as
// often into a frame of its own site (the same process), alternately; each frame times reading `event.data`, then a
// structuredClone of what it read. Wall time from performance.now() (no trace without DevTools).
// Run (built first, under the lock): npx tsx bench/postmessage-cost.ts
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_ARGS, chromiumPath } from '../test/support/chromium.js';
import { appViewInputs } from './app-view-inputs.js';
import { option } from './trace.js';

const messages = option('messages', 5);

const VIEW = `<!doctype html><meta charset="utf-8"><script>
window.addEventListener('message', (event) => {
  const start = performance.now();
  const data = event.data;
  const read = performance.now();
  structuredClone(data);
  parent.postMessage({ readMs: read - start, cloneMs: performance.now() - read }, '*');
});
parent.postMessage('ready', '*');
</script>`;

const hostPage = (viewUrl: string, result: unknown): string => `<!doctype html><meta charset="utf-8"><body>
<script type="application/json" id="result">${JSON.stringify(result).replace(/</g, '\\u003c')}</script>
<iframe src="${viewUrl}"></iframe><iframe src="/view"></iframe><script>
const result = JSON.parse(document.getElementById('result').textContent);
const frames = [...document.querySelectorAll('iframe')].map((frame) => frame.contentWindow);
const figures = [];
let ready = 0;
window.addEventListener('message', (event) => {
  if (event.data === 'ready') ready += 1;
  else figures.push({ ...event.data, sameSite: event.source === frames[1] });
  if (ready < 2) return;
  // Alternately into the other site's frame and the own site's, so both see the same moments of this machine.
  if (figures.length < ${messages} * 2) frames[figures.length % 2].postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result }, '*');
  else fetch('/figures', { method: 'POST', body: JSON.stringify(figures) });
});
</script><img src="/hold" alt=""></body>`;

async function listen(server: Server, host: string): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

const inputs = await appViewInputs();
const view = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(VIEW));
let release: () => void = () => {};
// The host page's load event waits for /hold, which is answered once the figures are in: then --dump-dom ends.
const held = new Promise<void>((resolve) => { release = resolve; });
let figures: { readMs: number; cloneMs: number; sameSite: boolean }[] = [];
let viewPort = 0;
const profile = mkdtempSync(join(tmpdir(), 'sessionplan-chromium-'));
const host = createServer((request, response) => {
  if (request.url === '/hold') {
    void held.then(() => response.writeHead(204).end());
  } else if (request.url === '/view') {
    response.writeHead(200, { 'content-type': 'text/html' }).end(VIEW);
  } else if (request.url === '/figures') {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => {
      figures = JSON.parse(body) as typeof figures;
      response.writeHead(204).end();
      release();
    });
  } else response.writeHead(200, { 'content-type': 'text/html' }).end(hostPage(`http://localhost:${viewPort}/`, inputs.decoded));
});
try {
  viewPort = await listen(view, 'localhost');
  const hostPort = await listen(host, '127.0.0.1');
  const timeout = setTimeout(release, 60_000);
  await promisify(execFile)(chromiumPath(), [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--dump-dom', `http://127.0.0.1:${hostPort}/`], { timeout: 90_000, maxBuffer: 1 << 26 });
  clearTimeout(timeout);
} finally {
  view.close();
  host.close();
  await inputs.close();
  rmSync(profile, { recursive: true, force: true });
}
if (figures.length === 0) throw new Error('the host page reported no figures');
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const describe = (values: readonly number[]): string => `median ${median(values).toFixed(1)} ms (${values.map((value) => value.toFixed(1)).join(', ')})`;
const crossSite = figures.filter((figure) => !figure.sameSite);
const sameSite = figures.filter((figure) => figure.sameSite);
console.log(`the decode result posted ${crossSite.length} times into a frame of another site and ${sameSite.length} times into one of the host's site, alternately, no DevTools attached, wall time in the frame:`);
console.log(`  reading event.data, frame of another site (another process, as in an MCP Apps host): ${describe(crossSite.map((figure) => figure.readMs))}`);
console.log(`  reading event.data, frame of the host's site (the same process): ${describe(sameSite.map((figure) => figure.readMs))}`);
console.log(`  structuredClone of what it read, frame of another site: ${describe(crossSite.map((figure) => figure.cloneMs))}`);
