// codec.canonicalJsonSpan: found only where the text is exactly JSON.stringify's, and found for what stringify writes.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const PATH = ['params', 'arguments', 'session'];
const envelope = (valueText: string): string =>
  `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_session_link","arguments":{"session":${valueText}}}}`;

/** Own keys of every object in a JSON value, the count the span's `members` is compared with. */
function memberCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, entry) => n + memberCount(entry), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.values(value).reduce((n: number, entry) => n + memberCount(entry), Object.keys(value).length);
}

/** The contract's promise: a found span with the parsed value's member count is the value's serialization. */
function spanIsSerialization(text: string): boolean {
  const span = codec.canonicalJsonSpan(text, PATH);
  if (span === undefined) return true;
  const value = (JSON.parse(text) as { params: { arguments: { session: unknown } } }).params.arguments.session;
  if (span.members !== memberCount(value)) return true; // the caller falls back here
  return text.slice(span.start, span.end) === JSON.stringify(value);
}

/** Integers only (as sessions hold), keys and strings from units that exercise escapes, surrogates and index keys. */
const keyUnits = fc.constantFrom('a', 'b', '0', '1', '9', '"', '\\', '\n', '\u0001', '\u001f', 'é', '\ud83d\ude00', '/');
const jsonKey = fc.oneof(
  fc.string({ unit: keyUnits, maxLength: 4 }),
  fc.constantFrom('0', '1', '2', '10', '01', '-1', '4294967294', '4294967295', '12345678901', '__proto__', 'session'),
);
const textUnit = fc.oneof(keyUnits, fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)));
const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: textUnit, maxLength: 12 }),
    fc.integer({ min: -1e15 + 1, max: 1e15 - 1 }),
    fc.constantFrom(true, false, null, 0),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(jsonKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('canonicalJsonSpan', () => {
  it('finds the value JSON.stringify wrote, and returns exactly its text (2,000 random values)', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const valueText = JSON.stringify(value);
        const text = envelope(valueText);
        const span = codec.canonicalJsonSpan(text, PATH);
        // stringify escapes lone surrogates (\udxxx), which the span does not accept; everything else it writes is.
        if (/\\ud[89a-f]/.test(valueText)) return span === undefined;
        return span !== undefined && text.slice(span.start, span.end) === valueText && span.members === memberCount(value);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never returns a span that differs from the serialization (3,000 texts mangled by hand-picked edits)', () => {
    const edits: ((text: string) => string)[] = [
      (t) => t.replace(':', ': '),
      (t) => t.replace(/,"session"/, ',"session":1,"session"'),
      (t) => t.replace(/\d+/, (d) => `${d}.0`),
      (t) => t.replace(/\d+/, (d) => `${d}e0`),
      (t) => t.replace(/\d/, '-0'),
      (t) => t.replace(/"a/, '"\\u0061'),
      (t) => t.replace(/\\n/, '\\u000a'),
      (t) => t.replace(/\\u00([0-9a-f])([0-9a-f])/, (_m, h: string, l: string) => `\\u00${h}${l.toUpperCase()}`),
      (t) => t.replace('/', '\\/'),
      (t) => t.replace(/"1"/, '"01"'),
      (t) => t.replace(/\{"(\w+)":/, '{"$1":0,"$1":'),
      (t) => t.replace(/\}$/, ' }'),
      (t) => t,
    ];
    fc.assert(
      fc.property(jsonValue, fc.array(fc.nat(edits.length - 1), { minLength: 1, maxLength: 3 }), (value, picks) => {
        let text = envelope(JSON.stringify(value));
        for (const pick of picks) text = edits[pick]!(text);
        try {
          JSON.parse(text);
        } catch {
          return true; // an edit that broke the JSON: such a body never gets this far
        }
        return spanIsSerialization(text);
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuses each way a text can differ from what JSON.stringify writes', () => {
    const refused = [
      '{"a": 1}', // whitespace
      '{"a":1.5}', // not an integer
      '{"a":1e2}',
      '{"a":-0}',
      '{"a":1234567890123456}', // 16 digits
      '{"a":"\\u0041"}', // an escape stringify does not write
      '{"a":"\\/"}',
      '{"a":"\\u000a"}', // stringify writes \n
      '{"a":"\\u001F"}', // stringify writes lower case
      '{"a":"\\ud800"}', // an escaped lone surrogate
      '{"a":"\ud800"}', // a raw lone surrogate (stringify escapes it)
      '{"a":"\udc00x"}',
      '{"b":1,"1":2}', // V8 puts index keys first
      '{"2":1,"1":2}',
      '{"1":1,"1":2}',
      '{"a":1,"4294967294":2}', // the largest index
    ];
    for (const valueText of refused) expect(codec.canonicalJsonSpan(envelope(valueText), PATH), valueText).toBeUndefined();
  });

  it('accepts what stringify writes, including controls, pairs, index keys and 15-digit integers', () => {
    const accepted = [
      '{}',
      '[]',
      '"x"',
      '0',
      '-7',
      'null',
      '[999999999999999,-999999999999999]',
      '{"0":1,"7":[true,false],"a":{"b":"\\n\\u0001\\"\\\\\ud83d\ude00"}}',
      '{"4294967294":1,"01":2,"4294967295":3,"b":4,"12345678901":5}', // the largest index, then keys that are none
    ];
    for (const valueText of accepted) {
      const text = envelope(valueText);
      const span = codec.canonicalJsonSpan(text, PATH);
      expect(span, valueText).toBeDefined();
      expect(text.slice(span!.start, span!.end)).toBe(valueText);
      expect(JSON.stringify(JSON.parse(valueText))).toBe(valueText);
    }
  });

  it('follows the path as JSON.parse does: whitespace around it, keys in any order, no repeated or escaped keys', () => {
    const value = '{"k":[1,2]}';
    const ok = [
      ` { "params" : { "arguments" : { "x" : [ "}" , { } ] , "session" : ${value} } , "name" : "n" } , "id" : 1 } `,
      `{"params":{"arguments":{"session":${value},"after":{"session":1}}}}`,
      `{"session":0,"params":{"session":1,"arguments":{"session":${value}}}}`,
    ];
    for (const text of ok) {
      const span = codec.canonicalJsonSpan(text, PATH);
      expect(span, text).toBeDefined();
      expect(text.slice(span!.start, span!.end)).toBe(value);
      expect(span!.members).toBe(1);
    }
    const notFollowed = [
      `{"params":{"arguments":{"session":${value},"session":${value}}}}`, // JSON.parse keeps the last
      `{"params":{"arguments":{"session":${value}}},"params":{"arguments":{"session":${value}}}}`,
      `{"params":{"arguments":{"sessio\\u006e":${value}}}}`,
      `{"params":{"arguments":{"session":${value},"sessio\\u006e":1}}}`,
      `{"params":{"arguments":[]}}`,
      `{"params":{"arguments":{}}}`,
      `[{"params":{"arguments":{"session":${value}}}}]`,
    ];
    for (const text of notFollowed) expect(codec.canonicalJsonSpan(text, PATH), text).toBeUndefined();
  });

  it('does not look at a text over the compressor input budget', () => {
    const long = envelope(`"${'a'.repeat(2_100_000)}"`);
    expect(codec.canonicalJsonSpan(long, PATH)).toBeUndefined();
    expect(() => codec.canonicalJsonSpan(envelope('1'), ['x'.repeat(70_000)])).toThrow(TypeError);
  });
});
