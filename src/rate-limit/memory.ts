// The embedded rate-limit store: fixed windows in a Map, for one process (shared by its workers through the broker).
import { MEMORY_STORE_UP } from './store.js';
import type { HitCount, RateLimitStore, RateLimitStoreHealth } from './store.js';

/**
 * Embedded store for one process: a Map of fixed windows. Expired windows are swept at most once per
 * window length, on a hit, so no timer keeps the process alive.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  hit(key: string, windowMs: number): HitCount {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  health(): RateLimitStoreHealth {
    return MEMORY_STORE_UP;
  }

  /** Number of live windows (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }
}
