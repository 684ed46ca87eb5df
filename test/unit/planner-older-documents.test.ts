// Older documents in edit mode: a link decoded with warnings shows them as marked problems, and the link changes once they are resolved.
import LZString from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/types.js';
import { en } from '../../src/planner/i18n/en.js';
import { createEditorHost } from '../../src/planner/host.js';
import { Planner } from '../../src/planner/planner.js';
import type { Draft } from '../../src/planner/tree.js';
import { createSessionOperations } from '../../src/session/operations.js';

const BASE = 'https://sessionplan.de/';
const operations = createSessionOperations(loadCodec, { baseUrl: BASE });
let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

/** An older plan as some earlier writer made it: fields missing, one unknown, a duplicate ID, a stray reference, wrong nesting. */
const OLDER = {
  workshop: { title: 'Retro', theme: 'spring' },
  persons: [{ id: 'ana', name: 'Ana' }],
  items: [
    { type: 'block', id: 'a', title: 'Check-in', duration: 10, personIds: ['ana', 'zoe'] },
    { type: 'group', id: 'g', title: 'Main', duration: 60, children: [{ type: 'group', id: 'inner', title: 'Nested', duration: 30 }] },
    { type: 'breakout', id: 'b', title: 'Tables', duration: 30, lanes: 2, children: [{ type: 'block', id: 'a', title: 'Table', duration: 30, laneIndex: 3 }] },
  ],
};

describe('a link with decode warnings in edit mode', () => {
  it('marks each warning at its field, keeps the link until all are resolved, then makes the link create makes', async () => {
    const opened = `${BASE}#data=v2:${LZString.compressToEncodedURIComponent(JSON.stringify(OLDER))}`;
    const decoded = await operations.decodeSessionLink(opened);
    expect(decoded.warnings?.length).toBeGreaterThan(0);
    const planner = new Planner({ host: createEditorHost(codec, BASE), draft: decoded.session as unknown as Draft, openedLink: opened, labels: en.newParts });
    const paths = (): string[] => [...planner.state.problemsByPath.keys()];
    // Before the first check answers, the opened link is the link and nothing is marked yet.
    expect(planner.state).toMatchObject({ pending: true, valid: false, link: opened, problems: [] });
    await planner.settled();
    expect(planner.state.valid).toBe(false);
    expect(planner.state.link).toBe(opened);
    expect(paths()).toEqual(expect.arrayContaining(['workshop.theme', 'items[1].children[0].type']));

    planner.apply({ kind: 'remove', path: ['workshop', 'theme'] });
    // The nested group moves out to the top level, which may hold it.
    planner.apply({ kind: 'move', at: [1, 0], to: null, index: 3 });
    await planner.settled();
    expect(planner.state.link).toBe(opened);
    // Now the shape is canonical and the rules speak: the unknown person, the duplicate ID, the lane past the lanes.
    expect(paths()).toEqual(['items[0].personIds[1]', 'items[2].children[0].id', 'items[2].children[0].laneIndex']);
    planner.apply({ kind: 'set', path: ['items', 0, 'personIds'], value: ['ana'] });
    planner.apply({ kind: 'set', path: ['items', 2, 'children', 0, 'id'], value: 'a-2' });
    await planner.settled();
    expect(planner.state.link).toBe(opened);
    planner.apply({ kind: 'set', path: ['items', 2, 'children', 0, 'laneIndex'], value: 1 });
    await planner.settled();

    expect(planner.state.problems).toEqual([]);
    expect(planner.state.link).not.toBe(opened);
    const created = await operations.createSessionLink(JSON.parse(LZString.decompressFromEncodedURIComponent(planner.state.link!.split('#data=v2:')[1]!)));
    expect(created.link).toBe(planner.state.link);
  });
});
