// The counter-store interface every rate-limit store implements (in-memory, worker broker, Redis).

/** The count of a key's current window after one more hit, and the time until that window ends. */
export interface HitCount {
  count: number;
  resetMs: number;
}

/**
 * Which store counts and whether it can count now: what `GET /mcp` answers (`rateLimitStore`, and `status`
 * `degraded` while it is unreachable) and what the gauge `sessionplan_rate_limit_store_up` shows.
 */
export interface RateLimitStoreHealth {
  readonly kind: 'memory' | 'redis';
  readonly state: 'up' | 'unreachable';
}

/** The health of the in-process stores (the process's own Map, or the main thread's through the worker broker). */
export const MEMORY_STORE_UP: RateLimitStoreHealth = Object.freeze({ kind: 'memory', state: 'up' });

/**
 * A counter store. `hit` counts one request in the key's current window; it may reject (store down → 503). An
 * in-process store answers at once with the count itself, which spares every request a timer and a promise race.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<HitCount> | HitCount;
  /** Read on every health check and scrape: must answer at once, from what the store already knows (no round trip). */
  health(): RateLimitStoreHealth;
  /** Releases connections or timers, if the store has any. */
  close?(): Promise<void>;
}
