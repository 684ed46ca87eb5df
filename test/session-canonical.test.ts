// The fast canonical check may only accept what zod accepts and returns unchanged; checked over generated and mutated documents.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isExactlyCanonical } from '../src/session/canonical.js';
import { sessionSchema } from '../src/session/schema.js';
import { arbitrarySession, richSession } from './fixtures/sessions.js';

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], into: Path[] = []): Path[] {
  into.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], into));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], into);
  return into;
}

type Mutation = { kind: 'replace'; value: unknown } | { kind: 'delete' } | { kind: 'add'; key: string } | { kind: 'reverse' };

/** Applies one mutation at a path of a deep copy. */
function mutate(doc: unknown, path: Path, mutation: Mutation): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  if (path.length === 0) return mutation.kind === 'replace' ? mutation.value : copy;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const target = parent[last];
  switch (mutation.kind) {
    case 'replace':
      parent[last] = mutation.value;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      break;
    case 'add':
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[mutation.key] = 1;
      break;
    case 'reverse':
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        parent[last] = Object.fromEntries(Object.entries(target).reverse());
      break;
  }
  return copy;
}

/** Values just inside and just outside each field's rules, so mutations probe the exact boundaries. */
const ID_EDGES = ['', 'x'.repeat(128), 'x'.repeat(129), 'a\u0000b', 'a\u009fb', 'ü✓', null, 7];
const BOUNDARIES: Record<string, unknown[]> = {
  version: ['1.0', '1.1', 1],
  type: ['block', 'group', 'breakout', 'note'],
  id: ID_EDGES,
  blockTypeId: ID_EDGES,
  personIds: [[], ['x'.repeat(129)], [''], 'p0', null],
  title: ['', 'x', 'x'.repeat(200), 'x'.repeat(201), null],
  name: ['', 'x'.repeat(100), 'x'.repeat(101)],
  description: ['', 'any text', null, 3],
  duration: [-1, 0, 1440, 1441, 1.5, '10', null],
  laneIndex: [-1, 0, 1, 9, 1.5, Number.MAX_SAFE_INTEGER + 2, '0'],
  lanes: [0, 1, 2, 10, 11, 2.5],
  sameInAllBreakouts: [true, false, 'true', 0],
  lanePersons: [{}, { '0': [] }, { '10': [] }, { a: [] }, { '0': [''] }, [], null],
  date: ['2026-02-28', '2026-02-29', '2028-02-29', '2026-13-01', '2026-1-01', null, ''],
  startTime: ['00:00', '23:59', '24:00', '9:00', '12:60', null],
  fixedStartTime: ['00:00', '23:59', '24:00', '9:00', null, ''],
  color: ['#abcdef', '#ABCDEF', '#abcdeg', 'abcdef', '#abc'],
  role: ['', 'x', null],
  children: [[], {}, null],
};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), choice: fc.nat(), random: fc.jsonValue({ maxDepth: 2 }), edge: fc.boolean() }).map(
    ({ kind, choice, random, edge }) => ({ kind, value: { choice, random, edge } }),
  ),
  fc.constant({ kind: 'delete' as const }),
  fc.constantFrom('extra', '__proto__', 'children', 'laneIndex').map((key) => ({ kind: 'add' as const, key })),
  fc.constant({ kind: 'reverse' as const }),
);

/** For a replacement: a boundary value of the field at `path` (most of the time), else a random JSON value. */
function replacementFor(path: Path, spec: { choice: number; random: unknown; edge: boolean }): unknown {
  const key = [...path].reverse().find((segment): segment is string => typeof segment === 'string');
  const pool = typeof path[path.length - 1] === 'number' && key === 'personIds' ? ID_EDGES : key === undefined ? undefined : BOUNDARIES[key];
  return spec.edge && pool ? pool[spec.choice % pool.length] : spec.random;
}

/** The contract: accepted ⇒ zod accepts and returns the very same JSON. */
function agreesWithZod(doc: unknown): boolean {
  if (!isExactlyCanonical(doc)) return false;
  const parsed = sessionSchema.safeParse(doc);
  expect(parsed.success).toBe(true);
  expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(doc));
  return true;
}

describe('isExactlyCanonical', () => {
  it('accepts generated canonical documents, which zod returns unchanged', () => {
    fc.assert(
      fc.property(arbitrarySession(), (doc) => {
        expect(agreesWithZod(doc)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts what zod refuses or would change (one random mutation each)', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(arbitrarySession(), fc.nat(), mutation, (doc, pick, change) => {
        const paths = pathsOf(doc);
        const path = paths[pick % paths.length]!;
        const concrete: Mutation =
          change.kind === 'replace' ? { kind: 'replace', value: replacementFor(path, change.value as { choice: number; random: unknown; edge: boolean }) } : change;
        const mutated = mutate(doc, path, concrete);
        if (agreesWithZod(mutated)) accepted++;
        else refused++;
      }),
      { numRuns: 10_000 },
    );
    // Both outcomes occur, so the property is not vacuous.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });

  it('refuses objects that are not plain JSON data, leaving them to zod', () => {
    const doc = richSession();
    expect(isExactlyCanonical(JSON.parse(JSON.stringify(sessionSchema.parse(doc))))).toBe(true);
    const withToJson = JSON.parse(JSON.stringify(sessionSchema.parse(doc))) as Record<string, unknown>;
    Object.setPrototypeOf(withToJson.workshop as object, { toJSON: () => 'surprise' });
    expect(isExactlyCanonical(withToJson)).toBe(false);
    expect(isExactlyCanonical(Object.assign(Object.create(null) as object, sessionSchema.parse(doc)))).toBe(false);
  });
});
