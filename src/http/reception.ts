// Body bytes a server is receiving at once, capped server-wide and per client, and uploads that crawl are cut.
import { LIMITS } from '../limits/table.js';

/** How often open uploads are checked against the minimum rate. */
const RATE_CHECK_MS = 1_000;

export interface ReceptionLimits {
  maxBytes: number;
  maxClientBytes: number;
  minBytesPerS: number;
  graceMs: number;
}

/** Why an upload's bytes were not taken: the server's budget is full, or this client's share of it. */
export type ReceptionRefusal = 'server' | 'client';

/** One body being received: it takes budget as its bytes arrive and gives it all back when it ends. */
export interface Upload {
  /** Counts `bytes` more of this body; undefined when they fit, else which cap they passed (nothing is taken then). */
  take(bytes: number): ReceptionRefusal | undefined;
  /** The body is complete, refused or gone: its bytes no longer count. Safe to call twice. */
  end(): void;
}

class OpenUpload implements Upload {
  held = 0;
  arrived = 0;
  readonly startedAt = performance.now();
  #ended = false;

  constructor(
    private readonly reception: Reception,
    readonly client: string,
    readonly onTooSlow: () => void,
  ) {}

  take(bytes: number): ReceptionRefusal | undefined {
    if (this.#ended) return undefined;
    const refusal = this.reception.reserve(this.client, bytes);
    if (refusal !== undefined) return refusal;
    this.held += bytes;
    this.arrived += bytes;
    return undefined;
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.reception.finish(this);
  }
}

export class Reception {
  readonly limits: ReceptionLimits;
  #receiving = 0;
  readonly #byClient = new Map<string, number>();
  readonly #open = new Set<OpenUpload>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(limits: Partial<ReceptionLimits> = {}) {
    this.limits = {
      maxBytes: limits.maxBytes ?? LIMITS.receivingBytes.value,
      maxClientBytes: limits.maxClientBytes ?? LIMITS.clientReceivingBytes.value,
      minBytesPerS: limits.minBytesPerS ?? LIMITS.uploadRate.value,
      graceMs: limits.graceMs ?? LIMITS.uploadGrace.value,
    };
  }

  /** Starts receiving a body for `client`; `onTooSlow` runs once if it falls below the minimum rate (then end it). */
  open(client: string, onTooSlow: () => void): Upload {
    const upload = new OpenUpload(this, client, onTooSlow);
    this.#open.add(upload);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#checkRates(), RATE_CHECK_MS);
      this.#timer.unref?.();
    }
    return upload;
  }

  /** Bytes held now, server-wide (tests, metrics). */
  get receiving(): number {
    return this.#receiving;
  }

  /** Bytes held now for one client. */
  receivingFor(client: string): number {
    return this.#byClient.get(client) ?? 0;
  }

  /** @internal Takes `bytes` for `client` if both caps allow it. */
  reserve(client: string, bytes: number): ReceptionRefusal | undefined {
    if (this.#receiving + bytes > this.limits.maxBytes) return 'server';
    const own = this.#byClient.get(client) ?? 0;
    if (own + bytes > this.limits.maxClientBytes) return 'client';
    this.#receiving += bytes;
    this.#byClient.set(client, own + bytes);
    return undefined;
  }

  /** @internal An upload ended: its bytes go back. */
  finish(upload: OpenUpload): void {
    this.#open.delete(upload);
    this.#receiving -= upload.held;
    const left = (this.#byClient.get(upload.client) ?? 0) - upload.held;
    if (left > 0) this.#byClient.set(upload.client, left);
    else this.#byClient.delete(upload.client);
  }

  #checkRates(): void {
    // The timer stops when a check finds nothing open (not at each finish: most bodies arrive within a millisecond).
    if (this.#open.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    const { graceMs, minBytesPerS } = this.limits;
    for (const upload of this.#open) {
      const elapsedMs = now - upload.startedAt;
      if (elapsedMs >= graceMs && upload.arrived < (minBytesPerS * elapsedMs) / 1000) {
        upload.end();
        upload.onTooSlow();
      }
    }
  }
}
