// The counter-store interface every rate-limit store implements (in-memory, worker broker, Redis).

/** The count of a key's current window after one more hit, and the time until that window ends. */
export interface HitCount {
  count: number;
  resetMs: number;
}

/**
 * A counter store. `hit` counts one request in the key's current window; it may reject (store down → 503). An
 * in-process store answers at once with the count itself, which spares every request a timer and a promise race.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<HitCount> | HitCount;
  /** Releases connections or timers, if the store has any. */
  close?(): Promise<void>;
}
