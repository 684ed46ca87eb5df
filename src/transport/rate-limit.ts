// Fixed-window rate limiting per endpoint and client IP, behind a store interface (in-memory now, shared stores later).

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

export type RateDecision =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'limited'; readonly retryAfterS: number }
  | { readonly kind: 'unavailable' };

export interface RateLimiter {
  /** Counts one POST to `endpoint` from `ip`. Never rejects: a failing store yields 'unavailable'. */
  check(endpoint: string, ip: string): Promise<RateDecision>;
}

const ALLOWED: RateDecision = { kind: 'allowed' };
const UNAVAILABLE: RateDecision = { kind: 'unavailable' };

/** A store that has not answered by then counts as unavailable (uWS never times out a request after its body). */
export const STORE_TIMEOUT_MS = 1000;

function answeredAtOnce(hit: Promise<HitCount> | HitCount): hit is HitCount {
  return typeof (hit as Partial<Promise<HitCount>>).then !== 'function';
}

export function createRateLimiter(store: RateLimitStore, options: { limit: number; windowS: number; storeTimeoutMs?: number }): RateLimiter {
  const windowMs = options.windowS * 1000;
  const timeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  // Retry-After is the window length (SPEC §6: "Retry-After: 60" for the 60-second window).
  const limited: RateDecision = { kind: 'limited', retryAfterS: options.windowS };
  return {
    async check(endpoint, ip) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const hit = store.hit(`rl:${endpoint}:${ip}`, windowMs);
        if (answeredAtOnce(hit)) return hit.count <= options.limit ? ALLOWED : limited;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('rate-limit store timed out')), timeoutMs);
        });
        const { count } = await Promise.race([hit, deadline]);
        return count <= options.limit ? ALLOWED : limited;
      } catch {
        return UNAVAILABLE;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

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

  /** Number of live windows (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }
}
