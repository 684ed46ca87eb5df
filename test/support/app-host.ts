// Test helper: a real MCP Apps host in headless Chromium. The official ext-apps AppBridge (app-host-page.ts) loads the
// view document into a sandboxed iframe of another origin, served under the spec's default CSP; the harness records
// every CSP violation, page error and network request of the view.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { launchChromium, type ChromiumHandle } from './chromium.js';

const root = new URL('../../', import.meta.url);

/** The CSP a host MUST apply when the resource declares no `_meta.ui.csp` (MCP Apps 2026-01-26, "Host Behavior"). */
export const SPEC_DEFAULT_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

/** Where the screenshots of each case are kept (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('test-artifacts/mcp-app/', root));

/** Builds dist/mcp-app (and what the server needs) when a targeted run skipped `npm run build`. */
export function ensureAppViewBuilt(): void {
  if (existsSync(new URL('dist/mcp-app/plan-view.html', root))) return;
  execFileSync('npm', ['run', '--silent', 'build:app'], { cwd: fileURLToPath(root), stdio: 'pipe' });
}

async function hostScript(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('test/support/app-host-page.ts', root))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export interface ViewProblems {
  cspViolations: string[];
  pageErrors: string[];
  consoleErrors: string[];
  /** Requests the view made beyond loading its own document. */
  requests: string[];
}

export interface AppHost {
  readonly browser: ChromiumHandle;
  /** A fresh page with the host, the view loaded from `viewHtml` under `csp`, initialized with `hostContext`. */
  open(viewHtml: string, hostContext: Record<string, unknown>, options?: { csp?: string; openLinks?: 'accept' | 'refuse'; viewport?: { width: number; height: number } }): Promise<HostedView>;
  close(): Promise<void>;
}

export interface HostedView {
  readonly page: Page;
  /** The view's frame (for locators and its DOM). */
  readonly frame: Frame;
  /** What went wrong in the view so far: CSP violations (read from its frame), page errors, console errors, requests. */
  problems(): Promise<ViewProblems>;
  sendToolInput(args: unknown): Promise<void>;
  sendToolResult(result: unknown): Promise<void>;
  setHostContext(context: Record<string, unknown>): Promise<void>;
  record(): Promise<{ sizes: { width?: number; height?: number }[]; openedLinks: string[]; initialized: boolean; appInfo: unknown }>;
  /** A screenshot of the host page (the view in its frame) under test-artifacts/mcp-app/. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts Chromium and a loopback server for the host page (127.0.0.1) and the view (localhost: another origin). */
export async function startAppHost(): Promise<AppHost> {
  const script = await hostScript();
  const views = new Map<string, { html: string; csp: string }>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (url.pathname === '/host.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title>
<style>body{margin:0;padding:16px;font-family:sans-serif;background:#eef0f4}#host{max-width:880px;margin:0 auto}</style></head>
<body><div id="host"></div><script type="module">${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`);
      return;
    }
    const view = url.pathname === '/view.html' ? views.get(url.searchParams.get('id') ?? '') : undefined;
    if (view !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': view.csp });
      response.end(view.html);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const hostOrigin = `http://127.0.0.1:${port}`;
  const viewOrigin = `http://localhost:${port}`;
  let browser: ChromiumHandle;
  try {
    browser = await launchChromium();
  } catch (error) {
    server.close();
    throw error;
  }
  // In every frame, before its own scripts: CSP violations are recorded where they happen (the view's frame).
  await browser.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective}: ${event.blockedURI || event.sample} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber})`));
  });
  let nextId = 0;

  return {
    browser,
    async open(viewHtml, hostContext, options = {}) {
      const id = String(++nextId);
      views.set(id, { html: viewHtml, csp: options.csp ?? SPEC_DEFAULT_CSP });
      const viewUrl = `${viewOrigin}/view.html?id=${id}`;
      const page = await browser.context.newPage();
      if (options.viewport) await page.setViewportSize(options.viewport);
      const problems: ViewProblems = { cspViolations: [], pageErrors: [], consoleErrors: [], requests: [] };
      page.on('pageerror', (error) => problems.pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.consoleErrors.push(message.text());
      });
      page.on('request', (request) => {
        if (request.frame().url().startsWith(viewOrigin) && request.url() !== viewUrl) problems.requests.push(request.url());
      });
      await page.goto(`${hostOrigin}/host.html`);
      await page.waitForFunction(() => 'sessionplanHost' in window);
      await page.evaluate(([url, context, links]) => window.sessionplanHost.start(url, context, links), [viewUrl, hostContext, options.openLinks ?? 'accept'] as const);
      const frame = page.frames().find((candidate) => candidate.url() === viewUrl);
      if (frame === undefined) throw new Error('the view frame did not load');
      return {
        page,
        frame,
        async problems() {
          const seen = await frame.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
          return { ...problems, cspViolations: [...seen] };
        },
        sendToolInput: (args) => page.evaluate((value) => window.sessionplanHost.sendToolInput(value as Record<string, unknown>), args),
        sendToolResult: (result) => page.evaluate((value) => window.sessionplanHost.sendToolResult(value as Record<string, unknown>), result),
        setHostContext: (context) => page.evaluate((value) => window.sessionplanHost.setHostContext(value), context),
        async record() {
          return page.evaluate(() => JSON.parse(JSON.stringify(window.sessionplanHost.record)));
        },
        async screenshot(name) {
          mkdirSync(ARTIFACTS, { recursive: true });
          const path = `${ARTIFACTS}${name}.png`;
          // The whole host page in the viewport, painted: a full-page capture of a taller page left the bottom of the
          // view's frame (another process) unpainted.
          const size = page.viewportSize()!;
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          if (height > size.height) await page.setViewportSize({ width: size.width, height });
          await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          await page.screenshot({ path });
          if (height > size.height) await page.setViewportSize(size);
          return path;
        },
        close: () => page.close(),
      };
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
