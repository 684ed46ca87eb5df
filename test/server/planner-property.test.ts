// Property: random edit sequences through the planner's state layer only ever put links in the address bar that lz-string
// decodes to a document the server's create accepts and turns into the very same link; invalid drafts never make one.
// Checks answer asynchronously (a worker in the page): fast-check's scheduler lets them arrive after any later edits.
import fc from 'fast-check';
import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/types.js';
import type { DraftEncoder } from '../../src/planner/encoder.js';
import { emptyDraft } from '../../src/planner/factory.js';
import { en } from '../../src/planner/i18n/en.js';
import { createEditorHost } from '../../src/planner/host.js';
import { Planner, type PlannerState } from '../../src/planner/planner.js';
import type { Draft } from '../../src/planner/tree.js';
import { SessionError } from '../../src/session/errors.js';
import { DEFAULT_BASE_URL } from '../../src/session/link.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { validateForCreate } from '../../src/session/validate.js';
import { richSession } from '../fixtures/sessions.js';
import { post, startTestServer, type TestServer } from '../support/http.js';
import { commandArbitrary, runCommand, type Command } from '../support/planner-commands.js';

const BASE_URL = DEFAULT_BASE_URL;
const operations = createSessionOperations(loadCodec, { baseUrl: BASE_URL });
let codec: Codec;

beforeAll(async () => {
  codec = await loadCodec();
});

/** What the address bar holds after a state: the planner's link. Decoded with the lz-string package, not our codec. */
function decodeWithLzString(link: string): unknown {
  const prefix = `${BASE_URL}#data=v2:`;
  expect(link.startsWith(prefix)).toBe(true);
  const text = LZString.decompressFromEncodedURIComponent(link.slice(prefix.length));
  expect(typeof text).toBe('string');
  return JSON.parse(text as string);
}

function start(kind: 'empty' | 'rich', encoder?: DraftEncoder): Planner {
  const draft: Draft = kind === 'empty' ? emptyDraft(en.newParts) : validateForCreate(richSession()).session;
  return new Planner({ host: createEditorHost(codec, BASE_URL), draft, labels: en.newParts, ...(encoder ? { encoder } : {}) });
}

/** The page's own encoding, answered only when fast-check's scheduler releases it: later edits overtake the check. */
function scheduledEncoder(scheduler: fc.Scheduler): DraftEncoder {
  const host = createEditorHost(codec, BASE_URL);
  return { encode: (draft) => scheduler.schedule(Promise.resolve(draft), 'check').then((asked) => host.encode(asked)), close() {} };
}

/** A link as the planner showed it, with the draft that was present then. */
interface Shown {
  readonly draft: Draft;
  readonly link: string;
}

/**
 * Watches every state the planner publishes: its link changes only when the present draft's own check has answered
 * valid (never for an older draft's answer); those links are returned to be checked against create.
 */
function watchLinks(planner: Planner): Shown[] {
  const shown: Shown[] = [];
  let link = planner.state.link;
  planner.subscribe((state) => {
    expect(state.valid ? state.problems : []).toEqual([]);
    if (state.link === link) return;
    expect(state.pending).toBe(false);
    expect(state.valid).toBe(true);
    shown.push({ draft: state.draft, link: state.link! });
    link = state.link;
  });
  return shown;
}

/** A link the planner showed for a draft: lz-string decodes it to the linked document, which create turns into it, as it does the draft. */
async function checkShown({ draft, link }: Shown): Promise<void> {
  const decoded = decodeWithLzString(link);
  expect((await operations.createSessionLink(decoded)).link).toBe(link);
  // The draft itself is what was encoded: create on the draft gives the same link.
  expect((await operations.createSessionLink(draft)).link).toBe(link);
}

/** The invariant once the present draft is checked, against the real session operations in this process. */
async function checkSettled(state: PlannerState, lastLink: string | null): Promise<void> {
  expect(state.pending).toBe(false);
  expect(state.link).toBe(lastLink);
  if (state.valid) {
    expect(state.problems).toEqual([]);
    expect(decodeWithLzString(state.link!)).toEqual(state.linkedSession);
    await checkShown({ draft: state.draft, link: state.link! });
  } else {
    // The same code refuses it on the server, and the address bar keeps the last valid link.
    expect(state.problems.length).toBeGreaterThan(0);
    const refusal = await operations.createSessionLink(state.draft).then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(SessionError);
    // Every problem the planner marks is one the server's message names (the message lists the first five).
    const message = (refusal as SessionError).message;
    for (const problem of state.problems.slice(0, 1)) expect(message).toContain(problem.path);
  }
}

