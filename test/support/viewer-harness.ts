// Test helper for the viewer: builds it when missing, starts the real server on port 0, serves in-page test modules.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { startServer, type StartedServer } from '../../src/server/start-server.js';
import { chromiumPath, launchChromium, type ChromiumHandle, type ChromiumOptions } from './chromium.js';

const root = new URL('../../', import.meta.url);

export interface ViewerManifest {
  index: string;
  assets: { js: string; css: string; wasm: string };
  /** Bundles the page loads when they are first needed (the exports). */
  onDemand: { export: string; editor: string; editorCss: string; editorWorker: string; live: string; liveCss: string; library: string };
}

/** Builds dist/viewer (and the .wasm it needs) when a targeted run skipped `npm run build`; returns its manifest. */
export function ensureViewerBuilt(): ViewerManifest {
  const manifest = new URL('dist/viewer/manifest.json', root);
  if (!existsSync(manifest)) {
    const cwd = fileURLToPath(root);
    if (!existsSync(new URL('build/codec.wasm', root))) execFileSync('npm', ['run', '--silent', 'build:wasm'], { cwd, stdio: 'pipe' });
    execFileSync('npm', ['run', '--silent', 'build:viewer'], { cwd, stdio: 'pipe' });
  }
  return JSON.parse(readFileSync(manifest, 'utf8')) as ViewerManifest;
}

/** The real server (uWS, REST, static viewer) on a free loopback port, quiet logs. */
export async function startViewerServer(env: Record<string, string> = {}): Promise<StartedServer> {
  return startServer(loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env }));
}

/** Path under which the test's own in-page module is served (same origin, so the page's CSP allows importing it). */
export const PAGE_CODEC_PATH = '/assets/__test__/page-codec.js';

/**
 * Bundles test/support/page-codec.ts (browser codec + lz-string) and answers requests for it inside the browser,
 * so the server stays unchanged and the page keeps its strict CSP.
 */
export async function servePageCodec(context: BrowserContext, origin: string): Promise<void> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('test/support/page-codec.ts', root))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    target: 'es2022',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  await context.route(`${origin}${PAGE_CODEC_PATH}`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: code }));
}

/** Calls an export of the in-page module with JSON arguments (a string expression: no test-runner code is serialized). */
export function callPageCodec(name: string, ...args: unknown[]): string {
  const list = args.map((arg) => JSON.stringify(arg)).join(', ');
  return `import(${JSON.stringify(PAGE_CODEC_PATH)}).then((module) => module.${name}(${list}))`;
}

/** What a Chromium test file works with: the built viewer, the real server, and Chromium serving the in-page module. */
export interface ViewerPage {
  manifest: ViewerManifest;
  server: StartedServer;
  browser: ChromiumHandle;
  close(): Promise<void>;
}

/** Builds the viewer if needed, starts the server and Chromium, and serves the in-page module; a failed step closes the rest. */
export async function openViewerPage(env: Record<string, string> = {}, chromium: ChromiumOptions = {}): Promise<ViewerPage> {
  const manifest = ensureViewerBuilt();
  const browser = await launchChromium(chromiumPath(), chromium);
  let server: StartedServer | undefined;
  try {
    server = await startViewerServer(env);
    await servePageCodec(browser.context, server.url);
  } catch (error) {
    await server?.close();
    await browser.close();
    throw error;
  }
  const started = server;
  return {
    manifest,
    server: started,
    browser,
    async close() {
      await browser.close();
      await started.close();
    },
  };
}

/** An English and a German browser, each with its own server: opened before a test file's tests, closed after them. */
export interface ViewerPagesByLanguage {
  readonly english: () => ViewerPage;
  readonly german: () => ViewerPage;
}

/** Call at a test file's top level: the pages open in beforeAll and close in afterAll. */
export function useEnglishAndGermanPages(): ViewerPagesByLanguage {
  let english: ViewerPage | undefined;
  let german: ViewerPage | undefined;
  beforeAll(async () => {
    english = await openViewerPage();
    german = await openViewerPage({}, { locale: 'de-DE' });
  }, 60_000);
  afterAll(async () => {
    await english?.close();
    await german?.close();
  });
  const opened = (page: ViewerPage | undefined): ViewerPage => {
    if (page === undefined) throw new Error('the viewer pages open in beforeAll');
    return page;
  };
  return { english: () => opened(english), german: () => opened(german) };
}
