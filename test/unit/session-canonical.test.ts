// The canonical fast path (isUnchanged over the strict schema) may only accept what zod accepts and returns unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sessionSchema } from '../../src/session/schema.js';
import { isUnchanged } from '../../src/session/walk.js';

const isExactlyCanonical = (doc: unknown): boolean => isUnchanged(sessionSchema, doc, 'create');
import { mutate, mutation, pathsOf, replacementFor, type Mutation } from '../fixtures/mutations.js';
import { arbitrarySession, richSession } from '../fixtures/sessions.js';

/** The contract: accepted ⇒ zod accepts and returns the very same JSON. */
function agreesWithZod(doc: unknown): boolean {
  if (!isExactlyCanonical(doc)) return false;
  const parsed = sessionSchema.safeParse(doc);
  expect(parsed.success).toBe(true);
  expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(doc));
  return true;
}

describe('isUnchanged over the strict schema (a canonical document)', () => {
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
