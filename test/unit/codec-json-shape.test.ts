// codec.jsonShape and decompress's value limits: what a decoded text costs as JSON, read in linear memory before parsing.
import fc from 'fast-check';
import LZString from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import type { Codec } from '../../src/codec/node.js';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const shapeOf = (text: string) => codec.jsonShape(LZString.compressToEncodedURIComponent(text));
const writtenBytes = (text: string): number => Buffer.byteLength(JSON.stringify(JSON.parse(text)));

/** Values (keys not counted) and containers of a parsed JSON value. */
function counts(value: unknown): { values: number; containers: number } {
  if (typeof value !== 'object' || value === null) return { values: 1, containers: 0 };
  let values = 1;
  let containers = 1;
  for (const entry of Object.values(value)) {
    const inner = counts(entry);
    values += inner.values;
    containers += inner.containers;
  }
  return { values, containers };
}

/** Units that exercise every escape: quotes, backslashes, controls, DEL, U+2028, both surrogate halves, pairs. */
const textUnit = fc.oneof(
  fc.constantFrom('a', '"', '\\', '/', '\n', '\t', '\b', '\f', '\r', '\u0001', '\u001f', '\u007f', 'é', '€', '\u2028', '\ud800', '\udbff', '\udc00', '\udfff', '😀'),
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
);
const integer = fc.integer({ min: -1e15 + 1, max: 1e15 - 1 });
const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: textUnit, maxLength: 12 }),
    integer,
    fc.constantFrom(true, false, null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: textUnit, maxLength: 4 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** JSON text of `value` written the many ways a link's text may hold it: \\u escapes for any unit, raw units where allowed, white space. */
function writtenOddly(value: unknown, seed: number): string {
  let n = seed;
  const next = (): number => (n = (n * 1103515245 + 12345) % 2147483648);
  const space = (): string => (next() % 4 === 0 ? ' \n\t'.slice(0, next() % 3 + 1) : '');
  const str = (text: string): string => {
    let out = '"';
    for (const unit of Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))) {
      const raw = String.fromCharCode(unit);
      if (next() % 3 === 0) out += `\\u${unit.toString(16).padStart(4, '0')[next() % 2 === 0 ? 'toUpperCase' : 'toLowerCase']()}`;
      else if (unit === 0x22 || unit === 0x5c || unit < 0x20) out += JSON.stringify(raw).slice(1, -1);
      else out += raw;
    }
    return `${out}"`;
  };
  const write = (v: unknown): string => {
    if (typeof v === 'string') return str(v);
    if (typeof v !== 'object' || v === null) return JSON.stringify(v);
    const inner = Array.isArray(v) ? v.map((e) => space() + write(e) + space()) : Object.entries(v).map(([k, e]) => `${space()}${str(k)}${space()}:${space()}${write(e)}`);
    return Array.isArray(v) ? `[${inner.join(',')}]` : `{${inner.join(',')}}`;
  };
  return space() + write(value) + space();
}

describe('jsonShape', () => {
  it('counts exactly the bytes JSON.stringify writes, and the values and containers JSON.parse makes (integers, no duplicate keys)', () => {
    fc.assert(
      fc.property(jsonValue, fc.integer({ min: 1, max: 1000 }), (value, seed) => {
        const text = writtenOddly(value, seed);
        const parsed: unknown = JSON.parse(text);
        const shape = shapeOf(text);
        expect(shape.units).toBe(text.length);
        expect(shape.writtenBytes).toBe(writtenBytes(text));
        expect({ values: shape.values, containers: shape.containers }).toEqual(counts(parsed));
      }),
      { numRuns: 400 },
    );
  });

  it('is an upper bound for other numbers and for duplicate keys', () => {
    for (const text of ['[1e20,1.5,-0,0.1e1,100000000000000000000000000000,-0.0000012345678901234567]', '{"a":"long value","a":1}', '[1E2,2e-7]']) {
      expect(shapeOf(text).writtenBytes).toBeGreaterThanOrEqual(writtenBytes(text));
    }
    expect(shapeOf('[1e20]').writtenBytes).toBe(27); // 21 digits written, 25 counted
  });

  it('counts lone surrogates as the six-character escape they are written as, pairs as four UTF-8 bytes', () => {
    expect(shapeOf(`["${'\ud800'.repeat(1000)}"]`).writtenBytes).toBe(6_004);
    expect(shapeOf('["\\ud83d\\ude00", "😀", "\\ud83d", "\\ude00\\ud83d"]').writtenBytes).toBe(writtenBytes('["\\ud83d\\ude00", "😀", "\\ud83d", "\\ude00\\ud83d"]'));
  });

  it('counts unpaired surrogates, raw or escaped, at a string\'s end too, and not pairs or escaped backslashes', () => {
    const cases: Array<[string, number]> = [
      [`["${'\ud800'.repeat(1000)}"]`, 1000],
      ['["\\ud83d\\ude00", "😀", "\\ud83d", "\\ude00\\ud83d"]', 3],
      ['["\\\\ud800", "a\\udfffb", "\udc00\ud800"]', 3],
      ['{"\ud800":"x"}', 1],
      ['["plain", 1, true]', 0],
    ];
    for (const [text, lone] of cases) expect(shapeOf(text).loneSurrogates, text).toBe(lone);
  });

  it('refuses what decompress refuses', () => {
    expect(() => codec.jsonShape('Q!')).toThrow(expect.objectContaining({ code: 'INVALID_PAYLOAD' }) as Error);
  });
});

describe('decompress with value limits', () => {
  const flood = `{"a":[${Array(3000).fill('{}').join(',')}],"b":[${Array(5000).fill('0').join(',')}]}`;
  const payload = LZString.compressToEncodedURIComponent(flood);

  it('refuses more objects and arrays, or more values, than allowed, before the text is made', () => {
    expect(() => codec.decompress(payload, { maxJsonContainers: 3000 })).toThrow(
      expect.objectContaining({ code: 'JSON_VALUE_LIMIT', message: 'Value limit exceeded: the text holds more than 3,000 JSON objects and arrays.' }) as Error,
    );
    expect(() => codec.decompress(payload, { maxJsonValues: 8000 })).toThrow(
      expect.objectContaining({ code: 'JSON_VALUE_LIMIT', message: 'Value limit exceeded: the text holds more than 8,000 JSON values.' }) as Error,
    );
  });

  it('gives the text when it is within the limits', () => {
    expect(codec.decompress(payload, { maxJsonContainers: 3003, maxJsonValues: 8003 })).toBe(flood);
  });
});
