// The fast path for complete decoded documents (isUnchanged over the tolerant schema) may only accept what the tolerant
// walk accepts and returns unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DECODED_DEPTH } from '../../src/session/limits.js';
import { tolerantSessionSchema } from '../../src/session/schema.js';
import { readDecodedSession } from '../../src/session/validate.js';
import { checkShape, isUnchanged } from '../../src/session/walk.js';

const isCompleteTolerant = (doc: unknown): boolean => isUnchanged(tolerantSessionSchema, doc, 'decode');
import { arbitraryMutatedSession } from '../fixtures/mutations.js';
import { arbitraryOlderSession, arbitrarySession, block, group, minimalSession, richSession } from '../fixtures/sessions.js';

/** The contract: accepted ⇒ the tolerant walk (what the view would use instead) accepts it and returns an equal document. */
function agreesWithWalk(doc: unknown): boolean {
  if (!isCompleteTolerant(doc)) return false;
  const shape = checkShape(tolerantSessionSchema, doc, { mode: 'decode', limit: 5, build: true });
  expect(shape.ok).toBe(true);
  if (shape.ok) expect(shape.data).toStrictEqual(doc);
  expect(tolerantSessionSchema.safeParse(doc).data).toStrictEqual(doc);
  return true;
}

describe('isUnchanged over the tolerant schema (a complete decoded document)', () => {
  it('accepts canonical documents and what the tolerant walk makes of older ones, which it returns unchanged', () => {
    fc.assert(fc.property(arbitrarySession(), (doc) => { expect(agreesWithWalk(doc)).toBe(true); }), { numRuns: 200 });
    let filledIn = 0;
    fc.assert(
      fc.property(arbitraryOlderSession(), (doc) => {
        const shape = checkShape(tolerantSessionSchema, doc, { mode: 'decode', limit: 5, build: true });
        if (!shape.ok) return;
        filledIn++;
        // The server's decode result: the walk's output, and its JSON read back as a client or host gets it.
        expect(agreesWithWalk(shape.data)).toBe(true);
        expect(agreesWithWalk(JSON.parse(JSON.stringify(shape.data)))).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(filledIn).toBeGreaterThan(150);
  });

  it('never accepts what the walk refuses or would fill in or change (random mutations, older documents)', () => {
    const outcomes = { accepted: 0, refused: 0 };
    const count = (doc: unknown): void => {
      outcomes[agreesWithWalk(doc) ? 'accepted' : 'refused']++;
    };
    fc.assert(fc.property(arbitraryMutatedSession(arbitrarySession()), count), { numRuns: 3000 });
    fc.assert(fc.property(arbitraryOlderSession(), count), { numRuns: 500 });
    // Both outcomes occur, so the property is not vacuous.
    expect(outcomes.accepted).toBeGreaterThan(500);
    expect(outcomes.refused).toBeGreaterThan(1000);
  });

  it('refuses what a postMessage can carry but JSON cannot, and nesting deeper than a decoded document may have', () => {
    const doc = (): Record<string, unknown> => structuredClone(richSession());
    expect(agreesWithWalk(doc())).toBe(true);
    const withItems = (items: unknown): Record<string, unknown> => ({ ...doc(), items });
    expect(isCompleteTolerant(withItems([block('a', { duration: Number.NaN })]))).toBe(false);
    expect(isCompleteTolerant(withItems([block('a', { laneIndex: Number.POSITIVE_INFINITY })]))).toBe(false);
    expect(isCompleteTolerant(withItems([block('a', { personIds: [, 'p'] })]))).toBe(false);
    expect(isCompleteTolerant(withItems([block('a', { title: new String('boxed') })]))).toBe(false);
    expect(isCompleteTolerant(withItems(new Map()))).toBe(false);
    expect(isCompleteTolerant({ ...doc(), workshop: new Date() })).toBe(false);
    expect(isCompleteTolerant(Object.assign(Object.create(null) as object, doc()))).toBe(false);
    expect(isCompleteTolerant(withItems([{ ...block('a'), type: 'note' }]))).toBe(false);
    expect(isCompleteTolerant({ ...minimalSession(), version: '1.0' })).toBe(false);
    let nested: Record<string, unknown> = block('deepest');
    for (let level = 0; level < MAX_DECODED_DEPTH; level++) nested = group(`g${level}`, [nested]);
    // Nesting is bounded where documents are read (readDecodedSession), not here: a deep one is as complete.
    expect(agreesWithWalk(withItems([nested]))).toBe(true);
  });

  it('accepts the decode tool’s own results: canonical links and older documents read through the tolerant schema', () => {
    const older = readDecodedSession(JSON.stringify({ workshop: { title: 'Alt' }, items: [{ type: 'block', title: 'A', duration: 5, colour: 'red' }, group('g', [group('h', [])])] }));
    expect(older.warnings.length).toBeGreaterThan(0);
    expect(agreesWithWalk(older.session)).toBe(true);
    expect(agreesWithWalk(readDecodedSession(JSON.stringify(richSession())).session)).toBe(true);
  });
});
