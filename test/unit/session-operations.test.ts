// create/decode end to end with the real WASM codec, lz-string (the npm package) as the oracle for every payload.
import fc from 'fast-check';
import LZString from 'lz-string';
import { describe, expect, it, vi } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { SessionError } from '../../src/session/errors.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { validateForCreate } from '../../src/session/validate.js';
import { arbitrarySession, block, minimalSession, planOfSize, richSession } from '../fixtures/sessions.js';

const operations = createSessionOperations(loadCodec);

async function failure(run: () => Promise<unknown>): Promise<SessionError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SessionError) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

function payloadOf(link: string): string {
  const at = link.indexOf('#data=v2:');
  expect(at).toBeGreaterThan(0);
  return link.slice(at + '#data=v2:'.length);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';

/**
 * A decompression bomb in lz-string's format: one literal, then `codes` codes that each name the entry being defined
 * (LZW's KwKwK case), so entry k is k characters long and the output grows quadratically from a short payload.
 */
function bombPayload(codes: number): string {
  const bits: number[] = [];
  const write = (value: number, width: number): void => {
    for (let i = 0; i < width; i++) bits.push((value >> i) & 1);
  };
  write(0, 2); // an 8-bit literal follows
  write(97, 8); // 'a'
  let dictSize = 4;
  let numBits = 3;
  let enlargeIn = 4;
  for (let k = 0; k < codes; k++) {
    write(dictSize, numBits);
    dictSize++;
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
  }
  write(2, numBits); // end of stream
  while (bits.length % 6 !== 0) bits.push(0);
  let payload = '';
  for (let i = 0; i < bits.length; i += 6) payload += ALPHABET[bits.slice(i, i + 6).reduce((v, b) => v * 2 + b, 0)];
  return payload;
}

/** Text that makes LZW add a dictionary entry every character or two (seeded, so runs are repeatable). */
function noise(length: number, seed = 7): string {
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += String.fromCharCode(0x4e00 + (state % 2000));
  }
  return text;
}

describe('createSessionLink', () => {
  it('returns the link on the default base URL and the summary', async () => {
    const { link, summary } = await operations.createSessionLink(richSession());
    expect(link.startsWith('https://sessionplan.de/#data=v2:')).toBe(true);
    // welcome, input, table-a, table-b, same-1, same-2; durations of the three top-level items: 15 + 60 + 45.
    expect(summary).toEqual({ title: 'Team offsite', blockCount: 6, totalDuration: 120 });
  });

  it('encodes the normalized JSON bit-for-bit like lz-string', async () => {
    const doc = richSession();
    const { link } = await operations.createSessionLink(doc);
    const normalized = validateForCreate(doc).json;
    expect(payloadOf(link)).toBe(LZString.compressToEncodedURIComponent(normalized));
    expect(LZString.decompressFromEncodedURIComponent(payloadOf(link))).toBe(normalized);
  });

  it('uses the base URL of the options, then of the defaults', async () => {
    const custom = createSessionOperations(loadCodec, { baseUrl: 'http://localhost:8080/' });
    expect((await custom.createSessionLink(minimalSession())).link.startsWith('http://localhost:8080/#data=v2:')).toBe(true);
    const viaOption = await custom.createSessionLink(minimalSession(), { baseUrl: 'https://example.org/plan/' });
    expect(viaOption.link.startsWith('https://example.org/plan/#data=v2:')).toBe(true);
  });

  it('gives the same link for the same document, whatever its key order or omitted defaults', async () => {
    const doc = richSession();
    const reordered = Object.fromEntries(Object.entries(doc).reverse());
    const items = doc.items as Record<string, unknown>[];
    const withoutDefaults = { ...doc, items: [(({ laneIndex: _l, ...b }) => b)(items[0]!), ...items.slice(1)] };
    const links = await Promise.all([doc, reordered, withoutDefaults, structuredClone(doc)].map(async (d) => (await operations.createSessionLink(d)).link));
    expect(new Set(links).size).toBe(1);
  });

  it('names the session argument when it is missing or not an object', async () => {
    for (const input of [undefined, null, 'plan', [minimalSession()]]) {
      const error = await failure(() => operations.createSessionLink(input));
      expect(error.code).toBe('SESSION_VALIDATION_FAILED');
      expect(error.message).toMatch(/^SESSION_VALIDATION_FAILED: session: must be a session document \(a JSON object\), not /);
    }
  });

  it('refuses a plan under 2,000,000 bytes that exceeds a codec budget, explaining the size', async () => {
    const doc = { ...minimalSession(), workshop: { title: 'Big', description: noise(600_000) } };
    const error = await failure(() => operations.createSessionLink(doc));
    expect(error.code).toBe('SESSION_VALIDATION_FAILED');
    expect(error.message).toMatch(/^SESSION_VALIDATION_FAILED: session: is too large to encode: .*budget.* must be made smaller\.$/i);
    expect(error.message.length).toBeLessThanOrEqual(800);
  });

  it('refuses a 2 MB plan at once (JSON parse included; a generous bound, the figure is in bench/session.bench.ts)', async () => {
    const texts = [
      JSON.stringify({ ...minimalSession(), workshop: { title: 'Huge', description: 'x'.repeat(2_000_100) } }),
      JSON.stringify({ ...minimalSession(), workshop: { title: 'Dense', description: noise(1_990_000 / 3) } }),
    ];
    for (const text of texts) {
      const started = performance.now();
      const error = await failure(() => operations.createSessionLink(JSON.parse(text)));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(error.message).toContain('must be made smaller');
    }
  });
});

