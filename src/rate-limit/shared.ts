// One rate-limit store for all worker threads of a process: the main thread counts, workers ask over a MessagePort.
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { MEMORY_STORE_UP } from './store.js';
import type { RateLimitStore, RateLimitStoreHealth } from './store.js';
import { RateLimitStoreError } from './store-error.js';
import type { RateLimitStoreFailure } from './store-error.js';

/*
 * Why a broker and not a SharedArrayBuffer table: every hit is counted by one thread in arrival order, so counts are
 * exact with no locks, expiry and key collisions stay the backing store's plain Map logic, and workers see the same
 * `RateLimitStore` interface as with Redis. A round trip costs tens of microseconds.
 */

type HitRequest = { id: number; key: string; windowMs: number };
type HitReply =
  | { id: number; count: number; resetMs: number }
  | { id: number; failure: RateLimitStoreFailure; message: string };

/** Main-thread side: answers hits from any number of worker ports out of one backing store (e.g. MemoryRateLimitStore). */
export class RateLimitBroker {
  readonly #store: RateLimitStore;
  readonly #ports = new Set<MessagePort>();

  constructor(store: RateLimitStore) {
    this.#store = store;
  }

  /** A new port for one worker; transfer it in `workerData` + `transferList`. Closes by itself when the worker ends. */
  connect(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.#ports.add(port1);
    port1.on('message', (request: HitRequest) => void this.#answer(port1, request));
    port1.on('close', () => this.#ports.delete(port1));
    // The broker must not keep the main thread alive once every worker is gone.
    port1.unref();
    return port2;
  }

  /** Ports currently connected (one per live worker). */
  get connections(): number {
    return this.#ports.size;
  }

  async #answer(port: MessagePort, request: HitRequest): Promise<void> {
    let reply: HitReply;
    try {
      const { count, resetMs } = await this.#store.hit(request.key, request.windowMs);
      reply = { id: request.id, count, resetMs };
    } catch (error) {
      const failure = error instanceof RateLimitStoreError ? error.failure : 'unavailable';
      reply = { id: request.id, failure, message: error instanceof RateLimitStoreError ? error.message : 'Rate-limit store failed.' };
    }
    port.postMessage(reply);
  }

  /** Disconnects every worker; their pending and later hits fail with a 'closed' store error. */
  close(): void {
    for (const port of this.#ports) port.close();
    this.#ports.clear();
  }
}

interface PendingHit {
  resolve(value: { count: number; resetMs: number }): void;
  reject(error: RateLimitStoreError): void;
  timer: NodeJS.Timeout;
}

const BROKER_CLOSED: RateLimitStoreHealth = Object.freeze({ kind: 'memory', state: 'unreachable' });

/** Worker side: a RateLimitStore whose counts live in the main thread's broker. */
export class SharedRateLimitStore implements RateLimitStore {
  readonly #port: MessagePort;
  readonly #timeoutMs: number;
  readonly #pending = new Map<number, PendingHit>();
  #nextId = 0;
  #closed = false;

  /** `timeoutMs`: a busy or stuck main thread turns into a store error (→ 503) instead of a hung request. */
  constructor(port: MessagePort, options: { timeoutMs?: number } = {}) {
    this.#port = port;
    this.#timeoutMs = options.timeoutMs ?? 500;
    port.on('message', (reply: HitReply) => this.#settle(reply));
    port.on('close', () => this.#closeAll());
    // Pending hits keep the thread alive through their timers; an idle port must not block the worker's exit.
    port.unref();
  }

  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    if (this.#closed) return Promise.reject(new RateLimitStoreError('closed', 'Rate-limit broker is closed.'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new RateLimitStoreError('timeout', 'Rate-limit broker did not answer in time.'));
      }, this.#timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#port.postMessage({ id, key, windowMs } satisfies HitRequest);
    });
  }

  /** The main thread's memory store; unreachable once the broker is gone (the worker is stopping). */
  health(): RateLimitStoreHealth {
    return this.#closed ? BROKER_CLOSED : MEMORY_STORE_UP;
  }

  async close(): Promise<void> {
    this.#port.close();
    this.#closeAll();
  }

  #settle(reply: HitReply): void {
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return; // already timed out
    this.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    if ('failure' in reply) pending.reject(new RateLimitStoreError(reply.failure, reply.message));
    else pending.resolve({ count: reply.count, resetMs: reply.resetMs });
  }

  #closeAll(): void {
    this.#closed = true;
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new RateLimitStoreError('closed', 'Rate-limit broker is closed.'));
    }
    this.#pending.clear();
  }
}
