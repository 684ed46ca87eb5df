// Benchmark peer: a fixed-window rate table in a SharedArrayBuffer guarded by one Atomics lock (the design not chosen).
import { MEMORY_STORE_UP } from '../../src/rate-limit/store.js';
import type { RateLimitStore, RateLimitStoreHealth } from '../../src/rate-limit/store.js';
import { RateLimitStoreError } from '../../src/rate-limit/store-error.js';

/*
 * Layout: Int32 header [lock], Float64 epoch (written once before sharing), then per slot Int32 [used, keyLength,
 * count, resetAt] and 64 key bytes. Linear probing; one global lock keeps it exact (per-slot locks would race on
 * insertion). Expired slots are reused only after the whole probe chain was searched for the key.
 */
const KEY_BYTES = 64;
const SLOT_INTS = 4;
const HEADER_BYTES = 16;

export function createSabRateTable(capacity: number): SharedArrayBuffer {
  if ((capacity & (capacity - 1)) !== 0) throw new Error('capacity must be a power of two');
  const sab = new SharedArrayBuffer(HEADER_BYTES + capacity * (SLOT_INTS * 4 + KEY_BYTES));
  new Float64Array(sab, 8, 1)[0] = Date.now();
  return sab;
}

export class SabRateLimitStore implements RateLimitStore {
  readonly #lock: Int32Array;
  readonly #slots: Int32Array;
  readonly #keys: Uint8Array;
  readonly #epoch: number;
  readonly #mask: number;
  readonly #encoder = new TextEncoder();
  readonly #scratch = new Uint8Array(KEY_BYTES);

  /** A table in this process's memory: always able to count (a full table refuses hits, it is not down). */
  health(): RateLimitStoreHealth {
    return MEMORY_STORE_UP;
  }

  constructor(sab: SharedArrayBuffer) {
    const capacity = (sab.byteLength - HEADER_BYTES) / (SLOT_INTS * 4 + KEY_BYTES);
    this.#lock = new Int32Array(sab, 0, 1);
    this.#epoch = new Float64Array(sab, 8, 1)[0] ?? 0;
    this.#slots = new Int32Array(sab, HEADER_BYTES, capacity * SLOT_INTS);
    this.#keys = new Uint8Array(sab, HEADER_BYTES + capacity * SLOT_INTS * 4, capacity * KEY_BYTES);
    this.#mask = capacity - 1;
  }

  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const { written, read } = this.#encoder.encodeInto(key, this.#scratch);
    if (read !== key.length) return Promise.reject(new RateLimitStoreError('unavailable', 'Rate-limit key too long.'));
    const now = Date.now() - this.#epoch;
    this.#acquire();
    try {
      return Promise.resolve(this.#hitLocked(written, now, windowMs));
    } catch (error) {
      return Promise.reject(error);
    } finally {
      this.#release();
    }
  }

  #hitLocked(keyLength: number, now: number, windowMs: number): { count: number; resetMs: number } {
    const slots = this.#slots;
    let index = this.#hash(keyLength) & this.#mask;
    let reusable = -1;
    for (let probes = 0; probes <= this.#mask; probes++, index = (index + 1) & this.#mask) {
      const base = index * SLOT_INTS;
      if (slots[base] === 0) break;
      const expired = (slots[base + 3] ?? 0) <= now;
      if (this.#sameKey(index, keyLength)) {
        if (expired) {
          slots[base + 2] = 0;
          slots[base + 3] = now + windowMs;
        }
        const count = (slots[base + 2] ?? 0) + 1;
        slots[base + 2] = count;
        return { count, resetMs: (slots[base + 3] ?? 0) - now };
      }
      if (expired && reusable < 0) reusable = index;
    }
    const target = reusable >= 0 ? reusable : slots[index * SLOT_INTS] === 0 ? index : -1;
    if (target < 0) throw new RateLimitStoreError('unavailable', 'Rate-limit table is full.');
    const base = target * SLOT_INTS;
    slots[base] = 1;
    slots[base + 1] = keyLength;
    slots[base + 2] = 1;
    slots[base + 3] = now + windowMs;
    this.#keys.set(this.#scratch.subarray(0, keyLength), target * KEY_BYTES);
    return { count: 1, resetMs: windowMs };
  }

  #sameKey(index: number, keyLength: number): boolean {
    if (this.#slots[index * SLOT_INTS + 1] !== keyLength) return false;
    const offset = index * KEY_BYTES;
    for (let i = 0; i < keyLength; i++) if (this.#keys[offset + i] !== this.#scratch[i]) return false;
    return true;
  }

  #hash(keyLength: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < keyLength; i++) h = Math.imul(h ^ (this.#scratch[i] ?? 0), 0x01000193);
    return h >>> 0;
  }

  #acquire(): void {
    // Spin briefly (the critical section is tiny), then sleep on the lock word until the holder notifies.
    for (let spins = 0; Atomics.compareExchange(this.#lock, 0, 0, 1) !== 0; spins++) {
      if (spins > 64) Atomics.wait(this.#lock, 0, 1, 1);
    }
  }

  #release(): void {
    Atomics.store(this.#lock, 0, 0);
    Atomics.notify(this.#lock, 0, 1);
  }
}
