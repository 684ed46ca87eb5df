// The life of one listening server, the same for every adapter: requests in flight, draining, and a graceful close.
import type { CycleOptions } from './request-cycle.js';

/** Time between the last in-flight answer and closing every connection during shutdown: the last answers leave. */
export const FLUSH_LINGER_MS = 250;
/** How long a close waits for requests in flight, unless told otherwise. */
export const CLOSE_GRACE_MS = 10_000;

/** What an adapter does at the two steps of a close that only it can take. */
export interface SocketControl {
  /** Stops accepting connections (and drops the idle ones it can). */
  stopAccepting(): void;
  /** Closes every connection left, once the in-flight requests are answered (or the grace ran out). */
  closeAll(): void;
}

/** One listening server as the composition root sees it, whichever adapter serves it. */
export interface ListeningServer {
  /** The real port (useful after listening on port 0). */
  readonly port: number;
  /** Requests between arrival and answer (or abort). */
  inFlight(): number;
  /** From now on every answer closes its connection (`Connection: close`); the listener keeps accepting. */
  drain(): void;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Counts the requests of one server and closes it gracefully: stop accepting, wait for the answers in flight, let them
 * leave, close what is left. An adapter hands `cycleOptions` to every RequestCycle and its socket steps to listening().
 */
export class ServerLifecycle {
  #inFlight = 0;
  #closing = false;
  #draining = false;
  #drained: (() => void) | undefined;

  /** For every request of this server: whether answers close their connections, and when a request is done. */
  readonly cycleOptions: CycleOptions = {
    closing: () => this.#closing || this.#draining,
    started: () => {
      this.#inFlight++;
    },
    settled: () => {
      this.#inFlight--;
      if (this.#inFlight === 0) this.#drained?.();
    },
  };

  /** The server as the composition root sees it, once the adapter is listening on `port`. */
  listening(port: number, sockets: SocketControl): ListeningServer {
    return {
      port,
      inFlight: () => this.#inFlight,
      drain: () => {
        this.#draining = true;
      },
      close: (graceMs = CLOSE_GRACE_MS) => this.#close(graceMs, sockets),
    };
  }

  async #close(graceMs: number, sockets: SocketControl): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    sockets.stopAccepting();
    if (this.#inFlight > 0) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, graceMs);
        this.#drained = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
    // The last answers may still sit in the adapter's buffers: a moment for them to reach their clients.
    await new Promise((done) => setTimeout(done, FLUSH_LINGER_MS));
    sockets.closeAll();
  }
}
