// The budgeted schema walk against zod itself: same verdict, same output (keys and order), same first problems.
import fc from 'fast-check';
import type * as z from 'zod';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/session/errors.js';
import { problemFromIssue, type IssueMode } from '../../src/session/issues.js';
import { sessionSchema, tolerantSessionSchema } from '../../src/session/schema.js';
import { checkShape } from '../../src/session/walk.js';
import { arbitraryMutatedSession } from '../fixtures/mutations.js';
import { arbitraryOlderSession, arbitrarySession, block, group, minimalSession } from '../fixtures/sessions.js';

const LIMIT = 5;

/** zod's issues as the problems the walk lists: one per issue, one per unknown key. */
function zodProblems(issues: readonly z.core.$ZodIssue[], mode: IssueMode): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) problems.push(problemFromIssue({ ...issue, keys: [key] }, [], mode));
    else problems.push(problemFromIssue(issue, [], mode));
  }
  return problems;
}

/** The walk and zod agree on `doc`; returns whether it was valid (to show that both outcomes occur). */
function agrees(schema: z.ZodType, doc: unknown, mode: IssueMode, build: boolean): boolean {
  const walked = checkShape(schema, doc, { mode, limit: LIMIT, build });
  const parsed = schema.safeParse(doc, { reportInput: true });
  expect(walked.ok).toBe(parsed.success);
  if (walked.ok && parsed.success) {
    // JSON text compares keys, their order and every value.
    if (build) expect(JSON.stringify(walked.data)).toBe(JSON.stringify(parsed.data));
    else expect(walked.data).toBe(doc);
    return true;
  }
  if (walked.ok || parsed.success) return false;
  const expected = zodProblems(parsed.error.issues, mode);
  expect(walked.problems).toEqual(expected.slice(0, LIMIT));
  expect(walked.more).toBe(expected.length > LIMIT);
  return false;
}

/**
 * A reserved key (`__proto__`, `constructor`, `prototype`) in `lanePersons`, the schema's only record: zod drops it
 * without a word, create refuses it on purpose (test/unit/hostile-reserved-keys.test.ts), so zod is no oracle there.
 */
const reservedKeyInRecord = (doc: unknown): boolean => /"lanePersons":\{[^}]*"(?:__proto__|constructor|prototype)":/.test(JSON.stringify(doc) ?? '');

const mutated = arbitraryMutatedSession(arbitrarySession()).filter((doc) => !reservedKeyInRecord(doc));

describe('checkShape is zod with a problem budget', () => {
  it('strict (create): generated valid documents come out exactly as zod returns them', () => {
    fc.assert(fc.property(arbitrarySession(), (doc) => {
        expect(agrees(sessionSchema, doc, 'create', true)).toBe(true);
      }), { numRuns: 200 });
  });

  it('strict (create) and strict without output (the warnings of decode): mutated documents, same verdict and first problems', () => {
    const outcomes = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(mutated, (doc) => {
        const valid = agrees(sessionSchema, doc, 'create', true);
        expect(agrees(sessionSchema, doc, 'decode', false)).toBe(valid);
        outcomes[valid ? 'valid' : 'invalid']++;
      }),
      { numRuns: 3000 },
    );
    expect(outcomes.valid).toBeGreaterThan(100);
    expect(outcomes.invalid).toBeGreaterThan(1000);
  });

  it('tolerant (decode): mutated documents, same verdict, output and first problems', () => {
    const outcomes = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(mutated, (doc) => {
        outcomes[agrees(tolerantSessionSchema, doc, 'decode', true) ? 'valid' : 'invalid']++;
      }),
      { numRuns: 3000 },
    );
    expect(outcomes.valid).toBeGreaterThan(1000);
    expect(outcomes.invalid).toBeGreaterThan(100);
  });

  it('tolerant (decode): older documents with fields left out and unknown fields at every level', () => {
    let valid = 0;
    fc.assert(fc.property(arbitraryOlderSession(), (doc) => {
        if (agrees(tolerantSessionSchema, doc, 'decode', true)) valid++;
      }), { numRuns: 1000 });
    expect(valid).toBeGreaterThan(500);
  });

  it('hand-picked cases: nested problems before the unknown keys of their object, discriminators, records, defaults', () => {
    const cases: unknown[] = [
      { ...minimalSession(), items: [{ ...block('a'), title: 5, extra: 1 }, group('g', [group('h', [])])], theme: 1 },
      { ...minimalSession(), items: [{ type: 'breakout', id: 'b', title: 'B', duration: 1, description: '', notes: '', fixedStartTime: null, lanePersons: { x: [1], '0': 'p' }, children: [block('c', { laneIndex: '1' })] }] },
      { workshop: { title: 7 }, items: [{ type: 'block' }, { type: 'group', children: [{ type: 'note' }] }, 'text', null] },
      { version: 2, workshop: null, blockTypes: {}, persons: [{ id: 1 }], items: [{}] },
      { ...minimalSession(), persons: Array.from({ length: 1001 }, (_, i) => ({ id: `p${i}`, name: 'P', role: 1 })) },
    ];
    for (const doc of cases) {
      agrees(sessionSchema, doc, 'create', true);
      agrees(sessionSchema, doc, 'decode', false);
      agrees(tolerantSessionSchema, doc, 'decode', true);
    }
  });
});
