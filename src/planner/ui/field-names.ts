// A field's DOM id, and a problem's field in the editor's own words ("Duration (min) of “Check-in”") for sentences that point at it.
import type { PlannerStrings } from '../i18n/strings.js';
import { fieldPath, itemAt, itemPathOf, parseFieldPath, type Draft, type Segments } from '../tree.js';

/** The DOM id of a field: its problem path, so a problem listed elsewhere can point at it. */
export function fieldId(path: Segments): string {
  return `field:${fieldPath(path)}`;
}

/** The editor's label of each field a problem path can end in, by its key in the document. */
function labelOf(key: string, parent: string | number | undefined, strings: PlannerStrings): string | undefined {
  if (parent === 'workshop') {
    const workshop: Record<string, string> = { title: strings.workshopTitle, description: strings.workshopDescription, date: strings.date, startTime: strings.startTime };
    return workshop[key];
  }
  const labels: Record<string, string> = {
    title: strings.title,
    duration: strings.duration,
    description: strings.description,
    notes: strings.notes,
    material: strings.material,
    fixedStartTime: strings.fixedStartTime,
    blockTypeId: strings.category,
    personIds: strings.people,
    lanes: strings.lanes,
    sameInAllBreakouts: strings.sameInAllBreakouts,
    laneIndex: strings.laneOfChild,
    lanePersons: strings.people,
    name: strings.personName,
    role: strings.personRole,
    color: strings.categoryColor,
  };
  return labels[key];
}

/** The field of a problem path as the editor labels it, with the title of the item or entry it belongs to. */
export function fieldName(path: string, draft: Draft, strings: PlannerStrings): string {
  const segments = parseFieldPath(path) ?? [];
  // The last named key, and what holds it: `items[0].children[1].duration` → duration of items[0].children[1].
  let keyAt = segments.length - 1;
  while (keyAt >= 0 && typeof segments[keyAt] !== 'string') keyAt -= 1;
  // A lane's people (`lanePersons["1"]`): the key is a lane, which the editor names as it counts, from 1.
  if (keyAt > 0 && segments[keyAt - 1] === 'lanePersons') keyAt -= 1;
  const key = segments[keyAt];
  if (typeof key !== 'string') return path;
  const lane = key === 'lanePersons' ? Number(segments[keyAt + 1]) : Number.NaN;
  const label = (Number.isInteger(lane) ? strings.lanePeople(strings.laneName(lane + 1))
    : segments[0] === 'blockTypes' && key === 'name' ? strings.categoryName : labelOf(key, segments[keyAt - 1], strings)) ?? path;
  const at = itemPathOf(segments.slice(0, keyAt));
  const item = at.length > 0 ? itemAt(draft, at) : undefined;
  if (item) return strings.fieldOf(label, item.title || item.id);
  if ((segments[0] === 'persons' || segments[0] === 'blockTypes') && typeof segments[1] === 'number') {
    const entry = segments[0] === 'persons' ? draft.persons[segments[1]] : draft.blockTypes[segments[1]];
    if (entry) return strings.fieldOf(label, entry.name || entry.id);
  }
  return label;
}
