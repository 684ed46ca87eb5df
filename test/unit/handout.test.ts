// The participants' handout (src/plan-view/handout.ts): no notes anywhere, a facilitator-only block keeps its time under a
// neutral title, the people and categories only it named are gone, and what is left is a plan create accepts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { handoutOf, isFacilitatorOnly, withFacilitatorMark } from '../../src/plan-view/handout.js';
import type { Plan, PlanItem } from '../../src/plan-view/plan.js';
import { placeSequence } from '../../src/plan-view/schedule.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { arbitrarySession } from '../fixtures/sessions.js';
import { germanWorkshopPlan } from '../support/viewer-plans.js';

const operations = createSessionOperations(loadCodec);
const PLACEHOLDER = 'Zeit der Moderation';

function* walk(items: readonly PlanItem[]): Generator<PlanItem> {
  for (const item of items) {
    yield item;
    if (item.type !== 'block') yield* walk(item.children);
  }
}

/** Every item's start and end, nested ones from their container's start. */
function times(items: readonly PlanItem[], origin: number): string[] {
  return placeSequence(items, origin, false).flatMap((slot) => [
    `${slot.item.id} ${slot.start}–${slot.end}`,
    ...(slot.item.type === 'block' ? [] : times(slot.item.children, slot.start)),
  ]);
}

/** The German workshop with a facilitator-only category on the team's sync inside the group and on a block of its own. */
function planWithFacilitatorBlocks(): Plan {
  const plan = germanWorkshopPlan() as unknown as Plan;
  plan.blockTypes.push({ id: 'intern', name: '🔒 Intern', color: '#555555' });
  plan.persons.push({ id: 'kim', name: 'Kim Lange', role: 'Technik' });
  const sync = { type: 'block', id: 'sync', title: 'Abstimmung Team', duration: 10, blockTypeId: 'intern', personIds: ['kim'], description: 'Wer übernimmt was?', notes: 'Budget ansprechen', material: 'Checkliste', fixedStartTime: null, laneIndex: 0 } as const;
  plan.items.splice(1, 0, { ...sync, personIds: [...sync.personIds] });
  const group = plan.items.find((item) => item.id === 'rueckblick')!;
  if (group.type === 'block') throw new Error('the fixture changed');
  group.children.push({ ...sync, id: 'sync-2', personIds: [] });
  return plan;
}

describe('the participants\' handout', () => {
  it('leaves out notes and facilitator-only blocks and keeps every time', async () => {
    const plan = planWithFacilitatorBlocks();
    const { plan: handout, hiddenBlocks } = handoutOf(plan, PLACEHOLDER);
    expect(hiddenBlocks).toBe(2);
    expect([...walk(handout.items)].filter((item) => item.notes !== '')).toEqual([]);
    expect(times(handout.items, 540)).toEqual(times(plan.items, 540));
    const hidden = [...walk(handout.items)].filter((item) => item.id === 'sync' || item.id === 'sync-2');
    expect(hidden.map((item) => [item.title, item.duration, item.description, item.type === 'block' && item.material, item.type === 'block' && item.personIds])).toEqual([
      [PLACEHOLDER, 10, '', '', []],
      [PLACEHOLDER, 10, '', '', []],
    ]);
    // Kim is named only on the facilitators' block, the 🔒 category only there: neither travels in the handout.
    expect(handout.persons.map((person) => person.id)).toEqual(['jana', 'oezlem', 'timo']);
    expect(handout.blockTypes.map((type) => type.id)).toEqual(['impuls', 'uebung', 'pause']);
    expect(JSON.stringify(handout)).not.toMatch(/Budget|Checkliste|Kim|Intern|Pünktlich|Fotoprotokoll/);
    // The participants' content stays: descriptions, material, people, lanes.
    const kept = [...walk(handout.items)];
    expect(kept.find((item) => item.id === 'ankommen')).toMatchObject({ description: 'Kaffee, Namensschilder, eine Runde „Wie geht’s?“', material: 'Namensschilder, Stifte', personIds: ['jana'] });
    expect(kept.find((item) => item.id === 'werkstatt')).toMatchObject({ lanePersons: { '0': ['jana'], '1': ['oezlem'], '2': ['timo'] } });
    // The original is untouched.
    expect(JSON.stringify(plan)).toContain('Budget ansprechen');
    await expect(operations.createSessionLink(handout)).resolves.toMatchObject({ link: expect.stringContaining('#data=v2:') });
  });

  it('turns any valid plan into a valid one of the same shape and lengths, without notes', async () => {
    await fc.assert(fc.asyncProperty(arbitrarySession(), fc.boolean(), async (session, markFirst) => {
      const plan = session as unknown as Plan;
      if (markFirst && plan.blockTypes[0]) plan.blockTypes[0].name = withFacilitatorMark(plan.blockTypes[0].name, true);
      const { plan: handout } = handoutOf(plan, 'Facilitator time');
      const shape = (items: readonly PlanItem[]) => [...walk(items)].map((item) => [item.id, item.type, item.duration, item.fixedStartTime]);
      expect(shape(handout.items)).toEqual(shape(plan.items));
      expect([...walk(handout.items)].some((item) => item.notes !== '')).toBe(false);
      await operations.createSessionLink(handout);
    }), { numRuns: 60 });
  });

  it('marks a category by the 🔒 at the start of its name, and the checkbox puts it on and takes it off', () => {
    expect(isFacilitatorOnly({ name: '🔒 Intern' })).toBe(true);
    expect(isFacilitatorOnly({ name: '  🔒Vorbereitung' })).toBe(true);
    expect(isFacilitatorOnly({ name: 'Intern 🔒' })).toBe(false);
    expect(withFacilitatorMark('Vorbereitung', true)).toBe('🔒 Vorbereitung');
    expect(withFacilitatorMark('🔒 Vorbereitung', false)).toBe('Vorbereitung');
    expect(withFacilitatorMark('🔒 Vorbereitung', true)).toBe('🔒 Vorbereitung');
  });
});
