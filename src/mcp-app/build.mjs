// Builds the MCP App plan view into dist/mcp-app/plan-view.html: one self-contained document, its CSS and JS inline.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = new URL('../../', import.meta.url);
const source = new URL('src/mcp-app/', root);
const output = new URL('dist/mcp-app/', root);
// Built next to the target and moved into place at the end, so a running server never reads a half-written view.
const staging = new URL(`dist/mcp-app.staging-${process.pid}/`, root);
const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

/** Where the server writes its PUBLIC_BASE_URL (src/assets/app-view.ts); it must stay in the document exactly once. */
const BASE_URL_PLACEHOLDER = '%PUBLIC_BASE_URL%';

async function bundle(options) {
  const result = await build({ bundle: true, write: false, minify: true, sourcemap: false, legalComments: 'none', logLevel: 'warning', ...options });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no output');
  return file.text;
}

// The plan view's styles first, the view's own on top: the plan looks as on the page, in the host's theme.
const css = await bundle({
  stdin: { contents: '@import "../plan-view/styles.css";\n@import "./styles.css";\n', resolveDir: fileURLToPath(source), loader: 'css', sourcefile: 'plan-view.css' },
  loader: { '.css': 'css' },
});
const js = await bundle({
  entryPoints: [fileURLToPath(new URL('main.ts', source))],
  format: 'esm',
  platform: 'browser',
  conditions: ['browser'],
  target: 'es2022',
  define: { __VIEW_VERSION__: JSON.stringify(version) },
  // As the viewer's bundle: V8 compiles every function while parsing instead of lazily on its first call.
  banner: { js: '//# allFunctionsCalledOnLoad' },
});

// Inline code must not close its own element early: `</script` and `</style` can only occur in strings, comments
// and regular expressions there, where `<\/` means the same.
const inlineScript = js.replace(/<\/(script)/gi, '<\\/$1');
const inlineStyle = css.replace(/<\/(style)/gi, '<\\/$1');
const template = await readFile(new URL('index.html', source), 'utf8');
const html = template.replace('%VIEW_CSS%', () => inlineStyle).replace('%VIEW_JS%', () => inlineScript);
if (html.split(BASE_URL_PLACEHOLDER).length !== 2) throw new Error(`the built view must name ${BASE_URL_PLACEHOLDER} exactly once`);

await rm(staging, { recursive: true, force: true });
await mkdir(staging, { recursive: true });
await writeFile(new URL('plan-view.html', staging), html);
await rm(output, { recursive: true, force: true });
await rename(staging, output);
const bytes = Buffer.byteLength(html);
console.log(`mcp-app: mcp-app/plan-view.html ${(bytes / 1024).toFixed(1)} KiB (gzip ${(gzipSync(html, { level: 9 }).length / 1024).toFixed(1)} KiB; script ${(Buffer.byteLength(inlineScript) / 1024).toFixed(1)} KiB, style ${(Buffer.byteLength(inlineStyle) / 1024).toFixed(1)} KiB)`);
