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

export function createRateLimiter(store: RateLimitStore, options: { limit: number; windowS: number; storeTimeoutMs?: number }): RateLimiter {
  const windowMs = options.windowS * 1000;
  const timeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  // Retry-After is the window length ("Retry-After: 60" for the default 60-second window, docs/http-api.md).
  const limited: RateDecision = { kind: 'limited', retryAfterS: options.windowS };
  return {
    check(endpoint, key) {
      let hit: Promise<HitCount> | HitCount;
      try {
        hit = store.hit(`rl:${endpoint}:${key}`, windowMs);
      } catch {
        return UNAVAILABLE;
      }
      // An in-process store answers synchronously: no promise, no timer on the hot path.
      if (answeredAtOnce(hit)) return hit.count <= options.limit ? ALLOWED : limited;
      return awaitStore(hit, timeoutMs).then((count) => (count <= options.limit ? ALLOWED : limited), () => UNAVAILABLE);
    },
  };
}
