// Codec API: error table mirrors assembly/, entries load (Node file, browser fetch), recovery after faults.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import lz from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEC_BUDGETS, CodecError, bufferStrings, createCodec, loadCodec, loadCodecModule, type Codec } from '../../src/codec/node.js';
import { isomorphicStrings } from '../../src/codec/strings.js';
import { STATUS_CODES } from '../../src/codec/errors.js';
import type { CodecErrorCode } from '../../src/codec/errors.js';
import { failureMessage } from '../../src/codec/messages.js';
import { loadCodec as loadBrowserCodec } from '../../src/codec/browser.js';

const source = (path: string): Promise<string> => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The isomorphic (browser) transfer around the shared module, counting the payloads it sent as bytes. */
function countingIsomorphicCodec(module: WebAssembly.Module): { codec: Codec; asciiWrites: () => number } {
  let writes = 0;
  const codec = createCodec(module, {
    strings: {
      writeAscii(memory, pointer, text) {
        const ascii = isomorphicStrings.writeAscii!(memory, pointer, text);
        if (ascii) writes++;
        return ascii;
      },
    },
  });
  return { codec, asciiWrites: () => writes };
}

describe('one table of codes and budgets, shared with the WASM module', () => {
  it('CODEC_BUDGETS equal the constants compiled into assembly/budgets.ts', async () => {
    const budgets = await source('assembly/budgets.ts');
    const constant = (name: string): number => Number(new RegExp(`${name}: i32 = ([0-9_]+)`).exec(budgets)?.[1]?.replace(/_/g, ''));
    expect(constant('PAYLOAD_CHARS')).toBe(CODEC_BUDGETS.payloadChars);
    expect(constant('OUTPUT_BYTES')).toBe(CODEC_BUDGETS.outputBytes);
    expect(constant('DICTIONARY_ENTRIES')).toBe(CODEC_BUDGETS.dictionaryEntries);
    expect(constant('CONTENT_BYTES')).toBe(CODEC_BUDGETS.contentBytes);
  });

  it('every WASM status maps to the error code of the same name', async () => {
    const status = await source('assembly/status.ts');
    const statuses = [...status.matchAll(/export const ([A-Z_]+): i32 = (-\d+);/g)];
    expect(statuses.length).toBe(Object.keys(STATUS_CODES).length);
    for (const [, name, value] of statuses) expect(STATUS_CODES[Number(value)]).toBe(name);
  });
});

describe('messages for the failures no real input can reach', () => {
  // Content can never trip first (content ≤ output + entries) and the budgets fit the memory cap,
  // so these codes are backstops; their sentences are still checked.
  const detail = (code: CodecErrorCode, amount: number) => ({ code, reason: 0, amount, position: 10, inputLength: 40, direction: 'compress' as const });
  it.each([
    ['CONTENT_BUDGET', 8_000_002, /^Dictionary content budget exceeded: .*8,000,000 bytes.*10 of 40 characters \(25\.0 %\).*\.$/],
    ['MEMORY_LIMIT', 9_000_000, /^Memory limit reached: .*9,000,000 bytes.*7,340,032\.$/],
    ['TRAP', 0, /^Internal codec fault: .*retried\.$/],
    ['DICTIONARY_BUDGET', 65_537, /about 4\.0 times too large/],
  ] as const)('%s', (code, amount, expected) => {
    const message = failureMessage(detail(code, amount));
    expect(message).toMatch(expected);
    expect(message.slice(0, -1)).not.toMatch(/[.!?]\s/);
  });
});

