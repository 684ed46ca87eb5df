// Decode's size rules: the document as it is written back (escapes included) is at most 2,000,000 bytes, and its text
// holds a bounded number of JSON values, read before JSON.parse.
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { SessionError } from '../../src/session/errors.js';
import { jsonBytes, MAX_DEFAULT_BYTES, MAX_JSON_BYTES } from '../../src/session/json-size.js';
import { MAX_DECODED_CONTAINERS, MAX_DECODED_VALUES, MAX_UNPAIRED_SURROGATES } from '../../src/session/limits.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { readDecodedSession } from '../../src/session/validate.js';
import { linkOf } from '../fixtures/hostile-cases.js';
import { block, minimalSession } from '../fixtures/sessions.js';
import { maximalDocument } from '../fixtures/hostile-cases.js';

const operations = createSessionOperations(loadCodec);

async function decodeFailure(text: string, link = linkOf(text)): Promise<string> {
  try {
    await operations.decodeSessionLink(link);
  } catch (error) {
    if (error instanceof SessionError) return error.message;
    throw error;
  }
  throw new Error('expected the decode to fail');
}

/** A document whose description holds `euros` € (three UTF-8 bytes each) and `ascii` more letters. */
const withDescription = (euros: number, ascii: number): string => `{"workshop":{"title":"W","description":"${'€'.repeat(euros)}${'a'.repeat(ascii)}"}}`;
/** The same with `lone` unpaired surrogates instead. */
const withLoneSurrogates = (lone: number): string => `{"workshop":{"title":"W","description":"${'\ud800'.repeat(lone)}"}}`;