describe('planner state layer: random edit sequences', () => {
  it('every link decodes (lz-string) to a document create accepts and turns into the same link, whenever checks answer', async () => {
    // After each command the scheduler lets 0, 1 or all answers through (2: wait until the present draft is checked).
    const step = fc.tuple(commandArbitrary, fc.constantFrom(0, 0, 1, 2));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<'empty' | 'rich'>('empty', 'rich'), fc.array(step, { minLength: 10, maxLength: 80 }), fc.scheduler(), async (kind, steps, scheduler) => {
        const planner = start(kind, scheduledEncoder(scheduler));
        const shown = watchLinks(planner);
        const initial = await scheduler.waitFor(planner.settled());
        expect(initial.valid).toBe(true);
        for (const [command, answers] of steps) {
          runCommand(planner, command);
          if (answers === 1 && scheduler.count() > 0) await scheduler.waitNext(1);
          if (answers === 2) await checkSettled(await scheduler.waitFor(planner.settled()), shown.at(-1)?.link ?? initial.link);
        }
        await checkSettled(await scheduler.waitFor(planner.settled()), shown.at(-1)?.link ?? initial.link);
        for (const entry of shown) await checkShown(entry);
        // Undo all the way back gives the first draft and its link (checked before: at once); redo all the way gives the newest.
        const last = planner.state.draft;
        const wasNewest = !planner.state.canRedo;
        while (planner.state.canUndo) planner.undo();
        expect(planner.state.draft).toBe(initial.draft);
        expect(planner.state).toMatchObject({ pending: false, link: initial.link });
        while (planner.state.canRedo) planner.redo();
        if (wasNewest) expect(planner.state.draft).toBe(last);
        await checkSettled(await scheduler.waitFor(planner.settled()), planner.state.link);
      }),
      { numRuns: 150 },
    );
  });

  it('typing in one field is one undo step; a finished edit starts the next', () => {
    const planner = start('empty');
    for (const title of ['W', 'Wo', 'Wor', 'Work']) planner.apply({ kind: 'set', path: ['workshop', 'title'], value: title }, { typing: true });
    planner.finishEdit();
    for (const title of ['Works', 'Workshop']) planner.apply({ kind: 'set', path: ['workshop', 'title'], value: title }, { typing: true });
    planner.apply({ kind: 'set', path: ['workshop', 'description'], value: 'D' }, { typing: true });
    planner.undo();
    expect(planner.state.draft.workshop).toMatchObject({ title: 'Workshop', description: '' });
    planner.undo();
    expect(planner.state.draft.workshop.title).toBe('Work');
    planner.undo();
    expect(planner.state.draft.workshop.title).toBe('New plan');
    expect(planner.state.canUndo).toBe(false);
  });

  it('an invalid draft keeps the last valid link and marks the field by its path', async () => {
    const planner = start('rich');
    const before = (await planner.settled()).link;
    planner.apply({ kind: 'set', path: ['items', 1, 'children', 0, 'duration'], value: -5 });
    planner.apply({ kind: 'set', path: ['items', 1, 'children', 1, 'children', 1, 'laneIndex'], value: 4 });
    planner.apply({ kind: 'set', path: ['workshop', 'title'], value: '' });
    const state = await planner.settled();
    expect(state.valid).toBe(false);
    expect(state.link).toBe(before);
    expect(state.problemsByPath.get('items[1].children[0].duration')).toEqual(['must be at least 0, not -5']);
    expect(state.problemsByPath.get('workshop.title')).toEqual(['must not be empty']);
    planner.apply({ kind: 'set', path: ['items', 1, 'children', 0, 'duration'], value: 5 });
    planner.apply({ kind: 'set', path: ['workshop', 'title'], value: 'T' });
    await planner.settled();
    // Shape is fine now; the rules speak: the lane index is past the breakout's two lanes.
    expect(planner.state.problemsByPath.get('items[1].children[1].children[1].laneIndex')?.[0]).toMatch(/must be below the breakout's lanes \(2, so 0 to 1\), not 4/);
    planner.apply({ kind: 'set', path: ['items', 1, 'children', 1, 'lanes'], value: 5 });
    expect((await planner.settled()).valid).toBe(true);
    expect(planner.state.link).not.toBe(before);
  });

  it('a document opened with warnings keeps its link until they are resolved', async () => {
    const opened = 'https://sessionplan.de/#data=v2:opened';
    const draft = { ...validateForCreate(richSession()).session, workshop: { title: 'Old', description: '', date: null, startTime: null, venue: 'Hall' } } as Draft;
    const planner = new Planner({ host: createEditorHost(codec, BASE_URL), draft, openedLink: opened, labels: en.newParts });
    expect((await planner.settled()).valid).toBe(false);
    expect(planner.state.link).toBe(opened);
    expect(planner.state.problemsByPath.get('workshop.venue')?.[0]).toMatch(/is not a field of this object/);
    planner.apply({ kind: 'remove', path: ['workshop', 'venue'] });
    expect((await planner.settled()).valid).toBe(true);
    expect(planner.state.link).not.toBe(opened);
  });
});

describe('planner state layer against a real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT: '100000' });
  });
  afterAll(() => server.close());

  it("REST create on port 0 accepts every link's document and returns the same link", async () => {
    const seen: Command[][] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(commandArbitrary, { minLength: 1, maxLength: 25 }), async (commands) => {
        seen.push(commands);
        const planner = start('rich');
        for (const command of commands) {
          runCommand(planner, command);
          const state = await planner.settled();
          if (!state.valid) continue;
          const reply = await post(server.port, '/api/session-links', { session: decodeWithLzString(state.link!) });
          expect(reply.status).toBe(200);
          expect(reply.json().link).toBe(state.link);
        }
      }),
      { numRuns: 12 },
    );
    expect(seen.length).toBe(12);
  });
});
