// docs/import-guide.md cannot drift: every ```json example goes through create and decode, every schema field is documented.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { sessionJsonSchema } from '../../src/session/json-schema.js';
import { createSessionOperations } from '../../src/session/operations.js';

const guide = readFileSync(new URL('../../docs/import-guide.md', import.meta.url), 'utf8');
const examples = [...guide.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
const operations = createSessionOperations(loadCodec);

/** Every property name anywhere in a JSON Schema. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const entry of schema) propertyNames(entry, into);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) into.add(name);
      propertyNames(value, into);
    }
  }
  return into;
}

describe('docs/import-guide.md', () => {
  it('has the promised examples: simple, groups, breakouts with lanes and lane people, fixed start time', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(examples.some((e) => e.includes('"type": "group"'))).toBe(true);
    expect(examples.some((e) => e.includes('"lanePersons": { "0"'))).toBe(true);
    expect(examples.some((e) => e.includes('"sameInAllBreakouts": true'))).toBe(true);
    expect(examples.some((e) => /"fixedStartTime": "\d\d:\d\d"/.test(e))).toBe(true);
  });

  it.each(examples.map((text, i) => [i + 1, text] as const))('example %i is accepted by create and comes back unchanged', async (_n, text) => {
    const document = JSON.parse(text) as unknown;
    const { link, summary } = await operations.createSessionLink(document);
    expect(summary.title).toBe((document as { workshop: { title: string } }).workshop.title);
    const { session, warnings } = await operations.decodeSessionLink(link);
    expect(warnings).toBeUndefined();
    // The examples spell out their defaults except the smallest one, so decode returns them as written.
    if (text.includes('"laneIndex"')) expect(session).toEqual(document);
  });

  it('documents every field of the schema', () => {
    const fields = propertyNames(sessionJsonSchema);
    expect([...fields]).toEqual(expect.arrayContaining(['version', 'workshop', 'startTime', 'color', 'role', 'laneIndex', 'lanes', 'sameInAllBreakouts', 'lanePersons', 'children']));
    const undocumented = [...fields].filter((name) => !guide.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });

  it('states the limits the code enforces', () => {
    for (const figure of ['500', '2,000,000 bytes', '750,000 characters', '4,000,000 bytes', '65,536 entries', '8,000,000 bytes']) expect(guide).toContain(figure);
  });
});
