// Reusable byte buffers for large bodies and answers: memory a request writes into has been touched before.
//
// Why: a fresh multi-MB allocation costs a page fault per 4 KB page on first touch, and on virtual machines a fault
// costs microseconds. With buffers that circulate (socket → offload thread → socket), a large request faults in
// none of the copies of its body and answer, only each buffer once, ever (docs/architecture.md, "Large bodies").

/** Buffers are made at least this large, so that any body under the 2,000,000-byte cap fits any of them. */
export const MIN_BUFFER_BYTES = 2 * 1024 * 1024;

export interface BufferPoolLimits {
  /** Buffers kept for reuse, at most. */
  readonly maxBuffers: number;
  /** Bytes kept for reuse, at most (a buffer that would pass it is let go). */
  readonly maxBytes: number;
}

/**
 * Six buffers and 48 MB: two offload jobs in flight, their answers on the wire, and the next bodies arriving. A decode's
 * answer can be ~10 MB (a document at the 4 MB output budget, twice over MCP); only the bytes a buffer held so far are
 * resident.
 */
export const DEFAULT_POOL_LIMITS: BufferPoolLimits = { maxBuffers: 6, maxBytes: 48 * 1024 * 1024 };

export class BufferPool {
  readonly #free: ArrayBuffer[] = [];
  readonly #limits: BufferPoolLimits;
  #freeBytes = 0;

  constructor(limits: BufferPoolLimits = DEFAULT_POOL_LIMITS) {
    this.#limits = limits;
  }

  /** A buffer of at least `bytes` bytes: the smallest free one that fits, else a new one (contents undefined). */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const size = this.#free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.#free[best]!.byteLength)) best = i;
    }
    if (best < 0) return new ArrayBuffer(Math.max(bytes, MIN_BUFFER_BYTES));
    const [buffer] = this.#free.splice(best, 1) as [ArrayBuffer];
    this.#freeBytes -= buffer.byteLength;
    return buffer;
  }

  /** Returns a buffer for reuse; a detached one (transferred elsewhere), or one past the limits, is let go. */
  give(buffer: ArrayBuffer): void {
    const size = buffer.byteLength;
    if (size === 0 || this.#free.length >= this.#limits.maxBuffers || this.#freeBytes + size > this.#limits.maxBytes) return;
    if (this.#free.includes(buffer)) return;
    this.#free.push(buffer);
    this.#freeBytes += size;
  }

  /** Buffers and bytes kept now (tests, metrics). */
  get kept(): { buffers: number; bytes: number } {
    return { buffers: this.#free.length, bytes: this.#freeBytes };
  }
}
