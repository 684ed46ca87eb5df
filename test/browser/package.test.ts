// The package's browser surface in Chromium: docs/library.md's "Use the codec in a browser" snippet, bundled against the built
// `sessionplan-mcp/codec` and `sessionplan-mcp/link` exports (browser condition), runs in a page and agrees with Node.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import LZString from 'lz-string';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionLink } from '../../src/index.js';
import type { StartedServer } from '../../src/server/start-server.js';
import { launchChromium, type ChromiumHandle } from '../support/chromium.js';
import { ensureViewerBuilt, startViewerServer } from '../support/viewer-harness.js';
import { workshopPlan } from '../support/viewer-plans.js';

const root = new URL('../../', import.meta.url);
const SNIPPET_PATH = '/assets/__test__/guide-snippet.js';

let server: StartedServer;
let browser: ChromiumHandle;
let sandbox: string;

/** The first ```js block under the heading "Use the codec in a browser" of docs/library.md (the package's library guide). */
function guideSnippet(): string {
  const guide = readFileSync(new URL('docs/library.md', root), 'utf8');
  const section = guide.split(/^## /m).find((part) => part.startsWith('Use the codec in a browser'));
  const code = section && /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('docs/library.md has no ```js snippet under "## Use the codec in a browser"');
  return code;
}

/** Bundles the snippet the way an app would: `sessionplan-mcp/*` resolved through package.json exports (browser condition). */
async function bundleSnippet(): Promise<string> {
  const missing = ['dist/link/browser.js', 'dist/codec/browser.js'].filter((file) => !existsSync(new URL(file, root)));
  if (missing.length > 0) throw new Error(`built entries missing (${missing.join(', ')}): run \`npm run build\` first`);
  // A node_modules folder in which the package is installed as itself, so resolution goes through its exports map.
  sandbox = mkdtempSync(join(tmpdir(), 'sessionplan-package-'));
  mkdirSync(join(sandbox, 'node_modules'));
  symlinkSync(fileURLToPath(root), join(sandbox, 'node_modules', 'sessionplan-mcp'), 'dir');
  const result = await build({
    stdin: { contents: guideSnippet(), resolveDir: sandbox, sourcefile: 'guide-snippet.js', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    target: 'es2022',
    logLevel: 'silent',
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  // Proves the exports map was used: the built files, not the TypeScript sources.
  expect(inputs.some((file) => file.endsWith('dist/link/browser.js'))).toBe(true);
  expect(inputs.some((file) => file.endsWith('dist/codec/browser.js'))).toBe(true);
  return result.outputFiles[0]!.text;
}

beforeAll(async () => {
  ensureViewerBuilt();
  const snippet = await bundleSnippet();
  browser = await launchChromium();
  server = await startViewerServer();
  const wasm = readFileSync(new URL('dist/codec/codec.wasm', root));
  // The app serves the snippet and /codec.wasm itself; here the browser answers both for the real server's origin.
  await browser.context.route(`${server.url}${SNIPPET_PATH}`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: snippet }));
  await browser.context.route(`${server.url}/codec.wasm`, (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: wasm }));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
});

/** Runs the snippet on a page opened at `url` and returns its console lines by their first word(s). */
async function runSnippet(url: string): Promise<{ lines: string[]; errors: string[]; page: Page }> {
  const page = await browser.context.newPage();
  const lines: string[] = [];
  const errors: string[] = [];
  page.on('console', (message) => lines.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.evaluate(`import(${JSON.stringify(SNIPPET_PATH)}).then(() => undefined)`);
  return { lines, errors, page };
}

const line = (lines: string[], prefix: string): string | undefined => lines.find((text) => text.startsWith(`${prefix} `))?.slice(prefix.length + 1);

describe('docs/library.md browser snippet against the built package exports', () => {
  it('compresses like lz-string, creates the same link as Node and decodes the page\'s own link', async () => {
    const { link: pageLink } = await createSessionLink(workshopPlan(), { baseUrl: `${server.url}/` });
    const { lines, errors, page } = await runSnippet(pageLink);

    expect(errors).toEqual([]);
    expect(line(lines, 'payload')).toBe(LZString.compressToEncodedURIComponent('{"hello":"Grüße 👋"}'));
    expect(line(lines, 'text')).toBe('{"hello":"Grüße 👋"}');
    expect(line(lines, 'codec error')).toBe('INVALID_PAYLOAD');
    const snippetSession = {
      version: '1.0',
      workshop: { title: 'Team offsite', description: '', date: '2026-06-01', startTime: '09:00' },
      blockTypes: [{ id: 'talk', name: 'Talk', color: '#2d5bd7' }],
      persons: [{ id: 'ana', name: 'Ana', role: 'Host' }],
      items: [{ type: 'block', id: 'intro', title: 'Intro', duration: 30, blockTypeId: 'talk', personIds: ['ana'], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 }],
    };
    const expected = await createSessionLink(snippetSession, { baseUrl: 'https://sessionplan.de/' });
    expect(line(lines, 'link')).toBe(`${expected.link} 30`);
    expect(line(lines, 'decoded')).toBe('Design Sprint Kickoff warnings: 0');
    await page.close();
  });

  it('reports a legacy link as SessionError with the sentence saying what to supply', async () => {
    const { lines, errors, page } = await runSnippet(`${server.url}/#data=N4IgzgpgTg`);
    expect(errors).toEqual([]);
    expect(line(lines, 'decode error')).toMatch(/^SESSION_DECODE_FAILED SESSION_DECODE_FAILED: link: .*v2:/);
    await page.close();
  });
});