describe('the written size of a decoded document', () => {
  it('counts exactly what JSON.stringify writes, escapes included', () => {
    const long = 'x~ '.repeat(100);
    for (const value of [{ a: '\ud800x\udc00😀"\\\n\u0001\u007f€é' }, [1, -0, 1e21, 1.5e-7, true, false, null, [], {}], [long, `${long}"`, `${long}\\`, `${long}\u007f`, `${long}é`, `${long}\ud800`], maximalDocument()]) {
      expect(jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
    }
  });

  it('refuses a document written as 2,000,001 bytes and decodes one of 2,000,000, naming the size', async () => {
    const base = JSON.stringify((await operations.decodeSessionLink(linkOf(withDescription(0, 0)))).session).length;
    const euros = 666_000;
    const ascii = MAX_JSON_BYTES - base - 3 * euros;
    const fits = await operations.decodeSessionLink(linkOf(withDescription(euros, ascii)));
    expect(Buffer.byteLength(JSON.stringify(fits.session))).toBe(MAX_JSON_BYTES);
    expect(await decodeFailure(withDescription(euros, ascii + 1))).toBe(
      'SESSION_DECODE_FAILED: link: the decoded document is 2,000,001 bytes of JSON text as it is written back (escapes included) but at most 2,000,000 bytes are allowed; a size-limit failure requires a smaller source plan.',
    );
  });

  it('refuses 1.99 M lone surrogates from a 3.5 KB link (11.9 MB when written), naming the size', async () => {
    const text = withLoneSurrogates(1_990_000);
    const link = linkOf(text);
    expect(link.length).toBeLessThan(3_600);
    expect(await decodeFailure(text, link)).toMatch(/^SESSION_DECODE_FAILED: link: the decoded document is at least 11,940,\d{3} bytes of JSON text/);
  });

  it('does not refuse on the codec\'s measure what only its numbers could make long, and refuses more than 10,000 numbers that are not whole', async () => {
    // 10,000 numbers the measure counts at 25 bytes each, written as 3 bytes each: read.
    const text = `{"workshop":{"title":"W"},"extra":[${Array(10_000).fill('1.5').join(',')}]}`;
    const { session } = await operations.decodeSessionLink(linkOf(text));
    expect(Buffer.byteLength(JSON.stringify(session))).toBeLessThan(100_000);
    // One more, or numbers that would be written longer than they were sent (1e20 as 21 digits): refused before parsing.
    expect(await decodeFailure(`{"workshop":{"title":"W"},"extra":[${Array(10_001).fill('1.5').join(',')}]}`)).toMatch(/holds 10,001 numbers that are not whole numbers of up to 15 digits but at most 10,000 are allowed/);
    expect(await decodeFailure(`{"workshop":{"title":"W"},"extra":[${Array(95_000).fill('1e20').join(',')}]}`)).toMatch(/holds 95,000 numbers that are not whole/);
  });

  it('counts the defaults it fills in: at most MAX_DEFAULT_BYTES for the most items and list entries decode reads', () => {
    for (const type of ['block', 'group', 'breakout']) {
      const text = JSON.stringify({ items: Array.from({ length: 1000 }, () => ({ type })), persons: Array(2000).fill({}), blockTypes: Array(2000).fill({}), workshop: {} });
      const added = jsonBytes(readDecodedSession(text).session) - text.length;
      expect(added).toBeGreaterThan(200_000);
      expect(added).toBeLessThanOrEqual(MAX_DEFAULT_BYTES);
    }
  });

  it('still decodes the largest valid plan exactly as created', async () => {
    const created = await operations.createSessionLink(maximalDocument());
    const decoded = await operations.decodeSessionLink(created.link);
    expect(decoded.session).toEqual(maximalDocument());
  });
});

describe('JSON values of a decoded text, bounded before it is parsed', () => {
  const lists = (total: number, entry: string): string => {
    const out: string[] = [];
    for (let left = total; left > 0; left -= 99_999) out.push(`[${Array(Math.min(99_999, left)).fill(entry).join(',')}]`);
    return out.join(',');
  };

  it(`refuses more than ${MAX_DECODED_CONTAINERS.toLocaleString('en-US')} objects and arrays (600,000 {} in lists of 99,999)`, async () => {
    expect(await decodeFailure(`{"workshop":{"title":"W"},"extra":[${lists(600_000, '{}')}]}`)).toBe(
      'SESSION_DECODE_FAILED: link: the snapshot data holds more than 40,000 JSON objects and arrays, which no session document does; a size-limit failure requires a smaller source plan.',
    );
  });

  it('keeps unknown data of up to that many objects', async () => {
    const { session } = await operations.decodeSessionLink(linkOf(`{"workshop":{"title":"W"},"extra":[${Array(MAX_DECODED_CONTAINERS - 3).fill('{}').join(',')}]}`));
    expect((session as unknown as { extra: unknown[] }).extra).toHaveLength(MAX_DECODED_CONTAINERS - 3);
  });

  it(`refuses more than ${MAX_DECODED_VALUES.toLocaleString('en-US')} values, and reads that many`, async () => {
    // The document, workshop, its title, extra and its six lists are values too: ten besides the numbers.
    const text = (n: number): string => `{"workshop":{"title":"W"},"extra":[${lists(n, '0')}]}`;
    const numbers = MAX_DECODED_VALUES - 10;
    expect(await decodeFailure(text(numbers + 1))).toMatch(/holds more than 600,000 JSON values, which no session document does/);
    const { session } = await operations.decodeSessionLink(linkOf(text(numbers)));
    expect((session as unknown as { extra: unknown[][] }).extra.flat()).toHaveLength(numbers);
  });
});

describe('unpaired surrogates, bounded on create and on decode', () => {
  it(`decodes ${MAX_UNPAIRED_SURROGATES.toLocaleString('en-US')} (raw and escaped) and refuses one more, naming the count`, async () => {
    const half = MAX_UNPAIRED_SURROGATES / 2;
    // Raw units and `\\u` escapes count alike; pairs (raw or escaped) and an escaped backslash before "udc00" do not.
    const text = (lone: number): string =>
      `{"workshop":{"title":"W","description":"${'\udc00'.repeat(half)}${'\\ud800'.repeat(lone - half)}${'😀\\ud83d\\ude00\\\\udc00'.repeat(5_000)}"}}`;
    const { session } = await operations.decodeSessionLink(linkOf(text(MAX_UNPAIRED_SURROGATES)));
    expect(session.workshop.description).toBe('\udc00'.repeat(half) + '\ud800'.repeat(half) + '😀😀\\udc00'.repeat(5_000));
    expect(await decodeFailure(text(MAX_UNPAIRED_SURROGATES + 1))).toBe(
      'SESSION_DECODE_FAILED: link: the decoded document holds 10,001 unpaired UTF-16 surrogates in its texts but at most 10,000 are allowed (text people write has none: each is half of a character such as an emoji).',
    );
  });

  it('does not create what decode refuses: one more in the session is refused at path session, that many make a link decode reads back', async () => {
    const plan = (lone: number): Record<string, unknown> => {
      const session = minimalSession() as { items: unknown[] };
      session.items = Array.from({ length: 20 }, (_, i) => block(`b${i}`, { notes: `${'\ud83d'.repeat(lone / 20)}\\ud800 😀` }));
      return session;
    };
    const created = await operations.createSessionLink(plan(MAX_UNPAIRED_SURROGATES));
    const decoded = await operations.decodeSessionLink(created.link);
    expect((decoded.session.items[0] as { notes: string }).notes).toBe(`${'\ud83d'.repeat(MAX_UNPAIRED_SURROGATES / 20)}\\ud800 😀`);
    let refusal: unknown;
    try {
      await operations.createSessionLink(plan(MAX_UNPAIRED_SURROGATES + 20));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SessionError);
    expect((refusal as SessionError).message).toBe(
      'SESSION_VALIDATION_FAILED: session: holds 10,020 unpaired UTF-16 surrogates in its texts but at most 10,000 are allowed (text people write has none: each is half of a character such as an emoji).',
    );
  });
});
