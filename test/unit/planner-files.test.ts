// Import and export of the planner's JSON file: strict create rules with field paths in, the linked document out.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/types.js';
import { exportFileName, exportJson } from '../../src/planner/export-file.js';
import { importJson } from '../../src/planner/import-file.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { validateForCreate } from '../../src/session/validate.js';
import { block, richSession } from '../fixtures/sessions.js';

const BASE = 'https://sessionplan.de/';
let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

describe('import', () => {
  it('reads a pretty-printed file with keys in any order into the normalized document', async () => {
    const rich = richSession();
    const reordered = { items: rich.items, persons: rich.persons, blockTypes: rich.blockTypes, workshop: rich.workshop, version: '1.0' };
    const imported = importJson(codec, BASE, JSON.stringify(reordered, null, 4));
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(JSON.stringify(imported.session)).toBe(JSON.stringify(validateForCreate(rich).session));
    // Exported and read again, it is the same document and the same link as the server makes.
    const again = importJson(codec, BASE, exportJson(imported.session));
    expect(again).toEqual(imported);
    const { link } = await createSessionOperations(loadCodec, { baseUrl: BASE }).createSessionLink(rich);
    expect((await createSessionOperations(loadCodec, { baseUrl: BASE }).createSessionLink(imported.session)).link).toBe(link);
  });

  it('refuses what create refuses, naming each field by its path', () => {
    const rich = richSession() as { items: unknown[]; workshop: Record<string, unknown> };
    rich.workshop.venue = 'Hall';
    rich.items.push(block('x', { blockTypeId: 'nope', duration: -1 }));
    const imported = importJson(codec, BASE, JSON.stringify(rich));
    expect(imported.ok).toBe(false);
    if (imported.ok) return;
    expect(imported.problems.map((problem) => problem.path)).toEqual(['workshop.venue', 'items[3].duration']);
    const rules = importJson(codec, BASE, JSON.stringify({ ...richSession(), items: [block('x', { blockTypeId: 'nope' })] }));
    expect(rules.ok ? [] : rules.problems).toEqual([{ path: 'items[0].blockTypeId', message: 'block type "nope" is not declared in blockTypes', rule: { kind: 'undeclaredCategory' } }]);
  });

  it('refuses text that is not JSON, and nesting that would make parsing costly, before parsing it', () => {
    const broken = importJson(codec, BASE, '{"version": "1.0",');
    expect(broken.ok ? [] : broken.problems[0]!.message).toMatch(/^the file is not valid JSON/);
    const deep = importJson(codec, BASE, `${'['.repeat(30_000)}${']'.repeat(30_000)}`);
    expect(deep.ok ? '' : deep.problems[0]!.message).toMatch(/^the file nests deeper than/);
  });
});

describe('export', () => {
  it('names the file after the workshop', () => {
    const session = validateForCreate(richSession()).session;
    expect(exportFileName(session)).toBe('sessionplan-team-offsite-2026-03-14.json');
    expect(exportFileName({ ...session, workshop: { ...session.workshop, title: 'Übung: Café!', date: null } })).toBe('sessionplan-ubung-cafe.json');
  });
});
