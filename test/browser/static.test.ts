// Static viewer files (src/assets/static.ts): what "/" and "/assets/*" answer, directly and through the real server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedServer } from '../../src/server/start-server.js';
import { IMMUTABLE_CACHE, loadStaticAssets, SERVICE_WORKER_CSP, VIEWER_CSP } from '../../src/assets/static.js';
import { chromiumPath, launchChromium } from '../support/chromium.js';
import { ensureViewerBuilt, startViewerServer, type ViewerManifest } from '../support/viewer-harness.js';

let manifest: ViewerManifest;
let server: StartedServer;

beforeAll(async () => {
  manifest = ensureViewerBuilt();
  server = await startViewerServer();
});

afterAll(async () => {
  await server?.close();
});

describe('static viewer files', () => {
  it('serves index.html with the CSP and hashed assets with their types and a one-year immutable cache', async () => {
    const assets = await loadStaticAssets();
    const index = assets.lookup('/')!;
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toBe(VIEWER_CSP);
    expect(index.headers['cache-control']).toBe('no-store');
    const html = new TextDecoder().decode(index.body);
    for (const file of Object.values(manifest.assets)) expect(html).toContain(`/assets/${file}`);

    const types = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', wasm: 'application/wasm' } as const;
    for (const [kind, file] of Object.entries(manifest.assets) as Array<[keyof typeof types, string]>) {
      expect(file).toMatch(/-[0-9a-f]{16}\.(js|css|wasm)$/);
      const answer = assets.lookup(`/assets/${file}?v=1`)!;
      expect(answer.status).toBe(200);
      expect(answer.headers).toEqual({ 'content-type': types[kind], 'cache-control': IMMUTABLE_CACHE });
    }
    expect(new Uint8Array(assets.lookup(`/assets/${manifest.assets.wasm}`)!.body.slice(0, 4))).toEqual(new Uint8Array([0, 0x61, 0x73, 0x6d]));

    // The export bundle is served the same way but loaded on demand: the page does not name it, its script does.
    expect(manifest.onDemand.export).toMatch(/^viewer-export-[0-9a-f]{16}\.js$/);
    expect(assets.lookup(`/assets/${manifest.onDemand.export}`)!.headers).toEqual({ 'content-type': types.js, 'cache-control': IMMUTABLE_CACHE });
    expect(html).not.toContain(manifest.onDemand.export);
    expect(new TextDecoder().decode(assets.lookup(`/assets/${manifest.assets.js}`)!.body)).toContain(`./${manifest.onDemand.export}`);
  });

  it('serves the service worker at /sw.js, revalidated on every visit, naming every file of the build for offline use', async () => {
    const assets = await loadStaticAssets();
    const worker = assets.lookup('/sw.js')!;
    expect(worker.headers).toEqual({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': SERVICE_WORKER_CSP });
    const text = new TextDecoder().decode(worker.body);
    for (const file of [...Object.values(manifest.assets), ...Object.values(manifest.onDemand)]) expect(text).toContain(`/assets/${file}`);
    expect(VIEWER_CSP).toContain("worker-src 'self'");
  });

  it('ships the viewer bundle with V8\'s compile hint as its first line, so Chromium compiles it while it streams in', async () => {
    const assets = await loadStaticAssets();
    const bundle = new TextDecoder().decode(assets.lookup(`/assets/${manifest.assets.js}`)!.body);
    expect(bundle.split('\n', 1)[0]).toBe('//# allFunctionsCalledOnLoad');
  });

  it('answers nothing for other paths, so the router can say 404', async () => {
    const assets = await loadStaticAssets();
    for (const path of ['/index.html', '/assets/', '/assets/nope.js', '/assets/../index.html', '/manifest.json', '/assets/%2e%2e/manifest.json']) {
      expect(assets.lookup(path), path).toBeUndefined();
    }
  });

  it('answers 503 with the build command when the viewer was never built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sessionplan-noviewer-'));
    try {
      const assets = await loadStaticAssets(pathToFileURL(`${empty}/`));
      const index = assets.lookup('/')!;
      expect(index.status).toBe(503);
      expect(new TextDecoder().decode(index.body)).toContain('npm run build');
      expect(assets.lookup(`/assets/${manifest.assets.js}`)).toBeUndefined();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('is served by the real server with its security headers, and unknown assets are 404', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(VIEWER_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const wasm = await fetch(`${server.url}/assets/${manifest.assets.wasm}`);
    expect(wasm.status).toBe(200);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
    expect((await fetch(`${server.url}/assets/nope.js`)).status).toBe(404);
  });

  it('browser tests fail (not skip) naming CHROMIUM_PATH and the install command when Chromium is missing', async () => {
    await expect(launchChromium('/nonexistent/chromium')).rejects.toThrow(
      'Chromium is not at /nonexistent/chromium (browser tests launch CHROMIUM_PATH, default /usr/bin/chromium); install chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable',
    );
  });

  it('take the executable from CHROMIUM_PATH, else Debian\'s /usr/bin/chromium', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome/chrome' })).toBe('/opt/chrome/chrome');
    expect(chromiumPath({ CHROMIUM_PATH: '' })).toBe('/usr/bin/chromium');
    expect(chromiumPath({})).toBe('/usr/bin/chromium');
  });
});