describe('Node entry', () => {
  it('loadCodec returns one shared codec that matches lz-string', async () => {
    const codec = await loadCodec();
    expect(await loadCodec()).toBe(codec);
    expect(codec.compress('Hallo Welt')).toBe(lz.compressToEncodedURIComponent('Hallo Welt'));
  });

  it('CodecError carries a code, a name and a one-sentence message', async () => {
    const codec = await loadCodec();
    const error = (() => {
      try {
        codec.decompress('');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(CodecError);
    expect(error).toBeInstanceOf(Error);
    expect((error as CodecError).code).toBe('INVALID_PAYLOAD');
    expect((error as CodecError).name).toBe('CodecError');
    expect((error as CodecError).message).toBe('Invalid payload: the payload is empty.');
  });

  it('refuses non-string input with a TypeError instead of crashing', async () => {
    const codec = await loadCodec();
    expect(() => codec.compress(42 as unknown as string)).toThrow(TypeError);
    expect(() => codec.compress(['a', 1] as unknown as string[])).toThrow(TypeError);
    expect(() => codec.decompress(null as unknown as string)).toThrow(TypeError);
  });

  it('compresses a text given in pieces exactly as the joined text, budgets and failure positions included', async () => {
    const codec = await loadCodec();
    const isomorphic = createCodec(await loadCodecModule());
    const text = `${'{"id":"x","title":"Grüße 😀"},'.repeat(5_000)}\ud800${'z'.repeat(70_000)}`;
    const cuts = [0, 1, 2, 7_001, 70_000, 70_001, text.length - 1, text.length];
    const pieces = cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
    expect(pieces.join('')).toBe(text);
    for (const each of [codec, isomorphic]) {
      expect(each.compress(pieces)).toBe(lz.compressToEncodedURIComponent(text));
      expect(each.compress([])).toBe(lz.compressToEncodedURIComponent(''));
    }
    const random = Array.from({ length: 300_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join('');
    const refusal = (input: string | string[]): string => {
      try {
        return codec.compress(input);
      } catch (error) {
        return `${(error as CodecError).code}: ${(error as CodecError).message}`;
      }
    };
    expect(refusal([random.slice(0, 1234), random.slice(1234)])).toBe(refusal(random));
    expect(refusal(random)).toMatch(/^DICTIONARY_BUDGET: .*of 300,000 characters/);
  });

  it('every kind of refusal leaves the codec working', async () => {
    const codec = await loadCodec();
    for (const bad of ['', 'wA1', 'Q!', 'QA', 'BYUwNmD2AEDukCc', 'A'.repeat(750_001)]) {
      expect(() => codec.decompress(bad)).toThrow(CodecError);
      expect(codec.decompress(codec.compress('still fine'))).toBe('still fine');
    }
  });

  it('a fault outside the normal paths becomes TRAP, and a fresh instance serves the next call', async () => {
    const module = await loadCodecModule();
    let faults = 1;
    const codec = createCodec(module, {
      strings: {
        writeUtf16(memory, pointer, text) {
          if (faults-- > 0) new Uint16Array(memory, memory.byteLength + 2, 1); // RangeError, like a trap
          new Uint16Array(memory, pointer, text.length).set(Array.from(text, (char) => char.charCodeAt(0)));
        },
      },
    });
    expect(() => codec.compress('abc')).toThrow(expect.objectContaining({ code: 'TRAP' }) as Error);
    expect(codec.compress('abc')).toBe(lz.compressToEncodedURIComponent('abc'));
  });

  it('the built entry dist/codec/node.js finds codec.wasm beside itself', async () => {
    const built = new URL('../../dist/codec/node.js', import.meta.url);
    const wasm = new URL('../../dist/codec/codec.wasm', import.meta.url);
    await expect(readFile(wasm), 'dist/codec/codec.wasm is missing: run `npm run build` first').resolves.toBeInstanceOf(Buffer);
    const entry = (await import(built.href)) as typeof import('../../src/codec/node.js');
    const codec = await entry.loadCodec();
    expect(codec.compress('dist')).toBe(lz.compressToEncodedURIComponent('dist'));
  });

  it('the isomorphic string transfer (no Buffer) is exact for BOM and lone surrogates', async () => {
    const codec = createCodec(await loadCodecModule());
    const text = '\ufeff\ud800 text \udfff😀\uffff';
    expect(codec.compress(text)).toBe(lz.compressToEncodedURIComponent(text));
    expect(codec.decompress(codec.compress(text))).toBe(text);
    expect(codec.decompress(codec.compress('\ufeffplain'))).toBe('\ufeffplain');
  });

  it('the isomorphic transfer is exact across its 8,192-unit chunks (pairs split at a boundary, lone surrogates on one)', async () => {
    const codec = createCodec(await loadCodecModule());
    const filler = (length: number, seed: number): string => Array.from({ length }, (_, index) => String.fromCharCode(0x20 + ((index * 7 + seed) % 0x3000))).join('');
    // Boundaries at 8,192 and 16,384 units: a pair straddles the first, a lone high surrogate ends the second chunk.
    const text = `\ufeff${filler(8190, 1)}😀${filler(8190, 2)}\ud800\udbff${filler(5000, 3)}\udc00`;
    expect(text.codePointAt(8191)).toBe(0x1f600);
    const payload = codec.compress(text);
    expect(payload).toBe(lz.compressToEncodedURIComponent(text));
    const decoded = codec.decompress(payload);
    expect(decoded.length).toBe(text.length);
    expect(decoded === text).toBe(true);
  });

  it('the isomorphic transfer sends ASCII payloads as bytes: exact at every length mod 4, refusals identical to the Buffer transfer', async () => {
    const module = await loadCodecModule();
    const { codec: isomorphic, asciiWrites } = countingIsomorphicCodec(module);
    const buffered = createCodec(module, { strings: bufferStrings });
    const payloadLengths = new Set<number>();
    for (let length = 1; length <= 48; length++) {
      const text = Array.from({ length }, (_, index) => String.fromCharCode(0x20 + ((index * 37 + length) % 0x2fe0))).join('');
      const payload = lz.compressToEncodedURIComponent(text);
      payloadLengths.add(payload.length % 4);
      expect(isomorphic.decompress(payload)).toBe(text);
    }
    expect([...payloadLengths].sort()).toEqual([0, 1, 2, 3]);
    expect(asciiWrites()).toBe(48);
    const refusal = (codec: typeof isomorphic, payload: string): string => {
      try {
        return `accepted ${codec.decompress(payload)}`;
      } catch (error) {
        return error instanceof CodecError ? `${error.code}: ${error.message}` : String(error);
      }
    };
    for (const bad of ['Q!', 'wA1', 'BYUwNmD2AEDukCc', 'BYUwNmD2AEDukCc!', 'BYUwNmD2AEDukCcÄ', 'NoIg\ud800Lg', '😀', 'A'.repeat(750_001)]) {
      expect(refusal(isomorphic, bad)).toBe(refusal(buffered, bad));
      expect(refusal(isomorphic, bad)).toMatch(/^(INVALID_PAYLOAD|PAYLOAD_TOO_LONG): /);
    }
  });

  it('the byte path decodes large payloads exactly: a dictionary near its budget, entries thousands of units long', async () => {
    const module = await loadCodecModule();
    const { codec: isomorphic, asciiWrites } = countingIsomorphicCodec(module);
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const words = Array.from({ length: 40_000 }, () => Array.from({ length: 2 + Math.floor(random() * 7) }, () => String.fromCharCode(0x61 + Math.floor(random() * 26))).join(''));
    const texts = [
      words.join(' '), // tens of thousands of dictionary entries
      'a'.repeat(1_500_000), // one run: entries grow by one unit each, up to ~1,700 units
      `${'Grüße – ½ € ✓ 😀 '.repeat(3_000)}${'{"id":"x","title":"Workshop"},'.repeat(20_000)}`,
    ];
    for (const text of texts) {
      const payload = lz.compressToEncodedURIComponent(text);
      const decoded = isomorphic.decompress(payload);
      expect(decoded.length).toBe(text.length);
      expect(decoded === text).toBe(true);
    }
    expect(asciiWrites()).toBe(texts.length);
  });
});

describe('decompressedLength and Latin-1 output', () => {
  const outcome = (call: () => string | number): string => {
    try {
      return `ok ${call()}`;
    } catch (error) {
      return error instanceof CodecError ? `${error.code}: ${error.message}` : String(error);
    }
  };

  it('decompressedLength is decompress(payload).length, and refuses exactly what decompress refuses', async () => {
    const codec = await loadCodec();
    const texts = ['', 'a', '\ufeff\ud800 lone \udfff😀', 'Grüße '.repeat(20_000), 'x'.repeat(1_999_999)];
    for (const text of texts) {
      const payload = lz.compressToEncodedURIComponent(text);
      expect(codec.decompressedLength(payload)).toBe(text.length);
    }
    const overBudget = lz.compressToEncodedURIComponent('y'.repeat(2_000_001));
    for (const bad of ['', 'wA1', 'Q!', 'QA', 'BYUwNmD2AEDukCc', 'A'.repeat(750_001), overBudget]) {
      expect(outcome(() => codec.decompressedLength(bad))).toBe(outcome(() => codec.decompress(bad).length));
      expect(outcome(() => codec.decompressedLength(bad))).toMatch(/^[A-Z_]+: /);
    }
    expect(() => codec.decompressedLength(5 as unknown as string)).toThrow(TypeError);
  });

  it('decompressIf asks with the length, then with the measure, and makes the text only when both answers are yes', async () => {
    const codec = await loadCodec();
    const texts = ['', '{"a":[1,2,{"b":"\ud800"}]}', JSON.stringify({ notes: 'Grüße '.repeat(5_000) })];
    for (const text of texts) {
      const payload = lz.compressToEncodedURIComponent(text);
      const asked: Array<[number, unknown]> = [];
      expect(codec.decompressIf(payload, (units, shape) => (asked.push([units, shape]), true))).toBe(text);
      expect(asked).toEqual([[text.length, undefined], [text.length, codec.jsonShape(payload)]]);
      const onLength: number[] = [];
      expect(codec.decompressIf(payload, (units, shape) => (onLength.push(units), shape !== undefined))).toBeUndefined();
      expect(onLength).toEqual([text.length]);
      expect(codec.decompressIf(payload, (_units, shape) => shape === undefined)).toBeUndefined();
    }
    // Refusals come first, as from decompress; a declined text leaves the codec ready for the next call.
    for (const bad of ['Q!', 'A'.repeat(750_001)]) {
      expect(outcome(() => codec.decompressIf(bad, () => true) ?? 'none')).toBe(outcome(() => codec.decompress(bad)));
    }
    expect(codec.decompress(lz.compressToEncodedURIComponent('after'))).toBe('after');
  });

  it('a long text whose units all fit in Latin-1 is read as Latin-1, exactly; one unit above U+00FF anywhere keeps UTF-16', async () => {
    const module = await loadCodecModule();
    let latin1Reads = 0;
    const codec = createCodec(module, {
      strings: {
        ...bufferStrings,
        readLatin1(memory, pointer, length) {
          latin1Reads++;
          return bufferStrings.readLatin1!(memory, pointer, length);
        },
      },
    });
    const latin1 = Array.from({ length: 70_001 }, (_, i) => String.fromCharCode((i * 131) % 256)).join('');
    const cases: [string, boolean][] = [
      [latin1, true],
      [`${'{"title":"Grüße aus Köln – ½"}'.repeat(3_000)}`.replace(/–/g, '-'), true],
      ['a'.repeat(65_535), false], // below the narrowing length: read as UTF-16 (V8 makes it one-byte itself)
      ['b'.repeat(65_536), true],
      // A unit that does not fit: first, in the middle, in the 16-unit tail, last; a lone surrogate; U+0100.
      ...[0, 35_000, 69_990, 70_000].map((at): [string, boolean] => [`${latin1.slice(0, at)}€${latin1.slice(at + 1)}`, false]),
      [`${latin1}\ud800`, false],
      [`\u0100${latin1}`, false],
    ];
    for (const [text, narrowed] of cases) {
      const before = latin1Reads;
      const decoded = codec.decompress(lz.compressToEncodedURIComponent(text));
      expect(decoded.length).toBe(text.length);
      expect(decoded === text).toBe(true);
      expect(latin1Reads - before, `${text.length} units, narrowed: ${narrowed}`).toBe(narrowed ? 1 : 0);
    }
  });
});

describe('the JSON list guard of decompress (maxJsonListEntries)', () => {
  const refusal = (codec: Codec, text: string, max: number): string => {
    try {
      codec.decompress(lz.compressToEncodedURIComponent(text), { maxJsonListEntries: max });
      return 'accepted';
    } catch (error) {
      return error instanceof CodecError ? `${error.code}: ${error.message}` : String(error);
    }
  };
  const list = (n: number, entry = '0'): string => `[${Array.from({ length: n }, () => entry).join(',')}]`;

  it('refuses a list of more entries than allowed, at any depth, and counts each list on its own', async () => {
    for (const codec of [await loadCodec(), createCodec(await loadCodecModule())]) {
      expect(refusal(codec, list(100), 100)).toBe('accepted');
      expect(refusal(codec, list(101), 100)).toBe('JSON_LIST_LIMIT: List limit exceeded: the text holds a JSON list of more than 100 entries.');
      expect(refusal(codec, `{"a":{"b":[1,${list(101)}]}}`, 100)).toMatch(/^JSON_LIST_LIMIT/);
      // Two lists of 100 next to each other, and lists of lists: no list has more than 100 entries.
      expect(refusal(codec, `[${list(100)},${list(100)}]`, 100)).toBe('accepted');
      expect(refusal(codec, `{"x":${list(100)},"y":${list(100, '{"k":1,"l":2}')}}`, 100)).toBe('accepted');
      // Commas of objects, and commas, brackets and escaped quotes inside strings, are not entries.
      const members = `{${Array.from({ length: 300 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
      expect(refusal(codec, members, 100)).toBe('accepted');
      expect(refusal(codec, `["${',['.repeat(150)}","a\\",b,c,\\\\",${list(98).slice(1)}`, 100)).toBe('accepted');
      expect(refusal(codec, `["a\\\\",${list(100).slice(1)}`, 100)).toMatch(/^JSON_LIST_LIMIT/);
      // Without the option nothing is looked at.
      expect(codec.decompress(lz.compressToEncodedURIComponent(list(101)))).toBe(list(101));
    }
  });

  it('leaves texts too short to hold such a list alone, and narrows a long Latin-1 text after the look', async () => {
    const module = await loadCodecModule();
    let looks = 0;
    const instance = new WebAssembly.Instance(module, {});
    const exports = instance.exports as unknown as { outputHasListOver: (u: number, m: number) => number };
    const original = exports.outputHasListOver;
    Object.defineProperty(instance, 'exports', { value: { ...instance.exports, outputHasListOver: (u: number, m: number) => (looks++, original(u, m)) } });
    const codec = createCodec(module, { instance, strings: bufferStrings });
    expect(codec.decompress(lz.compressToEncodedURIComponent(list(1_000)), { maxJsonListEntries: 1_001 })).toBe(list(1_000));
    expect(looks).toBe(0); // 2,001 units cannot hold 1,002 entries
    const latin1 = `{"name":"Größe ½","list":${list(50_000)}}`;
    const payload = lz.compressToEncodedURIComponent(latin1);
    expect(codec.decompress(payload, { maxJsonListEntries: 50_000 }) === latin1).toBe(true);
    expect(looks).toBe(1);
    expect(() => codec.decompress(payload, { maxJsonListEntries: 49_999 })).toThrow(expect.objectContaining({ code: 'JSON_LIST_LIMIT' }) as Error);
    expect(looks).toBe(2);
  });
});

describe('browser entry', () => {
  let server: ReturnType<typeof createServer>;
  let base = '';
  let requests = 0;
  beforeAll(async () => {
    const wasm = await readFile(new URL('../../build/codec.wasm', import.meta.url));
    server = createServer((request, response) => {
      requests++;
      const wrongType = request.url === '/wrong-type/codec.wasm';
      response.writeHead(request.url?.endsWith('codec.wasm') ? 200 : 404, { 'Content-Type': wrongType ? 'application/octet-stream' : 'application/wasm' });
      response.end(request.url?.endsWith('codec.wasm') ? wasm : undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('streams the module from a URL and caches it per URL', async () => {
    const codec = await loadBrowserCodec(`${base}/codec.wasm`);
    expect(codec.compress('Plan')).toBe(lz.compressToEncodedURIComponent('Plan'));
    const before = requests;
    expect(await loadBrowserCodec(`${base}/codec.wasm`)).toBe(codec);
    expect(requests).toBe(before);
  });

  it('falls back to compiling the bytes when the server sends the wrong MIME type', async () => {
    const codec = await loadBrowserCodec(new URL(`${base}/wrong-type/codec.wasm`));
    expect(codec.decompress(codec.compress('Größe'))).toBe('Größe');
  });

  it('reports a missing file with its URL and status', async () => {
    await expect(loadBrowserCodec(`${base}/missing.wasm`)).rejects.toThrow(/missing\.wasm.*HTTP 404/);
  });

  it('reaches no node:* module (browser.ts and everything it imports)', async () => {
    const seen = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = await source(`src/codec/${file}`);
      expect(text).not.toMatch(/from ['"]node:|import\(['"]node:|require\(/);
      for (const [, next] of text.matchAll(/from '\.\/([a-z-]+)\.js'/g)) await visit(`${next}.ts`);
    };
    await visit('browser.ts');
    expect([...seen].sort()).toEqual(['browser.ts', 'core.ts', 'errors.ts', 'messages.ts', 'string-builtins.ts', 'strings.ts', 'types.ts']);
  });
});
