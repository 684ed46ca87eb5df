// The create result's JSON is built around the link without escaping it; it must equal what JSON.stringify writes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createResultJson, resultJson } from '../../src/mcp/result-json.js';

const PAYLOAD_UNIT = fc.constantFrom(...'ABCXYZabcxyz0189+-$'.split(''));
/** Any UTF-16 code unit, lone surrogates and control characters included. */
const ANY_UNIT = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const SUMMARY = fc.record({
  title: fc.string({ unit: ANY_UNIT, maxLength: 40 }),
  blockCount: fc.nat(),
  totalDuration: fc.nat(),
});

describe('createResultJson', () => {
  it('equals JSON.stringify of { link, summary } and of that JSON, for snapshot links and any title', () => {
    const link = fc
      .tuple(fc.constantFrom('https://sessionplan.de/', 'http://127.0.0.1:8080/base/?q=a&b=c', 'https://example.org/x?q=~!*()\''), fc.string({ unit: PAYLOAD_UNIT, maxLength: 300 }))
      .map(([base, payload]) => `${base}#data=v2:${payload}`);
    fc.assert(
      fc.property(link, SUMMARY, (l, summary) => {
        const built = createResultJson(l, summary);
        expect(built).toEqual(resultJson({ link: l, summary }));
        expect(built.structured).toBe(JSON.stringify({ link: l, summary }));
        expect(JSON.parse(built.text as string)).toBe(built.structured);
      }),
      { numRuns: 2_000 },
    );
  });

  it('falls back to JSON.stringify for a base URL with characters JSON escapes, and for text that is no snapshot link', () => {
    fc.assert(
      fc.property(fc.string({ unit: ANY_UNIT, maxLength: 40 }), fc.string({ unit: PAYLOAD_UNIT, maxLength: 50 }), SUMMARY, (base, payload, summary) => {
        const l = `${base}#data=v2:${payload}`;
        const built = createResultJson(l, summary);
        expect(built.structured).toBe(JSON.stringify({ link: l, summary }));
        expect(built.text).toBe(JSON.stringify(built.structured));
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: ANY_UNIT, maxLength: 60 }), SUMMARY, (l, summary) => {
        const built = createResultJson(l, summary);
        expect(built.structured).toBe(JSON.stringify({ link: l, summary }));
        expect(built.text).toBe(JSON.stringify(built.structured));
      }),
      { numRuns: 2_000 },
    );
    // The base checked last is trusted only when the marker follows it directly.
    const summary = { title: 't', blockCount: 1, totalDuration: 2 };
    for (const l of ['https://sessionplan.de/#data=v2:AB', 'https://sessionplan.de/"\\#data=v2:AB', 'https://sessionplan.de/x#data=v2:AB', 'https://sessionplan.de/#data=v3:A"']) {
      expect(createResultJson(l, summary).structured).toBe(JSON.stringify({ link: l, summary }));
    }
    const odd = createResultJson('https://x.test/a"b\\c\u2028', { title: 't', blockCount: 1, totalDuration: 2 });
    expect(JSON.parse(odd.structured as string)).toEqual({ link: 'https://x.test/a"b\\c\u2028', summary: { title: 't', blockCount: 1, totalDuration: 2 } });
  });
});
