// The participants' version of a plan: the same agenda and times without the facilitators' notes, and without the blocks
// of a facilitator-only category (one whose name starts with 🔒), which keep their place and length under a neutral
// title so every other item starts when it did. The people and categories only those blocks named are left out too.
import type { Plan, PlanBlockType, PlanItem } from './plan.js';

/** What marks a category as the facilitators' own: its name starts with this sign. */
export const FACILITATOR_ONLY_MARK = '🔒';

export function isFacilitatorOnly(type: Pick<PlanBlockType, 'name'>): boolean {
  return type.name.trimStart().startsWith(FACILITATOR_ONLY_MARK);
}

/** A category's name with the mark put on (`on`) or taken off, the rest of the name as it was. */
export function withFacilitatorMark(name: string, on: boolean): string {
  const bare = name.trimStart().startsWith(FACILITATOR_ONLY_MARK) ? name.trimStart().slice(FACILITATOR_ONLY_MARK.length).trimStart() : name;
  return on ? `${FACILITATOR_ONLY_MARK} ${bare}` : bare;
}

export interface Handout {
  readonly plan: Plan;
  /** Blocks of a facilitator-only category that stand as placeholders. */
  readonly hiddenBlocks: number;
}

/** The handout of `plan`; `placeholderTitle` names a facilitators' block in the participants' language. */
export function handoutOf(plan: Plan, placeholderTitle: string): Handout {
  const hiddenTypes = new Set(plan.blockTypes.filter(isFacilitatorOnly).map((type) => type.id));
  const named = new Set<string>();
  let hiddenBlocks = 0;
  const strip = (item: PlanItem): PlanItem => {
    if (item.type === 'block') {
      if (item.blockTypeId !== null && hiddenTypes.has(item.blockTypeId)) {
        hiddenBlocks += 1;
        return { ...item, title: placeholderTitle, description: '', notes: '', material: '', personIds: [], blockTypeId: null };
      }
      for (const id of item.personIds) named.add(id);
      return { ...item, notes: '' };
    }
    if (item.type === 'breakout') for (const ids of Object.values(item.lanePersons)) for (const id of ids) named.add(id);
    return { ...item, notes: '', children: item.children.map(strip) };
  };
  const items = plan.items.map(strip);
  return {
    plan: {
      ...plan,
      blockTypes: plan.blockTypes.filter((type) => !hiddenTypes.has(type.id)),
      persons: plan.persons.filter((person) => named.has(person.id)),
      items,
    },
    hiddenBlocks,
  };
}
