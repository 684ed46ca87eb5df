// Serves the built viewer (dist/viewer/): index.html at "/" with a strict CSP, its service worker at /sw.js, and
// content-hashed files under /assets/ cached for a year.
import { readFile, readdir } from 'node:fs/promises';
import type { StaticAssets, StaticResponse } from '../http/ports.js';

export type { StaticAssets, StaticResponse } from '../http/ports.js';

/**
 * Only what the page needs: its own script, style and the codec fetch; 'wasm-unsafe-eval' lets the page compile the
 * WASM codec without allowing eval(). Inline styles are not allowed; the viewer sets colours through the CSSOM. Workers
 * (the planner's, and the service worker that keeps the page for offline use) come from this origin only.
 */
export const VIEWER_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The service worker only fetches files of this origin into its cache. */
export const SERVICE_WORKER_CSP = "default-src 'none'; connect-src 'self'";

/** Asset names carry their content hash, so a browser may keep them forever. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  wasm: 'application/wasm',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
};

const DEFAULT_DIRECTORY = new URL('../../dist/viewer/', import.meta.url);

/**
 * Reads the built viewer into memory once (a few hundred KB). When the viewer has not been built, "/" answers 503 with
 * the command that builds it, so the API keeps working in a checkout that only ran the TypeScript build.
 */
export async function loadStaticAssets(directory: URL = DEFAULT_DIRECTORY): Promise<StaticAssets> {
  const files = new Map<string, StaticResponse>();
  const index = await readFile(new URL('index.html', directory)).catch(() => undefined);
  files.set('/', index ? pageResponse(200, index) : notBuiltResponse());
  const serviceWorker = await readFile(new URL('sw.js', directory)).catch(() => undefined);
  // Browsers look for a new service worker on every visit; no-cache makes that a revalidation, not a stale copy.
  if (serviceWorker) files.set('/sw.js', { status: 200, headers: { 'content-type': CONTENT_TYPES['js']!, 'cache-control': 'no-cache', 'content-security-policy': SERVICE_WORKER_CSP }, body: serviceWorker });
  if (index) {
    const assetDirectory = new URL('assets/', directory);
    for (const name of await readdir(assetDirectory)) {
      const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
      if (!type) continue;
      const body = await readFile(new URL(name, assetDirectory));
      files.set(`/assets/${name}`, { status: 200, headers: { 'content-type': type, 'cache-control': IMMUTABLE_CACHE }, body });
    }
  }
  return {
    lookup(path: string): StaticResponse | undefined {
      const question = path.indexOf('?');
      return files.get(question === -1 ? path : path.slice(0, question));
    },
  };
}

function pageResponse(status: number, body: Uint8Array): StaticResponse {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': VIEWER_CSP,
      // The page must be re-read on every visit: it names the current hashed assets.
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
    body,
  };
}

function notBuiltResponse(): StaticResponse {
  const html = '<!doctype html><meta charset="utf-8"><title>Viewer not built</title>'
    + '<p>The viewer page has not been built on this server: run <code>npm run build</code> (or <code>npm run build:viewer</code>).</p>';
  return pageResponse(503, new TextEncoder().encode(html));
}
