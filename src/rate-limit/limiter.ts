// Fixed-window rate limiting per endpoint and client key over any counter store; a failing store means 'unavailable'.
import type { RateDecision, RateLimiter } from '../http/ports.js';
import type { HitCount, RateLimitStore } from './store.js';

const ALLOWED: RateDecision = { kind: 'allowed' };
const UNAVAILABLE: RateDecision = { kind: 'unavailable' };

/** A store that has not answered by then counts as unavailable (a request must never hang on a dead store). */
export const STORE_TIMEOUT_MS = 1000;

function answeredAtOnce(hit: Promise<HitCount> | HitCount): hit is HitCount {
  return typeof (hit as Partial<Promise<HitCount>>).then !== 'function';
}

/** The count of a remote store's answer, or a rejection when it failed or took longer than `timeoutMs`. */
async function awaitStore(hit: Promise<HitCount>, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('rate-limit store timed out')), timeoutMs);
  });
  try {
    return (await Promise.race([hit, deadline])).count;
  } finally {
    clearTimeout(timer);
  }
}

export interface RateLimiterOptions {
  limit: number;
  windowS: number;
  storeTimeoutMs?: number;
  /**
   * Counts instead of the store while it cannot (RATE_LIMIT_STORE_FAILURE=local): an in-process store with the same
   * limit. Without it a failing store means 'unavailable' (503).
   */
  fallback?: RateLimitStore;
  /** Called for each request the fallback counted. */
  onFallback?: (endpoint: string) => void;
}

export function createRateLimiter(store: RateLimitStore, options: RateLimiterOptions): RateLimiter {
  const windowMs = options.windowS * 1000;
  const timeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  // Retry-After is the window length ("Retry-After: 60" for the default 60-second window, docs/http-api.md).
  const limited: RateDecision = { kind: 'limited', retryAfterS: options.windowS };
  const decide = (count: number): RateDecision => (count <= options.limit ? ALLOWED : limited);
  const { fallback, onFallback } = options;
  /** What the store could not answer: 503, or the fallback's count. */
  const unanswered = (endpoint: string, storeKey: string): RateDecision | Promise<RateDecision> => {
    if (fallback === undefined) return UNAVAILABLE;
    onFallback?.(endpoint);
    let hit: Promise<HitCount> | HitCount;
    try {
      hit = fallback.hit(storeKey, windowMs);
    } catch {
      return UNAVAILABLE;
    }
    return answeredAtOnce(hit) ? decide(hit.count) : awaitStore(hit, timeoutMs).then(decide, () => UNAVAILABLE);
  };
  return {
    check(endpoint, key) {
      const storeKey = `rl:${endpoint}:${key}`;
      let hit: Promise<HitCount> | HitCount;
      try {
        hit = store.hit(storeKey, windowMs);
      } catch {
        return unanswered(endpoint, storeKey);
      }
      // An in-process store answers synchronously: no promise, no timer on the hot path.
      if (answeredAtOnce(hit)) return decide(hit.count);
      return awaitStore(hit, timeoutMs).then(decide, () => unanswered(endpoint, storeKey));
    },
  };
}