describe('decodeSessionLink', () => {
  it('the bomb used below is what lz-string itself expands quadratically', () => {
    const expanded = LZString.decompressFromEncodedURIComponent(bombPayload(100));
    expect(expanded).toBe('a'.repeat((102 * 101) / 2));
    expect(bombPayload(2_100).length).toBeLessThan(5_000);
  });

  it('decode(create(x)) is exactly the normalized x, without warnings', async () => {
    const doc = planOfSize(20_000);
    const { link } = await operations.createSessionLink(doc);
    const decoded = await operations.decodeSessionLink(link);
    expect(JSON.stringify(decoded.session)).toBe(validateForCreate(doc).json);
    expect('warnings' in decoded).toBe(false);
  });

  it('decodes links made by lz-string, including older documents (with warnings)', async () => {
    const old = { workshop: { title: 'Old' }, items: [block('a', { personIds: ['ghost'] })], legacyField: 1 };
    const link = `https://sessionplan.de/#data=v2:${LZString.compressToEncodedURIComponent(JSON.stringify(old))}`;
    const { session, warnings } = await operations.decodeSessionLink(link);
    expect(session.workshop).toEqual({ title: 'Old', description: '', date: null, startTime: null });
    expect(session.legacyField).toBe(1);
    expect(warnings).toEqual(['legacyField: is not a field of the current format; it was kept as is', 'items[0].personIds[0]: person "ghost" is not declared in persons']);
  });

  it('keeps a list of 100,000 entries in unknown data (the longest it reads)', async () => {
    const old = { ...minimalSession(), legacy: { data: new Array<number>(100_000).fill(7) } };
    const { session, warnings } = await operations.decodeSessionLink(`v2:${LZString.compressToEncodedURIComponent(JSON.stringify(old))}`);
    expect((session.legacy as { data: number[] }).data.length).toBe(100_000);
    expect(warnings).toEqual(['legacy: is not a field of the current format; it was kept as is']);
  });

  it('names the link argument when it is not a string', async () => {
    for (const input of [undefined, 42, { link: 'v2:Q' }]) {
      const error = await failure(() => operations.decodeSessionLink(input));
      expect(error.code).toBe('SESSION_DECODE_FAILED');
      expect(error.message).toMatch(/^SESSION_DECODE_FAILED: link: must be a string .*, not /);
    }
  });

  it.each([
    ['a payload that does not decompress', 'v2:yA', 'does not decompress'],
    ['a truncated payload', () => `v2:${LZString.compressToEncodedURIComponent(JSON.stringify(richSession())).slice(0, 40)}`, 'complete unmodified'],
    ['a payload over 750,000 characters', `v2:${'A'.repeat(750_001)}`, 'too large to decode'],
    ['output over the 4,000,000-byte budget (a 3,000-character bomb)', () => `v2:${bombPayload(2_100)}`, 'too large to decode'],
    ['JSON that is not a session', () => `v2:${LZString.compressToEncodedURIComponent('[1,2,3]')}`, 'not a session document'],
    ['text that is not JSON', () => `v2:${LZString.compressToEncodedURIComponent('hello')}`, 'not valid JSON'],
    ['a dynamic link', 'https://sessionplan.de/s/abc', 'supply a #data=v2:... snapshot link instead'],
    [
      'a list of 100,001 entries in unknown data (before JSON.parse)',
      () => `v2:${LZString.compressToEncodedURIComponent(JSON.stringify({ ...minimalSession(), legacy: { data: new Array<number>(100_001).fill(7) } }))}`,
      'the snapshot data holds a list of more than 100,000 entries, which no session document does',
    ],
  ])('refuses %s with SESSION_DECODE_FAILED', async (_name, link, phrase) => {
    const input = typeof link === 'function' ? link() : link;
    const error = await failure(() => operations.decodeSessionLink(input));
    expect(error.code).toBe('SESSION_DECODE_FAILED');
    expect(error.message.startsWith('SESSION_DECODE_FAILED: link: ')).toBe(true);
    expect(error.message).toContain(phrase);
    expect(error.message.length).toBeLessThanOrEqual(800);
  });
});

