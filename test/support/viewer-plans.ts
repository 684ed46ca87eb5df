// Test plans for the viewer: a small workshop with every item kind, and the largest realistic plan the codec budgets allow.
import { generatePlan } from '../fixtures/plans.js';

/** A block with empty texts, no pinned time, lane 0; `extra` sets the rest. */
function block(id: string, title: string, duration: number, blockTypeId: string | null, personIds: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'block', id, title, duration, blockTypeId, personIds, description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0, ...extra };
}

/** A one-day workshop: blocks, a pinned lunch (leaves a gap), a group with a breakout inside, a three-lane breakout. */
export function workshopPlan(): Record<string, unknown> {
  return {
    version: '1.0',
    workshop: { title: 'Design Sprint Kickoff', description: 'Two teams, one problem, one day.', date: '2026-03-14', startTime: '09:00' },
    blockTypes: [
      { id: 'input', name: 'Input', color: '#2d5bd7' },
      { id: 'exercise', name: 'Exercise', color: '#e4572e' },
      { id: 'break', name: 'Break', color: '#8bc34a' },
    ],
    persons: [
      { id: 'alice', name: 'Alice Archer', role: 'Facilitator' },
      { id: 'bob', name: 'Bob Brandt', role: 'Expert' },
      { id: 'carol', name: 'Carol Chen', role: 'Co-facilitator' },
      { id: 'dan', name: 'Dan Dietz', role: '' },
    ],
    items: [
      block('welcome', 'Welcome and goals', 30, 'input', ['alice'], { description: 'Why we are here.', notes: 'Start with the check-in round.' }),
      block('warmup', 'Warm-up', 15, 'exercise', []),
      {
        type: 'group', id: 'understand', title: 'Understand the problem', duration: 90, description: '', notes: '', fixedStartTime: null,
        children: [
          block('interviews', 'Expert interviews', 45, 'input', ['bob']),
          {
            type: 'breakout', id: 'pairs', title: 'Interview pairs', duration: 45, description: '', notes: '', fixedStartTime: null,
            lanes: 2, sameInAllBreakouts: false, lanePersons: { '0': ['alice'], '1': ['carol'] },
            children: [block('pair-a', 'Pair A: users', 45, 'exercise', [], { laneIndex: 0 }), block('pair-b', 'Pair B: operators', 45, 'exercise', [], { laneIndex: 1 })],
          },
        ],
      },
      block('lunch', 'Lunch', 60, 'break', [], { fixedStartTime: '12:30' }),
      {
        type: 'breakout', id: 'tracks', title: 'Sketch tracks', duration: 60, description: '', notes: '', fixedStartTime: null,
        lanes: 3, sameInAllBreakouts: false, lanePersons: { '0': ['bob'], '1': ['carol'], '2': ['dan'] },
        children: [
          block('crazy8', 'Crazy 8s', 60, 'exercise', [], { laneIndex: 0 }),
          block('storyboard', 'Storyboard', 60, 'exercise', [], { laneIndex: 1 }),
          block('solution', 'Solution sketch', 60, 'exercise', [], { laneIndex: 2 }),
        ],
      },
      block('wrapup', 'Wrap-up', 15, 'input', ['alice', 'bob'], { material: 'Sticky notes' }),
    ],
  };
}

/**
 * A German workshop with every item kind and every text field: notes (the facilitator's), material, a group, a pinned
 * lunch that leaves a gap, a breakout with a lane each and one with the same programme in all lanes.
 */
export function germanWorkshopPlan(): Record<string, unknown> {
  return {
    version: '1.0',
    workshop: { title: 'Strategietag Team Süd', description: 'Ein Tag für Rückblick, Ideen und nächste Schritte.', date: '2027-01-20', startTime: '09:00' },
    blockTypes: [
      { id: 'impuls', name: 'Impuls', color: '#2d5bd7' },
      { id: 'uebung', name: 'Übung', color: '#e4572e' },
      { id: 'pause', name: 'Pause', color: '#8bc34a' },
    ],
    persons: [
      { id: 'jana', name: 'Jana Größer', role: 'Moderation' },
      { id: 'oezlem', name: 'Özlem Yılmaz', role: 'Co-Moderation' },
      { id: 'timo', name: 'Timo Weiß', role: '' },
    ],
    items: [
      block('ankommen', 'Ankommen & Check-in', 20, 'impuls', ['jana'], { description: 'Kaffee, Namensschilder, eine Runde „Wie geht’s?“', notes: 'Pünktlich anfangen, Nachzügler später abholen.', material: 'Namensschilder, Stifte' }),
      {
        type: 'group', id: 'rueckblick', title: 'Rückblick auf das Jahr', duration: 70, description: '', notes: 'Nicht in Details verlieren.', fixedStartTime: null,
        children: [
          block('zahlen', 'Zahlen und Meilensteine', 25, 'impuls', ['timo'], { material: 'Folien | Handout' }),
          {
            type: 'breakout', id: 'stationen', title: 'Stationen', duration: 45, description: '', notes: '', fixedStartTime: null,
            lanes: 2, sameInAllBreakouts: false, lanePersons: { '0': ['jana'], '1': ['oezlem'] },
            children: [block('station-a', 'Was lief gut?', 45, 'uebung', [], { laneIndex: 0 }), block('station-b', 'Was lernen wir?', 45, 'uebung', [], { laneIndex: 1, notes: 'Fragen vorher an die Wand.' })],
          },
        ],
      },
      block('mittag', 'Mittagspause', 60, 'pause', [], { fixedStartTime: '12:00' }),
      {
        type: 'breakout', id: 'werkstatt', title: 'Ideenwerkstatt', duration: 60, description: 'Drei Gruppen, gleicher Ablauf.', notes: '', fixedStartTime: null,
        lanes: 3, sameInAllBreakouts: true, lanePersons: { '0': ['jana'], '1': ['oezlem'], '2': ['timo'] },
        children: [block('sammeln', 'Ideen sammeln', 30, 'uebung', []), block('bewerten', 'Ideen bewerten', 30, 'uebung', [], { material: 'Klebepunkte' })],
      },
      block('abschluss', 'Nächste Schritte & Abschluss', 30, 'impuls', ['jana', 'oezlem'], { notes: 'Fotoprotokoll ankündigen.' }),
    ],
  };
}

/**
 * The largest realistic plan (shared generator, ~490 items: the item limit) that create accepts: grows the prose per
 * block until a codec budget refuses it (binary search), so the viewer figure is measured right at the budget edge.
 */
export async function largestInBudgetPlan(accepts: (plan: Record<string, unknown>) => Promise<boolean>): Promise<Record<string, unknown>> {
  const plan = (textPerItem: number): Record<string, unknown> => generatePlan({ seed: 7, items: 500, textPerItem });
  let low = 0;
  let high = 4096;
  if (await accepts(plan(high))) return plan(high);
  while (high - low > 8) {
    const middle = Math.floor((low + high) / 2);
    if (await accepts(plan(middle))) low = middle;
    else high = middle;
  }
  return plan(low);
}
