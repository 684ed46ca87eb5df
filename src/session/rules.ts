// The rules beyond shape (docs/import-guide.md), checked in one plain walk over an already shape-checked tree.
import { quoteValue, type Problem } from './errors.js';
import { MAX_ITEMS } from './constants.js';
import { clip, keySegment } from './paths.js';

/** Problems listed in full; beyond this they are only counted (a 2 MB list of unknown IDs stays cheap to refuse). */
export const MAX_LISTED_RULE_PROBLEMS = 100;

/** Collects problems up to the listing limit and counts the rest. */
class ProblemList {
  readonly listed: Problem[] = [];
  unlisted = 0;
  /**
   * Whether the next problem is listed (then the caller builds it); past the limit it is only counted. A test, not
   * a callback: 450,000 dangling IDs must not allocate a closure each.
   */
  lists(): boolean {
    if (this.listed.length < MAX_LISTED_RULE_PROBLEMS) return true;
    this.unlisted++;
    return false;
  }
}

/** The fields the rules read; both the canonical and the tolerant (loosely nested) trees fit this shape. */
export interface RuleItem {
  readonly type: string;
  readonly id: string;
  readonly blockTypeId?: string | null;
  readonly personIds?: readonly string[];
  readonly laneIndex?: number;
  readonly lanes?: number;
  readonly sameInAllBreakouts?: boolean;
  readonly lanePersons?: Readonly<Record<string, readonly string[]>>;
  readonly children?: readonly RuleItem[];
}

export interface RuleDocument {
  readonly blockTypes: readonly { readonly id: string }[];
  readonly persons: readonly { readonly id: string }[];
  readonly items: readonly RuleItem[];
}

interface BreakoutContext {
  readonly lanes: number;
  readonly sameInAllBreakouts: boolean;
}

const LANE_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** All rule violations of a document, in document order; empty when it follows every rule. */
export function checkRules(doc: RuleDocument): Problem[] {
  const problems = new ProblemList();
  const blockTypeIds = collectUnique(doc.blockTypes, 'blockTypes', 'block type', problems);
  const personIds = collectUnique(doc.persons, 'persons', 'person', problems);
  const itemPaths = new Map<string, string>();
  let itemCount = 0;

  const visit = (items: readonly RuleItem[], prefix: string, breakout: BreakoutContext | null): void => {
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const path = `${prefix}[${i}]`;
      itemCount++;
      const firstUse = itemPaths.get(item.id);
      if (firstUse === undefined) itemPaths.set(item.id, `${path}.id`);
      else if (problems.lists()) problems.listed.push({ path: `${path}.id`, message: `duplicate item ID ${quoteValue(item.id)} (also used at ${firstUse}); item IDs must be unique across the whole tree`, rule: { kind: 'duplicateId' } });

      if (item.type === 'block') {
        checkBlock(item, path, breakout, blockTypeIds, personIds, problems);
      } else if (item.type === 'breakout') {
        const lanes = item.lanes ?? 0;
        checkLanePersons(item.lanePersons ?? {}, lanes, path, personIds, problems);
        if (item.children) visit(item.children, `${path}.children`, { lanes, sameInAllBreakouts: item.sameInAllBreakouts === true });
      } else if (item.type === 'group' && item.children) {
        visit(item.children, `${path}.children`, null);
      }
    }
  };
  visit(doc.items, 'items', null);

  const listed = problems.listed;
  if (problems.unlisted > 0)
    listed.push({ path: 'session', message: `${problems.unlisted} further problems of the kinds above are not listed`, rule: { kind: 'moreProblems', count: problems.unlisted } });
  if (itemCount > MAX_ITEMS) listed.push(tooManyItemsProblem(itemCount, true));
  return listed;
}

/** The 500-item limit as a problem; `exact` false when counting stopped early. */
export function tooManyItemsProblem(count: number, exact: boolean): Problem {
  return {
    path: 'items',
    message: `the plan has ${exact ? '' : 'at least '}${count} items in the whole tree (containers and all children count) but at most ${MAX_ITEMS} are allowed, so the plan must be made smaller`,
    rule: { kind: 'planTooLarge' },
  };
}

