// What a live run keeps: a key per link that does not hold the link, a stored run read back, anything else in storage
// read as no run, and only the latest runs kept.
import { describe, expect, it } from 'vitest';
import { EMPTY_STATE, readState, storageKey, writeState } from '../../src/live/state.js';

/** A Storage with the Web Storage interface over a Map (the browser's own is exercised in test/browser/live.test.ts). */
class MemoryStorage implements Storage {
  private readonly values = new Map<string, string>();
  get length(): number { return this.values.size; }
  clear(): void { this.values.clear(); }
  getItem(key: string): string | null { return this.values.get(key) ?? null; }
  key(index: number): string | null { return [...this.values.keys()][index] ?? null; }
  removeItem(key: string): void { this.values.delete(key); }
  setItem(key: string, value: string): void { this.values.set(key, String(value)); }
}

describe('live run storage', () => {
  it('derives a fixed-length key per payload that does not contain it', () => {
    const payload = '#data=v2:N4IgdghgtgpiBcIDCB7ANgFwJYDsCmAzhgLIAaAcgIIDKAmgAQBSAKgIICi';
    const key = storageKey(payload);
    expect(key).toMatch(/^sessionplan:live:[0-9a-f]{16}$/);
    expect(storageKey(payload)).toBe(key);
    expect(storageKey(`${payload}A`)).not.toBe(key);
    expect(key).not.toContain(payload.slice(9, 20));
  });

  it('reads back what it wrote, and forgets a run reset to nothing', () => {
    const storage = new MemoryStorage();
    const key = storageKey('#data=v2:x');
    const state = { startedAt: Date.UTC(2027, 0, 20, 9, 0), actions: [{ kind: 'extend', id: 'a', minutes: 5 }, { kind: 'done', id: 'b', at: 612 }] } as const;
    writeState(storage, key, state);
    expect(readState(storage, key)).toEqual(state);
    writeState(storage, key, EMPTY_STATE);
    expect(storage.getItem(key)).toBeNull();
    expect(readState(null, key)).toEqual(EMPTY_STATE);
  });

  it('reads anything it did not write as no run', () => {
    const storage = new MemoryStorage();
    const key = storageKey('#data=v2:y');
    for (const value of ['not json', '[]', 'null', '{"startedAt":"9:00","actions":[]}', '{"startedAt":null,"actions":[{"kind":"extend","id":"a","minutes":1e9}]}',
      '{"startedAt":null,"actions":[{"kind":"jump","id":"a"}]}', '{"startedAt":null,"actions":[{"kind":"done","id":5,"at":1}]}', `{"startedAt":null,"actions":[${'{"kind":"done","id":"a","at":1},'.repeat(2000)}{"kind":"done","id":"a","at":1}]}`]) {
      storage.setItem(key, value);
      expect(readState(storage, key), value.slice(0, 60)).toEqual(EMPTY_STATE);
    }
  });

  it('keeps the 20 runs saved last', () => {
    const storage = new MemoryStorage();
    storage.setItem('someone-else', 'kept');
    for (let run = 0; run < 25; run += 1) writeState(storage, storageKey(`#data=v2:${run}`), { startedAt: run, actions: [] });
    const kept = Array.from({ length: storage.length }, (_, index) => storage.key(index)!).filter((key) => key.startsWith('sessionplan:live:'));
    expect(kept).toHaveLength(20);
    expect(readState(storage, storageKey('#data=v2:24')).startedAt).toBe(24);
    expect(storage.getItem('someone-else')).toBe('kept');
  });
});
