// What the viewer's shared modules may pull in: renderers, string tables and the clock bundle without the codec, the
// session code or node:*, so views without WebAssembly (the MCP App view) and the planner can reuse them as they are.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const viewer = (file: string): string => fileURLToPath(new URL(`../src/viewer/${file}`, import.meta.url));

/** The source files a browser bundle of `entries` contains (esbuild's metafile: type-only imports are gone). */
async function bundledInputs(entries: string[]): Promise<string[]> {
  const result = await build({ entryPoints: entries.map(viewer), bundle: true, write: false, outdir: '/tmp/viewer-modules-test', format: 'esm', platform: 'browser', metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

describe('viewer modules', () => {
  it('renderers, string tables, language choice, clock and schedule need no codec, session code or node:*', async () => {
    const inputs = await bundledInputs(['render-plan.ts', 'render-items.ts', 'render-problem.ts', 'style-sheets.ts', 'i18n/locale.ts', 'language.ts', 'schedule.ts', 'agenda.ts', 'lanes.ts', 'workshop-day.ts']);
    expect(inputs.some((input) => input.endsWith('src/viewer/render-plan.ts'))).toBe(true);
    // The document's plain limits (how many items a plan holds) are the one piece shared: a file of constants.
    expect(inputs.filter((input) => !input.startsWith('src/viewer/'))).toEqual(['src/session/constants.ts']);
  });

  it('the export bundle adds only ical.js to them', async () => {
    const inputs = await bundledInputs(['export/index.ts']);
    const outside = inputs.filter((input) => !input.startsWith('src/viewer/'));
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((input) => input.startsWith('node_modules/ical.js/'))).toBe(true);
  });
});
