// __proto__, constructor and prototype at every level: refused by create, kept (or named) by decode, never dropped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { SessionError } from '../../src/session/errors.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { RESERVED_KEYS } from '../../src/session/paths.js';
import { linkOf } from '../fixtures/hostile-cases.js';
import { arbitrarySession } from '../fixtures/sessions.js';

const operations = createSessionOperations(loadCodec);
const RESERVED = [...RESERVED_KEYS];

type Path = (string | number)[];
interface Insertion {
  readonly path: Path;
  readonly key: string;
}

/** Every object of a JSON value with its path (lanePersons, items, unknown data alike). */
function objectsOf(value: unknown, path: Path = [], into: { path: Path; object: Record<string, unknown> }[] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => objectsOf(v, [...path, i], into));
  else if (typeof value === 'object' && value !== null) {
    into.push({ path, object: value as Record<string, unknown> });
    for (const key of Object.keys(value)) objectsOf((value as Record<string, unknown>)[key], [...path, key], into);
  }
  return into;
}

/** An own property, also for `__proto__` (as JSON.parse makes it). */
function defineOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A valid document as JSON text with reserved keys added to random objects (arrays of IDs under lanePersons). */
const documents = fc
  .tuple(arbitrarySession(), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...RESERVED), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(['p0']))), { minLength: 1, maxLength: 6 }))
  .map(([doc, additions]) => {
    const copy = structuredClone(doc);
    const insertions: Insertion[] = [];
    for (const [pick, key, value] of additions) {
      const targets = objectsOf(copy);
      const { path, object } = targets[pick % targets.length]!;
      if (Object.hasOwn(object, key)) continue;
      defineOwn(object, key, path[path.length - 1] === 'lanePersons' ? ['p0'] : value);
      insertions.push({ path, key });
    }
    return { text: JSON.stringify(copy), insertions };
  });

/** The value at `path` read through own properties only (a prototype would hide a dropped key). */
function ownAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Every object of the output is plain (Object.prototype) and every array an array: no prototype was changed. */
function allPlain(value: unknown): boolean {
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && value.every(allPlain);
  if (typeof value !== 'object' || value === null) return true;
  return Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).every((key) => allPlain((value as Record<string, unknown>)[key]));
}

describe('reserved key names never vanish', () => {
  it('create refuses every document holding one, naming a reserved key by its path', async () => {
    await fc.assert(
      fc.asyncProperty(documents, async ({ text, insertions }) => {
        const error = await operations.createSessionLink(JSON.parse(text)).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SessionError);
        const { message, problems } = error as SessionError;
        expect(message.startsWith('SESSION_VALIDATION_FAILED: ')).toBe(true);
        // The document is otherwise valid, so every problem is a reserved key: `…["__proto__"]`, `…["constructor"]` ….
        for (const problem of problems) expect(problem.path).toMatch(/\["(__proto__|constructor|prototype)"\]$/);
        // A key inside another one's value is not looked at (its parent is refused already).
        const outer = insertions.filter(({ path }) => !path.some((segment) => typeof segment === 'string' && RESERVED_KEYS.has(segment)));
        expect(problems.length).toBe(Math.min(outer.length, 5));
      }),
      { numRuns: 300 },
    );
  });

  it('decode keeps every one as an own property with its value (0 dropped), and all output objects stay plain', async () => {
    let kept = 0;
    let named = 0;
    await fc.assert(
      fc.asyncProperty(documents, async ({ text, insertions }) => {
        const original = JSON.parse(text) as unknown;
        const result = await operations.decodeSessionLink(linkOf(text)).then(
          (r) => r,
          (e: unknown) => e,
        );
        if (result instanceof SessionError) {
          // Only a wrong value type can fail (say a string where an item object is expected); then the key is named.
          expect(result.message).toMatch(/\["(__proto__|constructor|prototype)"\]/);
          named++;
          return;
        }
        const { session, warnings } = result as { session: unknown; warnings?: string[] };
        expect(allPlain(session)).toBe(true);
        const serialized = JSON.parse(JSON.stringify(session)) as unknown;
        for (const { path, key } of insertions) {
          expect(ownAt(session, [...path, key])).toEqual(ownAt(original, [...path, key]));
          expect(ownAt(serialized, [...path, key])).toEqual(ownAt(original, [...path, key]));
          kept++;
        }
        expect(warnings?.length ?? 0).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
    expect(kept).toBeGreaterThan(300);
    expect(Object.prototype).not.toHaveProperty('polluted');
    console.log(`reserved keys kept: ${kept}; decodes refused naming one: ${named}`);
  });
});
