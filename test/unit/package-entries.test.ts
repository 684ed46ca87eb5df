// Browser entries stay browser-safe: walks each `browser` export's import graph (and the viewer's) for node:* or uWebSockets.js.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { exports: Record<string, unknown> };
const NODE_BUILTINS = new Set(builtinModules);

/** Export keys whose conditions include `browser`, with the built file they point to. */
function browserExports(): Array<{ key: string; target: string }> {
  const found: Array<{ key: string; target: string }> = [];
  for (const [key, value] of Object.entries(packageJson.exports)) {
    if (value && typeof value === 'object' && typeof (value as Record<string, unknown>)['browser'] === 'string') {
      found.push({ key, target: (value as Record<string, string>)['browser']! });
    }
  }
  return found;
}

/** The TypeScript source of a built file: ./dist/x/y.js → src/x/y.ts (tests read sources; the build mirrors them). */
function sourceOf(target: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(target);
  if (!match) throw new Error(`browser export ${target} is not a file under ./dist/`);
  return fileURLToPath(new URL(`src/${match[1]}.ts`, root));
}

interface Graph {
  /** Every module esbuild read while bundling, as paths relative to the repo. */
  files: string[];
  /** Imports that must never reach a browser bundle, with the file that imported them. */
  forbidden: string[];
}

/** Bundles the entry for the browser and records every import; forbidden ones are kept external so the walk completes. */
async function walk(entry: string): Promise<Graph> {
  const forbidden: string[] = [];
  const recorder: Plugin = {
    name: 'forbidden-imports',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0]!;
        if (args.path.startsWith('node:') || NODE_BUILTINS.has(bare) || args.path.startsWith('uWebSockets.js')) {
          forbidden.push(`${args.path} (imported by ${args.importer.replace(fileURLToPath(root), '')})`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    metafile: true,
    logLevel: 'silent',
    define: { __CODEC_WASM_FILE__: '"./codec.wasm"' },
    plugins: [recorder],
  });
  return { files: Object.keys(result.metafile.inputs), forbidden };
}

describe('browser entries', () => {
  const entries = browserExports();

  it('package.json declares browser conditions for ./codec and ./link', () => {
    expect(entries.map((entry) => entry.key).sort()).toEqual(expect.arrayContaining(['./codec', './link']));
  });

  for (const { key, target } of entries) {
    it(`${key} (${target}) reaches no node:* module and no uWebSockets.js`, async () => {
      const graph = await walk(sourceOf(target));
      expect(graph.forbidden).toEqual([]);
      expect(graph.files.some((file) => file.startsWith('src/'))).toBe(true);
    });
  }

  it('the viewer bundle reaches no node:* module and no uWebSockets.js, and uses the shared codec and schema', async () => {
    const graph = await walk(fileURLToPath(new URL('src/viewer/main.ts', root)));
    expect(graph.forbidden).toEqual([]);
    expect(graph.files).toEqual(expect.arrayContaining(['src/codec/browser.ts', 'src/session/schema.ts']));
  });

  it('the walker does catch a Node import (so a green result means something)', async () => {
    const graph = await walk(fileURLToPath(new URL('src/assets/static.ts', root)));
    expect(graph.forbidden.some((line) => line.startsWith('node:fs/promises'))).toBe(true);
  });

  it('every browser export points at a file the build produced', () => {
    const missing = entries.filter(({ target }) => !existsSync(new URL(target, root))).map(({ target }) => target);
    expect(missing, `missing after build (run \`npm run build\` first): ${missing.join(', ')}`).toEqual([]);
  });
});
