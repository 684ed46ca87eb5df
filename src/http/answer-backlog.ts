// Answer bytes written for clients that do not read them, capped per connection and per server: past it, the slowest go.
import { LIMITS } from '../limits/table.js';

/** What the backlog needs of a connection: how many bytes it has sent so far, and how to cut it. */
export interface BacklogConnection {
  /** Bytes the socket has handed to the kernel so far (any measure that grows as the reader takes bytes). */
  sentBytes(): number;
  /** Closes the connection at once; the adapter then calls AnswerBacklog.closed(). */
  cut(): void;
}

export interface BacklogLimits {
  /** Bytes of answers one connection may have waiting: one answer of the largest kind (an MCP decode, ~6 MB) fits. */
  readonly perConnection: number;
  /** Bytes of answers all connections of a server may have waiting. */
  readonly perServer: number;
}

const DEFAULT_BACKLOG_LIMITS: BacklogLimits = { perConnection: LIMITS.connectionBacklog.value, perServer: LIMITS.serverBacklog.value };

interface Waiting {
  bytes: number;
  /** sentBytes() when last looked at, and when it last grew (or the first answer was added). */
  sent: number;
  progressAt: number;
}

/**
 * Answer bytes held for a socket that has not taken them all yet, per connection: an adapter adds an answer's bytes
 * when it writes them (the whole answer: its buffer is held until the last byte is in the kernel) and settles them once
 * its socket has flushed them (or closes). When a connection passes its
 * cap it is cut; when the server passes its cap, the connections whose readers made no progress for the longest are
 * cut until it is under again: a reader that takes bytes, however slowly, keeps its place over one that takes none.
 */
export class AnswerBacklog {
  readonly #limits: BacklogLimits;
  readonly #onCut: () => void;
  readonly #waiting = new Map<BacklogConnection, Waiting>();
  #total = 0;

  constructor(onCut: () => void = () => {}, limits: BacklogLimits = DEFAULT_BACKLOG_LIMITS) {
    this.#onCut = onCut;
    this.#limits = limits;
  }

  /** Bytes waiting now, server-wide (tests, metrics). */
  get waiting(): number {
    return this.#total;
  }

  /** `bytes` of an answer were written to `connection` and wait to be flushed. */
  add(connection: BacklogConnection, bytes: number): void {
    let entry = this.#waiting.get(connection);
    if (entry === undefined) this.#waiting.set(connection, (entry = { bytes: 0, sent: connection.sentBytes(), progressAt: performance.now() }));
    entry.bytes += bytes;
    this.#total += bytes;
    if (entry.bytes > this.#limits.perConnection) return this.#cut(connection);
    while (this.#total > this.#limits.perServer) {
      const victim = this.#stalledLongest();
      if (victim === undefined) return;
      this.#cut(victim);
    }
  }

  /** `bytes` of `connection`'s answers were flushed. */
  settle(connection: BacklogConnection, bytes: number): void {
    const entry = this.#waiting.get(connection);
    if (entry === undefined) return;
    const settled = Math.min(bytes, entry.bytes);
    entry.bytes -= settled;
    this.#total -= settled;
    if (entry.bytes === 0) this.#waiting.delete(connection);
    else entry.progressAt = performance.now();
  }

  /** The connection is gone: whatever it had waiting is no longer held. */
  closed(connection: BacklogConnection): void {
    const entry = this.#waiting.get(connection);
    if (entry === undefined) return;
    this.#total -= entry.bytes;
    this.#waiting.delete(connection);
  }

  #cut(connection: BacklogConnection): void {
    this.closed(connection);
    this.#onCut();
    connection.cut();
  }

  /** The waiting connection whose reader took no bytes for the longest (its sent count is looked at now). */
  #stalledLongest(): BacklogConnection | undefined {
    const now = performance.now();
    let victim: BacklogConnection | undefined;
    let oldest = Number.POSITIVE_INFINITY;
    for (const [connection, entry] of this.#waiting) {
      const sent = connection.sentBytes();
      if (sent !== entry.sent) {
        entry.sent = sent;
        entry.progressAt = now;
      }
      if (entry.progressAt < oldest) {
        oldest = entry.progressAt;
        victim = connection;
      }
    }
    return victim;
  }
}
