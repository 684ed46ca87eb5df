// Builds the viewer page into dist/viewer/: bundles main.ts and the on-demand bundles (esbuild), content-hashes every
// asset, writes the library of methods and templates as static JSON, index.html, the service worker sw.js and manifest.json.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../../', import.meta.url);
const source = new URL('src/viewer/', root);
const output = new URL('dist/viewer/', root);
// Built next to the target and moved into place at the end, so nobody reads a half-written viewer.
const staging = new URL(`dist/viewer.staging-${process.pid}/`, root);
const assets = new URL('assets/', staging);
const wasmSource = new URL('build/codec.wasm', root);

/** First 16 hex digits of the SHA-256 of the content: the cache key in every asset name. */
function contentHash(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

async function writeHashed(name, extension, bytes) {
  const file = `${name}-${contentHash(bytes)}.${extension}`;
  await writeFile(new URL(file, assets), bytes);
  return file;
}

async function bundle(entry, extra) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, source))],
    bundle: true,
    write: false,
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    ...extra,
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  return file.contents;
}

const wasm = await readFile(wasmSource).catch(() => {
  throw new Error('build/codec.wasm is missing: run `npm run build:wasm` before `npm run build:viewer`.');
});

await rm(staging, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const browserScript = { format: 'esm', platform: 'browser', conditions: ['browser'], target: 'es2022' };
const wasmFile = await writeHashed('codec', 'wasm', wasm);
// The methods and templates (src/library/) as one static JSON file, fetched when the empty page or "Insert method"
// first needs it: the same data as the MCP templates resource, made from the same code.
const catalogueModule = await bundle('../library/catalogue.ts', { format: 'esm', platform: 'neutral' });
const { libraryCatalogue } = await import(`data:text/javascript;base64,${Buffer.from(catalogueModule).toString('base64')}`);
const libraryFile = await writeHashed('library', 'json', Buffer.from(JSON.stringify(libraryCatalogue())));
const cssFile = await writeHashed('viewer', 'css', await bundle('../plan-view/styles.css', { loader: { '.css': 'css' } }));
// The calendar and agenda exports (ical.js is most of their size) load on the first download: a bundle of their
// own, not an esbuild split chunk, so the page's start needs no shared chunk and no second request.
const exportFile = await writeHashed('viewer-export', 'js', await bundle('export/index.ts', browserScript));
// Edit mode (src/planner/ui, Preact and SortableJS) loads when "Edit plan" or "New plan" is pressed, with its styles; it
// borrows the session code from the page (planner/host.ts), so it carries no second copy of it.
// Its worker validates and compresses each edit off the main thread with the page's session code and codec (a bundle
// of its own, started with edit mode).
const workerFile = await writeHashed('planner-worker', 'js', await bundle('../planner/worker.ts', {
  ...browserScript,
  define: { __CODEC_WASM_FILE__: JSON.stringify(`./${wasmFile}`) },
  banner: { js: '//# allFunctionsCalledOnLoad' },
}));
const editorScript = {
  ...browserScript,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  define: { __PLANNER_WORKER_FILE__: JSON.stringify(`./${workerFile}`) },
  banner: { js: '//# allFunctionsCalledOnLoad' },
};
const editorFile = await writeHashed('planner', 'js', await bundle('../planner/ui/mount.tsx', editorScript));
const editorCssFile = await writeHashed('planner', 'css', await bundle('../planner/ui/editor.css', { loader: { '.css': 'css' } }));
// The live view (src/live/) loads when "Live" is chosen, with its styles; it takes the page's locale from the page.
const liveFile = await writeHashed('live', 'js', await bundle('../live/mount.ts', { ...browserScript, banner: { js: '//# allFunctionsCalledOnLoad' } }));
const liveCssFile = await writeHashed('live', 'css', await bundle('../live/live.css', { loader: { '.css': 'css' } }));
const jsFile = await writeHashed('viewer', 'js', await bundle('main.ts', {
  ...browserScript,
  // The bundle sits next to the hashed .wasm and the export bundle in /assets/, so it finds them relative to its own URL.
  define: {
    __CODEC_WASM_FILE__: JSON.stringify(`./${wasmFile}`),
    __EXPORT_MODULE_FILE__: JSON.stringify(`./${exportFile}`),
    __EDITOR_MODULE_FILE__: JSON.stringify(`./${editorFile}`),
    __EDITOR_STYLE_FILE__: JSON.stringify(`./${editorCssFile}`),
    __LIVE_MODULE_FILE__: JSON.stringify(`./${liveFile}`),
    __LIVE_STYLE_FILE__: JSON.stringify(`./${liveCssFile}`),
    __LIBRARY_FILE__: JSON.stringify(`./${libraryFile}`),
  },
  // V8's explicit compile hint (Chromium 136+): compile every function while the script streams in, off the main
  // thread, instead of lazily on first call. Almost every function of the bundle runs to open a plan, and lazy
  // compilation would land in the middle of decode and render, on the page's main thread.
  banner: { js: '//# allFunctionsCalledOnLoad' },
}));

const template = await readFile(new URL('index.html', source), 'utf8');
const html = template
  .replaceAll('%VIEWER_JS%', `/assets/${jsFile}`)
  .replaceAll('%VIEWER_CSS%', `/assets/${cssFile}`)
  .replaceAll('%CODEC_WASM%', `/assets/${wasmFile}`);
await writeFile(new URL('index.html', staging), html);

// The service worker keeps every file of this build for use without a network; its name is fixed (/sw.js), and a
// new build changes its text (the file list and version), which is how browsers notice the update.
const offlineFiles = ['/', ...[jsFile, cssFile, wasmFile, exportFile, editorFile, editorCssFile, workerFile, liveFile, liveCssFile, libraryFile].map((file) => `/assets/${file}`)];
const offlineVersion = contentHash(Buffer.from(offlineFiles.join('\n'))).slice(0, 12);
await writeFile(new URL('sw.js', staging), await bundle('service-worker.ts', {
  ...browserScript,
  format: 'iife',
  define: { __OFFLINE_FILES__: JSON.stringify(offlineFiles), __OFFLINE_VERSION__: JSON.stringify(offlineVersion) },
}));

const manifest = { index: 'index.html', assets: { js: jsFile, css: cssFile, wasm: wasmFile }, onDemand: { export: exportFile, editor: editorFile, editorCss: editorCssFile, editorWorker: workerFile, live: liveFile, liveCss: liveCssFile, library: libraryFile }, serviceWorker: 'sw.js', offlineVersion };
await writeFile(new URL('manifest.json', staging), `${JSON.stringify(manifest, null, 2)}\n`);
await rm(output, { recursive: true, force: true });
await rename(staging, output);
console.log(`viewer: ${basename(fileURLToPath(output))}/ ← ${jsFile}, ${cssFile}, ${wasmFile}; on demand ${exportFile}, ${editorFile}, ${editorCssFile}, ${workerFile}, ${liveFile}, ${liveCssFile}, ${libraryFile}`);
