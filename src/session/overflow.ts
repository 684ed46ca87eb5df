// List sizes bounded before any schema walk runs, so rule checks and kept data stay within known limits.
import type { Problem } from './errors.js';
import { formatPath } from './paths.js';
import { MAX_LANES, MAX_LIST_ENTRIES } from './schema.js';

// Why: the schema walk stops after a few problems, but a valid document's rule walk (checkRules) and the data
// decode keeps are bounded only by these limits. Measuring lists first costs a few length reads.

type Raw = Record<string, unknown>;

const isRaw = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first list in a not yet validated document that is longer than `factor` × the schema's limit (blockTypes,
 * persons, personIds, lanePersons lanes and their lists), or null. `factor` 1 for create; decode tolerates more
 * (reported as warnings by the schema) but not without bound.
 */
export function oversizedListProblem(doc: Raw, factor = 1): Problem | null {
  const maxEntries = MAX_LIST_ENTRIES * factor;
  // Paths are built only for the list that is too long: a valid document allocates nothing per item.
  const tooLong = (list: unknown, path: () => (string | number)[]): Problem | null =>
    Array.isArray(list) && list.length > maxEntries
      ? { path: formatPath(path()), message: `has ${list.length.toLocaleString('en-US')} entries but at most ${MAX_LIST_ENTRIES.toLocaleString('en-US')} are allowed`, rule: { kind: 'tooManyEntries', maximum: MAX_LIST_ENTRIES } }
      : null;
  const top = tooLong(doc.blockTypes, () => ['blockTypes']) ?? tooLong(doc.persons, () => ['persons']);
  if (top) return top;
  const pending: { list: unknown; path: (string | number)[] }[] = [{ list: doc.items, path: ['items'] }];
  while (pending.length > 0) {
    const { list, path } = pending.pop()!;
    if (!Array.isArray(list) || path.length > 8) continue;
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (!isRaw(item)) continue;
      const ids = tooLong(item.personIds, () => [...path, i, 'personIds']);
      if (ids) return ids;
      const lanePersons = item.lanePersons;
      if (isRaw(lanePersons)) {
        const lanes = Object.keys(lanePersons);
        if (lanes.length > MAX_LANES * factor)
          return { path: formatPath([...path, i, 'lanePersons']), message: `has ${lanes.length.toLocaleString('en-US')} keys but a breakout has at most ${MAX_LANES} lanes`, rule: { kind: 'tooManyEntries', maximum: MAX_LANES } };
        for (const lane of lanes) {
          const people = tooLong(lanePersons[lane], () => [...path, i, 'lanePersons', lane]);
          if (people) return people;
        }
      }
      if (Array.isArray(item.children)) pending.push({ list: item.children, path: [...path, i, 'children'] });
    }
  }
  return null;
}
