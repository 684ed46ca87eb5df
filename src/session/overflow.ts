// Schema passes that cannot escape with a stack overflow, and list sizes bounded before any schema pass runs.
import type * as z from 'zod';
import type { Problem } from './errors.js';
import { problemsFromIssues, type IssueMode } from './issues.js';
import { formatPath } from './paths.js';
import { MAX_LANES, MAX_LIST_ENTRIES } from './schema.js';

// Why: zod collects every issue before it returns, so a 2 MB list of 300,000 wrong IDs costs it seconds, and past
// about 100,000 issues in one list it overflows the stack. Lists are therefore measured first (a few length reads),
// which bounds the number of issues any schema pass can produce.

export type Checked<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly problems: Problem[] };

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
      ? { path: formatPath(path()), message: `has ${list.length.toLocaleString('en-US')} entries but at most ${MAX_LIST_ENTRIES.toLocaleString('en-US')} are allowed` }
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
          return { path: formatPath([...path, i, 'lanePersons']), message: `has ${lanes.length.toLocaleString('en-US')} keys but a breakout has at most ${MAX_LANES} lanes` };
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

/** Runs a schema pass; a stack overflow inside zod becomes null instead of escaping as an internal error. */
function guarded<T>(pass: () => T): T | null {
  try {
    return pass();
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

const UNCHECKABLE: Problem = { path: 'session', message: 'has too many invalid values to check; correct the document and submit it again' };

/** The schema's output when the value is valid, else null (no problems collected). */
export function quickParse<T>(schema: z.ZodType<T>, value: unknown): T | null {
  const result = guarded(() => schema.safeParse(value));
  return result?.success ? result.data : null;
}

/** Validates with `schema`: its output, or all its problems (parsed again with the offending values, for the sentences). */
export function checkWithSchema<T>(schema: z.ZodType<T>, value: unknown, mode: IssueMode): Checked<T> {
  const data = quickParse(schema, value);
  if (data !== null) return { ok: true, data };
  const full = guarded(() => schema.safeParse(value, { reportInput: true }));
  if (full === null || full.success) return { ok: false, problems: [UNCHECKABLE] };
  return { ok: false, problems: problemsFromIssues(full.error.issues, mode) };
}
