// The one error a shared rate-limit store throws when it cannot count (Redis down, broker gone): the server maps it to 503 -32603.

/** Why the store could not answer; kept coarse so logs and metrics can group failures without parsing messages. */
export type RateLimitStoreFailure = 'unavailable' | 'timeout' | 'bad-reply' | 'closed';

/**
 * Thrown by every store in this folder instead of a raw client error, so the caller can tell "cannot count"
 * (fail closed with 503) from a programming error without string matching. The message never contains the key
 * (it holds a client IP) nor the store address.
 */
export class RateLimitStoreError extends Error {
  override readonly name = 'RateLimitStoreError';
  readonly failure: RateLimitStoreFailure;

  constructor(failure: RateLimitStoreFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.failure = failure;
  }
}
