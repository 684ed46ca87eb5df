// Body bytes a server is receiving at once, capped: a flood of large uploads is refused at its head, not held in memory.

/**
 * At most this many body bytes per server are being received at once (declared lengths, and chunked bodies as they
 * arrive): sixteen full-size bodies. A body's bytes count from its head until it is complete (or refused, or its client
 * went away); a POST whose Content-Length would pass the cap is answered 429 with Retry-After at once. Without it, 500
 * clients each sending 1.9 MB and stalling held ~1 GB of RSS (a pooled-size buffer each).
 */
export const MAX_RECEIVING_BYTES = 32 * 1024 * 1024;

export class ReceptionBudget {
  readonly maxBytes: number;
  #receiving = 0;

  constructor(maxBytes = MAX_RECEIVING_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** Takes `bytes` of the budget; false (and nothing taken) when they do not fit. */
  reserve(bytes: number): boolean {
    if (this.#receiving + bytes > this.maxBytes) return false;
    this.#receiving += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#receiving -= bytes;
  }

  /** Bytes being received now (tests, metrics). */
  get receiving(): number {
    return this.#receiving;
  }
}
