// The offload pool on its own: a thread that dies under a job is replaced, and that job alone gets an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT_PER_THREAD, OffloadPool } from '../../src/offload/pool.js';
import { ServerBusyError } from '../../src/http/ports.js';
import { hostileCases } from '../fixtures/hostile-cases.js';
import { minimalSession } from '../fixtures/sessions.js';
import { LIMITS } from '../../src/limits/table.js';

const cases = hostileCases();
/** A body as the pool takes it: a buffer (transferred to the thread) and the body's length in it. */
const job = (body: string): [ArrayBuffer, number] => {
  const bytes = new TextEncoder().encode(body);
  return [bytes.buffer, bytes.byteLength];
};
// A create whose body holds ten lists of 90,000 numbers: JSON.parse of the body makes 7.2 MB of arrays in ten large
// allocations, far past the limit at once, so the thread dies quickly instead of collecting garbage near its limit for
// a long time (which it did under load with a plan of many small objects). (Decodes can no longer get there: a link's
// text holds at most 600,000 values.)
const hungryCreate = `{"session":${JSON.stringify({ ...minimalSession(), ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`extra${i}`, new Array<number>(90_000).fill(0)])) })}}`;
const shortDecode = cases.find((c) => c.name.startsWith('decode: unknown data nested 60 levels'))!;

describe('OffloadPool', () => {
  it('replaces a thread that dies under a job (here: past a small heap limit), and serves the next job', { timeout: 60_000 }, async () => {
    const failures: Error[] = [];
    // Decoding 900,000 numbers needs far more than 16 MB of old space; starting up needs less (with 12 MB, a thread
    // loading on a busy machine could spend a minute collecting garbage near its limit).
    const pool = new OffloadPool(1, { publicBaseUrl: 'https://sessionplan.de/' }, { onThreadFailure: (error) => failures.push(error), resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 } });
    try {
      await pool.start();
      const before = await pool.run('decode', {}, ...job(`{"link":${shortDecode.argumentJson}}`));
      expect(before?.status).toBe(200);
      await expect(pool.run('create', {}, ...job(hungryCreate))).rejects.toThrow(/memory|exited/i);
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

  describe('its queue serves clients in turn', () => {
    const slowDecode = cases.find((c) => c.name.startsWith('decode: the largest valid plan'))!;
    const slow = (): [ArrayBuffer, number] => job(`{"link":${slowDecode.argumentJson}}`);
    const quick = (): [ArrayBuffer, number] => job(`{"link":${shortDecode.argumentJson}}`);
    const as = (client: string) => ({ departed: false, client });
    let pool: OffloadPool;
    beforeAll(async () => {
      pool = new OffloadPool(1, { publicBaseUrl: 'https://sessionplan.de/' }, { onThreadFailure: () => {} });
      await pool.start();
    }, 60_000);
    afterAll(() => pool?.close());

    it(`lets one client queue ${LIMITS.queuedJobsPerClient.value} jobs, refuses the next with a client-scoped 429, and starts another client's job after at most one of the first's`, { timeout: 60_000 }, async () => {
      const order: string[] = [];
      const flood = Array.from({ length: MAX_IN_FLIGHT_PER_THREAD + LIMITS.queuedJobsPerClient.value + 1 }, (_, i) =>
        pool.run('decode', {}, ...slow(), as('10.0.0.1'), 100_000).then(
          () => order.push(`A${i}`),
          (error: unknown) => order.push(error instanceof ServerBusyError ? `A${i} busy ${error.scope}` : `A${i} ${String(error)}`),
        ),
      );
      const victim = pool.run('decode', {}, ...slow(), as('10.0.0.2'), 100_000).then(() => order.push('B'));
      await Promise.all([...flood, victim]);
      // The last of the flood is refused at once, before anything was answered.
      expect(order[0]).toBe(`A${MAX_IN_FLIGHT_PER_THREAD + LIMITS.queuedJobsPerClient.value} busy client`);
      // The victim's job waits for the two jobs the thread already has and at most one more of the flood.
      expect(order.indexOf('B')).toBeLessThanOrEqual(1 + MAX_IN_FLIGHT_PER_THREAD + 1);
      expect(order.filter((o) => /^A\d+$/.test(o))).toHaveLength(MAX_IN_FLIGHT_PER_THREAD + LIMITS.queuedJobsPerClient.value);
    });

    it('makes room for a client with nothing waiting by refusing the newest job of the client with the most', { timeout: 60_000 }, async () => {
      const outcomes = new Map<string, string[]>();
      const note = (client: string, outcome: string): void => void (outcomes.get(client) ?? outcomes.set(client, []).get(client)!).push(outcome);
      const runs: Promise<unknown>[] = [];
      // Eight clients fill the queue with eight jobs each (the thread holds two more); a ninth client then arrives.
      const clients = Array.from({ length: LIMITS.queuedJobsPerThread.value / LIMITS.queuedJobsPerClient.value }, (_, i) => `10.0.1.${i}`);
      for (const client of clients) {
        for (let i = 0; i < LIMITS.queuedJobsPerClient.value + (client === clients[0] ? MAX_IN_FLIGHT_PER_THREAD : 0); i++) {
          runs.push(pool.run('decode', {}, ...quick(), as(client)).then(() => note(client, 'served'), (error: unknown) => note(client, error instanceof ServerBusyError ? `busy ${error.scope}` : String(error))));
        }
      }
      expect(pool.queued).toBe(LIMITS.queuedJobsPerThread.value);
      runs.push(pool.run('decode', {}, ...quick(), as('10.0.2.1')).then(() => note('newcomer', 'served'), (error: unknown) => note('newcomer', String(error))));
      await Promise.all(runs);
      expect(outcomes.get('newcomer')).toEqual(['served']);
      const refused = [...outcomes.entries()].filter(([, list]) => list.includes('busy server'));
      expect(refused).toHaveLength(1);
      expect(refused[0]![1].filter((o) => o === 'busy server')).toHaveLength(1);
    });
  });
});

