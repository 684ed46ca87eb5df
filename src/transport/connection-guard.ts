// Connections per client address, and a short head deadline for connections that sent nothing whole while the cap is near.
import type { Socket } from 'node:net';
import { rateLimitKey } from '../http/client-ip.js';
import { LIMITS } from '../limits/table.js';

const SWEEP_MS = 500;

export interface ConnectionGuardOptions {
  /** Connections per process (0: no cap, and no pressure). */
  maxConnections: number;
  /** Connections per client address (0: no cap). */
  maxPerClient: number;
  /** IPv6 addresses count per network of this prefix, as the rate limit counts them. */
  ipv6PrefixBits: number;
}

interface Guarded {
  readonly key: string;
  readonly at: number;
}

/**
 * One client may hold a small share of the server's connections, so a host that opens thousands of trickling sockets
 * (and re-opens each one that is closed) cannot take every place; and near the server-wide cap, connections that have
 * not sent a whole request yet are closed after LIMITS.pressureHeadDeadline instead of the full head deadline.
 */
export class ConnectionGuard {
  readonly #options: ConnectionGuardOptions;
  readonly #byClient = new Map<string, number>();
  /** Connections without a whole request yet, oldest first. */
  readonly #waiting = new Map<Socket, Guarded>();
  #open = 0;
  readonly #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: ConnectionGuardOptions) {
    this.#options = options;
    if (options.maxConnections > 0) {
      this.#timer = setInterval(() => this.#sweep(), SWEEP_MS);
      this.#timer.unref();
    }
  }

  /** A new connection: false when its client already holds its share (the caller closes it). */
  admit(socket: Socket): boolean {
    const key = this.#options.maxPerClient > 0 ? rateLimitKey(socket.remoteAddress ?? '', undefined, 0, this.#options.ipv6PrefixBits) : '';
    const held = this.#byClient.get(key) ?? 0;
    if (this.#options.maxPerClient > 0 && held >= this.#options.maxPerClient) return false;
    this.#byClient.set(key, held + 1);
    this.#open++;
    this.#waiting.set(socket, { key, at: performance.now() });
    socket.once('close', () => {
      this.#open--;
      this.#waiting.delete(socket);
      const left = (this.#byClient.get(key) ?? 1) - 1;
      if (left > 0) this.#byClient.set(key, left);
      else this.#byClient.delete(key);
    });
    return true;
  }

  /** The connection sent a whole request head: from now on only the idle timeout applies to it. */
  served(socket: Socket): void {
    this.#waiting.delete(socket);
  }

  /** Connections open now (tests). */
  get open(): number {
    return this.#open;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #sweep(): void {
    if (this.#open < this.#options.maxConnections * LIMITS.pressureShare.value) return;
    const oldest = performance.now() - LIMITS.pressureHeadDeadline.value;
    for (const [socket, guarded] of this.#waiting) {
      if (guarded.at > oldest) break;
      this.#waiting.delete(socket);
      socket.destroy();
    }
  }
}