describe('round trips over generated documents', () => {
  it('payload = lz-string of the JSON, and decode returns the document exactly', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrarySession(), async (doc) => {
        // The generator writes canonical key order with every default, so the normalized JSON is the document's own.
        const json = JSON.stringify(doc);
        const { link, summary } = await operations.createSessionLink(doc);
        expect(payloadOf(link)).toBe(LZString.compressToEncodedURIComponent(json));
        expect(summary.title).toBe((doc.workshop as { title: string }).title);
        const decoded = await operations.decodeSessionLink(link);
        expect(JSON.stringify(decoded.session)).toBe(json);
        expect(decoded.warnings).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe('createSessionLink from the request text (options.source)', () => {
  const PATH = ['params', 'arguments', 'session'];
  const envelope = (sessionText: string): string => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"session":${sessionText}}}}`;

  /** The link made from the text, and whether the parsed session was serialized on the way (JSON.stringify watched). */
  async function createFrom(text: string): Promise<{ link: string; serialized: boolean }> {
    const session = (JSON.parse(text) as { params: { arguments: { session: unknown } } }).params.arguments.session;
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const { link } = await operations.createSessionLink(session, { source: { text, path: PATH } });
      return { link, serialized: stringify.mock.calls.some(([value]) => value === session) };
    } finally {
      stringify.mockRestore();
    }
  }

  it('compresses a canonical session as it stands in the text, without serializing it (200 generated documents)', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrarySession(), async (doc) => {
        const json = JSON.stringify(doc);
        const { link, serialized } = await createFrom(envelope(json));
        expect(payloadOf(link)).toBe(LZString.compressToEncodedURIComponent(json));
        // Only a lone surrogate (which stringify escapes, and the text check refuses) sends it back to serializing.
        expect(serialized).toBe(/\\ud[89a-f]/.test(json));
      }),
      { numRuns: 200 },
    );
  });

  it('serializes the parsed session when its text is not exactly the serialization, with the same link', async () => {
    const json = JSON.stringify(richSession());
    const expected = (await operations.createSessionLink(richSession())).link;
    const variants = [
      json.replace('"title":', '"title": '), // whitespace
      json.replace('"title":"', '"title":"x","title":"'), // a repeated key: JSON.parse keeps the last
      json.replace('"duration":15', '"duration":15.0'),
      json.replace('"duration":15', '"duration":1.5e1'),
      json.replace('"Team', '"\\u0054eam'),
    ];
    for (const variant of variants) {
      expect(variant).not.toBe(json);
      const { link, serialized } = await createFrom(envelope(variant));
      expect(link, variant).toBe(expected);
      expect(serialized, variant).toBe(true);
    }
  });

  it('takes the value JSON.parse took when the text names the session twice (never the first one)', async () => {
    const first = JSON.stringify(minimalSession());
    const last = JSON.stringify(richSession());
    const text = `{"params":{"arguments":{"session":${first},"session":${last}}}}`;
    const { link } = await createFrom(text);
    expect(payloadOf(link)).toBe(LZString.compressToEncodedURIComponent(last));
  });
});
