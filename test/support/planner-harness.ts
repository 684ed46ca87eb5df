// Test helper: serves the planner (bundled from src/planner/ui) on the real server's origin, under the viewer's CSP.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { VIEWER_CSP } from '../../src/assets/static.js';
import type { ViewerManifest } from './viewer-harness.js';

const root = new URL('../../', import.meta.url);
export const PLANNER_PATH = '/__planner__/';

async function bundle(entry: string, extra: Parameters<typeof build>[0]): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, root))],
    bundle: true,
    write: false,
    minify: process.env.PLANNER_MINIFY !== '0',
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    target: 'es2022',
    logLevel: 'silent',
    ...extra,
  });
  const file = result.outputFiles?.[0];
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  return file.text;
}

/** Routes PLANNER_PATH (page), its script and its styles inside the browser; the codec comes from the built viewer. */
export async function servePlanner(context: BrowserContext, origin: string, manifest: ViewerManifest): Promise<void> {
  const script = await bundle('test/support/planner-page.tsx', { jsx: 'automatic', jsxImportSource: 'preact' });
  const styles = await bundle('src/planner/ui/editor.css', { loader: { '.css': 'css' } });
  const html = `<!doctype html><html lang="en" data-wasm="/assets/${manifest.assets.wasm}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sessionplan planner</title>
<link rel="stylesheet" href="/assets/${manifest.assets.css}"><link rel="stylesheet" href="${PLANNER_PATH}editor.css">
<script type="module" src="${PLANNER_PATH}editor.js"></script></head><body><main id="app"></main></body></html>`;
  const headers = { 'content-security-policy': VIEWER_CSP };
  await context.route(`${origin}${PLANNER_PATH}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('editor.js')) return route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: script, headers });
    if (path.endsWith('editor.css')) return route.fulfill({ status: 200, contentType: 'text/css; charset=utf-8', body: styles, headers });
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html, headers });
  });
}
