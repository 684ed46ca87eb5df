// People as the exports name them: "Name (Role)", an id that is not in the people list said so, lane people first.
import type { Strings } from '../../plan-view/i18n/strings.js';
import type { Plan } from '../../plan-view/plan.js';

/** Names by person id for one plan ("Alice Archer (Facilitator)"); a later duplicate id wins, as on the page. */
export function personNames(plan: Plan): Map<string, string> {
  const names = new Map<string, string>();
  for (const person of plan.persons) names.set(person.id, person.role ? `${person.name} (${person.role})` : person.name);
  return names;
}

/** The people of an entry as one list, in order, each once. */
export function peopleText(personIds: readonly string[], names: Map<string, string>, strings: Strings): string {
  const seen = new Set<string>();
  const listed: string[] = [];
  for (const id of personIds) {
    if (seen.has(id)) continue;
    seen.add(id);
    listed.push(names.get(id) ?? strings.unknownPerson(id));
  }
  return listed.join(', ');
}
