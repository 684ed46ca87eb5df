// The offload pool on its own: a thread that dies under a job is replaced, and that job alone gets an error.
import { describe, expect, it } from 'vitest';
import { OffloadPool } from '../src/process/offload.js';
import { hostileCases, linkOf } from './fixtures/hostile-cases.js';
import { minimalSession } from './fixtures/sessions.js';

const cases = hostileCases();
/** A body as the pool takes it: a buffer (transferred to the thread) and the body's length in it. */
const job = (body: string): [ArrayBuffer, number] => {
  const bytes = new TextEncoder().encode(body);
  return [bytes.buffer, bytes.byteLength];
};
// Ten lists of 90,000 numbers (each under the decoder's list limit): 7.2 MB of arrays in ten large allocations, far past
// the limit at once, so the thread dies quickly instead of collecting garbage near its limit for a long time (which it
// did under load with a plan of many small objects).
const hungryDecode = { argumentJson: JSON.stringify(linkOf(JSON.stringify({ ...minimalSession(), ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`extra${i}`, new Array<number>(90_000).fill(0)])) }))) };
const shortDecode = cases.find((c) => c.name.startsWith('decode: unknown data nested 60 levels'))!;

describe('OffloadPool', () => {
  it('replaces a thread that dies under a job (here: past a small heap limit), and serves the next job', { timeout: 60_000 }, async () => {
    const failures: Error[] = [];
    // Decoding 900,000 numbers needs far more than 16 MB of old space; starting up needs less (with 12 MB, a thread
    // loading on a busy machine could spend a minute collecting garbage near its limit).
    const pool = new OffloadPool(1, { publicBaseUrl: 'https://sessionplan.de/' }, (error) => failures.push(error), { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 });
    try {
      await pool.start();
      const before = await pool.run('decode', {}, ...job(`{"link":${shortDecode.argumentJson}}`));
      expect(before?.status).toBe(200);
      await expect(pool.run('decode', {}, ...job(`{"link":${hungryDecode.argumentJson}}`))).rejects.toThrow(/memory|exited/i);
      expect(failures.length).toBe(1);
      // The replacement starts in the background; a job sent meanwhile waits in the queue for it.
      const after = await pool.run('decode', {}, ...job(`{"link":${shortDecode.argumentJson}}`));
      expect(after?.status).toBe(200);
      expect(after?.body).toBe(before?.body);
      expect(failures.length).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
