// The planner's limits: near and over the 500-item limit and the codec's dictionary budget, with the server's own refusals.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/types.js';
import { en } from '../../src/planner/i18n/en.js';
import { levelOf, NEAR_SHARE } from '../../src/planner/limits.js';
import { createEditorHost } from '../../src/planner/host.js';
import { Planner } from '../../src/planner/planner.js';
import type { Draft } from '../../src/planner/tree.js';
import { SessionError } from '../../src/session/errors.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { validateForCreate } from '../../src/session/validate.js';
import { block, minimalSession } from '../fixtures/sessions.js';
import { largestInBudgetPlan } from '../support/viewer-plans.js';

const BASE = 'https://sessionplan.de/';
const operations = createSessionOperations(loadCodec, { baseUrl: BASE });
let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const planner = (draft: Draft): Planner => new Planner({ host: createEditorHost(codec, BASE), draft, labels: en.newParts });
const level = (p: Planner, name: string) => p.state.limits.find((entry) => entry.name === name);

describe('limits', () => {
  it('the share that counts as near: 450 of 500 items, 58,983 of 65,536 dictionary entries', () => {
    expect(NEAR_SHARE).toBe(0.9);
    expect([levelOf(449, 500), levelOf(450, 500), levelOf(500, 500), levelOf(501, 500)]).toEqual(['ok', 'near', 'near', 'over']);
    expect([levelOf(58_982, 65_536), levelOf(58_983, 65_536)]).toEqual(['ok', 'near']);
  });

  it('says "near" from 450 items, and past 500 the draft is refused at `items` as create refuses it', async () => {
    const items = Array.from({ length: 449 }, (_, i) => block(`b${i}`));
    const p = planner(validateForCreate({ ...minimalSession(), items }).session);
    // The item count follows the draft at once; validity and the link once the check has answered.
    expect(level(p, 'items')).toMatchObject({ used: 449, limit: 500, level: 'ok' });
    p.apply({ kind: 'add', item: 'block', container: null });
    expect(level(p, 'items')).toMatchObject({ used: 450, level: 'near' });
    for (let i = 0; i < 50; i++) p.apply({ kind: 'add', item: 'block', container: null });
    expect((await p.settled()).valid).toBe(true);
    const atLimit = p.state.link;
    p.apply({ kind: 'add', item: 'group', container: null });
    expect(level(p, 'items')).toMatchObject({ used: 501, level: 'over' });
    expect(p.state.pending).toBe(true);
    expect((await p.settled()).valid).toBe(false);
    expect(p.state.link).toBe(atLimit);
    const refusal = await operations.createSessionLink(p.state.draft).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SessionError);
    expect(p.state.problemsByPath.get('items')?.[0]).toBe((refusal as SessionError).problems[0]!.message);
    expect(p.state.problemsByPath.get('items')?.[0]).toMatch(/501 items .* at most 500/);
  });

  it('near the dictionary budget it says so; one edit past it is refused with the codec\'s sentence and the link stays', async () => {
    const largest = await largestInBudgetPlan(async (plan) => operations.createSessionLink(plan).then(() => true, () => false));
    const p = planner(validateForCreate(largest).session);
    expect((await p.settled()).valid).toBe(true);
    const dictionary = level(p, 'dictionaryEntries')!;
    expect(dictionary.limit).toBe(65_536);
    expect(dictionary.level).toBe('near');
    // The count is the one the payload's decoder makes, so it stays within the budget.
    expect(dictionary.used).toBeLessThanOrEqual(65_536);
    expect(level(p, 'payloadChars')!.used).toBe(p.state.link!.length - `${BASE}#data=v2:`.length);
    const link = p.state.link;
    let noise = '';
    for (let i = 0; noise.length < 6000; i++) noise += String.fromCharCode(0x4e00 + ((i * 7919) % 20_000));
    p.apply({ kind: 'set', path: ['items', 0, 'description'], value: noise });
    expect((await p.settled()).valid).toBe(false);
    expect(p.state.link).toBe(link);
    expect(p.state.problemsByPath.get('session')?.[0]).toMatch(/^is too large to encode: Dictionary budget exceeded: the plan needs more than 65,536 dictionary entries/);
  });
});