/**
 * Counts items of a not yet validated tree, stopping once over the limit: lets create refuse huge or cyclic
 * input before the schema walks it.
 */
export function countRawItems(doc: { readonly items?: unknown }, limit = MAX_ITEMS): number {
  let count = 0;
  const pending: unknown[] = [doc.items];
  while (pending.length > 0) {
    const list = pending.pop();
    if (!Array.isArray(list)) continue;
    count += list.length;
    if (count > limit) return count;
    for (const item of list) if (typeof item === 'object' && item !== null && 'children' in item) pending.push(item.children);
  }
  return count;
}

function collectUnique(entries: readonly { readonly id: string }[], field: string, what: string, problems: ProblemList): Map<string, number> {
  const seen = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const entryId = entries[i]!.id;
    const first = seen.get(entryId);
    if (first === undefined) seen.set(entryId, i);
    else if (problems.lists()) problems.listed.push({ path: `${field}[${i}].id`, message: `duplicate ${what} ID ${quoteValue(entryId)} (also used at ${field}[${first}].id)`, rule: { kind: 'duplicateId' } });
  }
  return seen;
}

function checkBlock(
  block: RuleItem,
  path: string,
  breakout: BreakoutContext | null,
  blockTypeIds: ReadonlyMap<string, number>,
  personIds: ReadonlyMap<string, number>,
  problems: ProblemList,
): void {
  const typeId = block.blockTypeId;
  if (typeId !== null && typeId !== undefined && !blockTypeIds.has(typeId))
    if (problems.lists()) problems.listed.push({ path: `${path}.blockTypeId`, message: `block type ${quoteValue(typeId)} is not declared in blockTypes`, rule: { kind: 'undeclaredCategory' } });
  const persons = block.personIds ?? [];
  for (let p = 0; p < persons.length; p++) {
    if (!personIds.has(persons[p]!) && problems.lists()) problems.listed.push({ path: `${path}.personIds[${p}]`, message: `person ${quoteValue(persons[p]!)} is not declared in persons`, rule: { kind: 'undeclaredPerson' } });
  }
  const lane = block.laneIndex ?? 0;
  if (breakout === null) {
    if (lane !== 0 && problems.lists()) problems.listed.push({ path: `${path}.laneIndex`, message: `must be 0 outside a breakout, not ${lane}`, rule: { kind: 'laneOutsideBreakout' } });
  } else if (breakout.sameInAllBreakouts) {
    if (lane !== 0 && problems.lists()) problems.listed.push({ path: `${path}.laneIndex`, message: `must be 0 because the breakout has sameInAllBreakouts: true, not ${lane}`, rule: { kind: 'laneInSameProgramme' } });
  } else if (lane >= breakout.lanes) {
    if (problems.lists()) problems.listed.push({ path: `${path}.laneIndex`, message: `must be below the breakout's lanes (${breakout.lanes}, so 0 to ${breakout.lanes - 1}), not ${lane}`, rule: { kind: 'laneBeyondBreakout', lanes: breakout.lanes } });
  }
}

function checkLanePersons(
  lanePersons: Readonly<Record<string, readonly string[]>>,
  lanes: number,
  path: string,
  personIds: ReadonlyMap<string, number>,
  problems: ProblemList,
): void {
  for (const key of Object.keys(lanePersons)) {
    // Built only for a listed problem: decode keeps keys of any length.
    const keyPath = (): string => `${path}.lanePersons${keySegment(key)}`;
    // A key that is no lane index at all is a shape problem the schema reports; here only the range is checked.
    if (LANE_INDEX.test(key) && Number(key) >= lanes)
      if (problems.lists()) problems.listed.push({ path: keyPath(), message: `lane ${clip(key)} does not exist; the breakout has ${lanes} lane${lanes === 1 ? '' : 's'} (0 to ${lanes - 1})`, rule: { kind: 'laneBeyondBreakout', lanes } });
    const persons = lanePersons[key] ?? [];
    for (let p = 0; p < persons.length; p++) {
      if (!personIds.has(persons[p]!) && problems.lists()) problems.listed.push({ path: `${keyPath()}[${p}]`, message: `person ${quoteValue(persons[p]!)} is not declared in persons`, rule: { kind: 'undeclaredPerson' } });
    }
  }
}
