// What the plan view may pull in: renderers, string tables and the clock bundle without the codec, the session code or
// node:*, so surfaces without WebAssembly (the MCP App view), the planner and the viewer can share them as they are.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const source = (file: string): string => fileURLToPath(new URL(`../../src/${file}`, import.meta.url));

/** The source files a browser bundle of `entries` contains (esbuild's metafile: type-only imports are gone). */
async function bundledInputs(entries: string[]): Promise<string[]> {
  const result = await build({ entryPoints: entries.map(source), bundle: true, write: false, outdir: '/tmp/viewer-modules-test', format: 'esm', platform: 'browser', metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

describe('plan view modules', () => {
  it('renderers, string tables, language choice, clock and schedule need no codec, session code or node:*', async () => {
    const inputs = await bundledInputs(['render-plan.ts', 'render-items.ts', 'render-problem.ts', 'style-sheets.ts', 'i18n/locale.ts', 'language.ts', 'schedule.ts', 'agenda.ts', 'lanes.ts', 'workshop-day.ts'].map((file) => `plan-view/${file}`));
    expect(inputs.some((input) => input.endsWith('src/plan-view/render-plan.ts'))).toBe(true);
    // The document's plain limits (how many items a plan holds) are the one piece shared: a file of constants.
    expect(inputs.filter((input) => !input.startsWith('src/plan-view/'))).toEqual(['src/session/constants.ts']);
  });

  it('the viewer\'s export bundle adds only ical.js (the calendar) and Papa Parse (the CSV table) to them', async () => {
    const inputs = await bundledInputs(['viewer/export/index.ts']);
    const outside = inputs.filter((input) => !input.startsWith('src/viewer/') && !input.startsWith('src/plan-view/') && input !== 'src/session/constants.ts');
    expect(new Set(outside.map((input) => input.split('/')[1]))).toEqual(new Set(['ical.js', 'papaparse']));
  });
});
