// Pooled buffers for large bodies: the pool's rules, the body kinds, and a buffer's round trip through an offload thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoints } from '../../src/endpoints/endpoints.js';
import { bufferedBody, decodedBody, textBody } from '../../src/http/body.js';
import { BufferPool, MIN_BUFFER_BYTES } from '../../src/http/buffer-pool.js';
import { weighDecodeHere } from '../../src/offload/cost.js';
import { offloadEndpoints } from '../../src/offload/endpoints.js';
import { BYTES_ANSWER_MIN_CHARS, OffloadPool } from '../../src/offload/pool.js';
import { hostileCases } from '../fixtures/hostile-cases.js';

describe('BufferPool', () => {
  it('hands out the smallest kept buffer that fits, else a new one of at least 2 MiB', () => {
    const pool = new BufferPool({ maxBuffers: 4, maxBytes: 64 * 1024 * 1024 });
    const fresh = pool.take(10);
    expect(fresh.byteLength).toBe(MIN_BUFFER_BYTES);
    const large = new ArrayBuffer(8 * 1024 * 1024);
    const medium = new ArrayBuffer(4 * 1024 * 1024);
    pool.give(large);
    pool.give(medium);
    pool.give(fresh);
    expect(pool.kept).toEqual({ buffers: 3, bytes: 14 * 1024 * 1024 });
    expect(pool.take(3 * 1024 * 1024)).toBe(medium);
    expect(pool.take(100)).toBe(fresh);
    expect(pool.take(9 * 1024 * 1024).byteLength).toBe(9 * 1024 * 1024); // none fits: a new one of that size
    expect(pool.take(1)).toBe(large);
    expect(pool.kept).toEqual({ buffers: 0, bytes: 0 });
  });

  it('keeps at most its limits, never a buffer twice, never a detached one', () => {
    const pool = new BufferPool({ maxBuffers: 2, maxBytes: 5 * 1024 * 1024 });
    const a = new ArrayBuffer(2 * 1024 * 1024);
    const b = new ArrayBuffer(2 * 1024 * 1024);
    const c = new ArrayBuffer(1024);
    pool.give(a);
    pool.give(a);
    expect(pool.kept.buffers).toBe(1);
    const detached = new ArrayBuffer(1024);
    structuredClone(detached, { transfer: [detached] });
    expect(detached.byteLength).toBe(0);
    pool.give(detached);
    pool.give(new ArrayBuffer(4 * 1024 * 1024)); // would pass maxBytes
    expect(pool.kept.buffers).toBe(1);
    pool.give(b);
    pool.give(c); // past maxBuffers
    expect(pool.kept).toEqual({ buffers: 2, bytes: 4 * 1024 * 1024 });
  });
});

describe('request bodies', () => {
  const text = '{"name":"Große Pläne 😀"}';
  const bytes = new TextEncoder().encode(text);

  it('a buffered body decodes its first byteLength bytes once, and its buffer goes back to the pool unless taken', () => {
    const pool = new BufferPool();
    const buffer = pool.take(bytes.byteLength);
    new Uint8Array(buffer).set(bytes);
    new Uint8Array(buffer).fill(0x41, bytes.byteLength, bytes.byteLength + 10); // stale bytes past the body
    const body = bufferedBody(buffer, bytes.byteLength, pool);
    expect(body.byteLength).toBe(bytes.byteLength);
    expect(body.text()).toBe(text);
    body.release();
    body.release();
    expect(pool.kept.buffers).toBe(1);

    const taken = bufferedBody(pool.take(1), 0, pool);
    const handedOver = taken.takeBuffer(pool);
    expect(handedOver.byteLength).toBe(MIN_BUFFER_BYTES);
    expect(() => taken.takeBuffer(pool)).toThrow(/handed over/);
    expect(() => taken.text()).toThrow(/handed over/);
    taken.release();
    expect(pool.kept.buffers).toBe(0);
  });

  it('text and decoded bodies measure bytes, not characters, and hand over their UTF-8 in a pooled buffer', () => {
    const pool = new BufferPool();
    for (const body of [textBody(text), decodedBody(bytes), textBody(text, bytes.byteLength)]) {
      expect(body.byteLength).toBe(bytes.byteLength);
      expect(body.text()).toBe(text);
      const kept = new ArrayBuffer(MIN_BUFFER_BYTES);
      pool.give(kept);
      const handedOver = body.takeBuffer(pool);
      expect(handedOver).toBe(kept);
      expect(new Uint8Array(handedOver, 0, body.byteLength)).toEqual(bytes);
    }
  });
});

describe('a large body through an offload thread', () => {
  let threads: OffloadPool;
  beforeAll(async () => {
    threads = new OffloadPool(1, { publicBaseUrl: 'https://sessionplan.de/' }, {
      onThreadFailure: (error) => {
        throw error;
      },
    });
    await threads.start();
  });
  afterAll(() => threads.close());

  it('travels as bytes and comes back with the answer, which is released into the pool once written', { timeout: 60_000 }, async () => {
    const hooks = { recordEvent: () => {} };
    const local = createEndpoints('https://sessionplan.de/', hooks, { weighDecode: weighDecodeHere });
    // The same endpoints without an offload pool behind them: what every answer must be.
    const reference = createEndpoints('https://sessionplan.de/', hooks);
    const pool = new BufferPool();
    const endpoints = offloadEndpoints(local, threads, hooks, pool);
    const cases = hostileCases();
    const decode = cases.find((c) => c.name.startsWith('decode: the largest valid plan'))!;
    const create = cases.find((c) => c.name.startsWith('create: the largest valid plan'))!;
    const small = cases.find((c) => c.name.startsWith('create: 20 unknown keys'))!; // refused: a short answer
    const jobs = [
      ['decode', `{"link":${decode.argumentJson}}`, 'bytes'],
      ['create', `{"session":${create.argumentJson}}`, 'either'], // a 64 KB link: pieces, so bytes
      ['create', `{"session":${small.argumentJson}}`, 'text'],
    ] as const;
    for (const [kind, json, form] of jobs) {
      const encoded = new TextEncoder().encode(json);
      const buffer = pool.take(encoded.byteLength);
      new Uint8Array(buffer).set(encoded);
      const answer = await endpoints.rest[kind](bufferedBody(buffer, encoded.byteLength, pool));
      expect(buffer.byteLength, 'the body was transferred, not copied').toBe(0);
      const expected = await reference.rest[kind](textBody(json));
      expect(answer.status).toBe(expected.status);
      const answerText = typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body as Uint8Array);
      expect(answerText === expected.body).toBe(true);
      // A long answer comes as bytes in the job's buffer, back in the pool once written; a short one as text, the buffer
      // already back.
      if (form === 'bytes') expect((expected.body as string).length).toBeGreaterThanOrEqual(BYTES_ANSWER_MIN_CHARS);
      if (form === 'bytes') expect(answer.body).toBeInstanceOf(Uint8Array);
      if (form === 'text') expect(typeof answer.body).toBe('string');
      if (answer.body instanceof Uint8Array) {
        expect(pool.kept.buffers).toBe(0);
        answer.release?.();
      }
      expect(pool.kept.buffers).toBe(1);
      expect(pool.kept.bytes).toBeGreaterThanOrEqual(MIN_BUFFER_BYTES);
    }
  });
});
