// What every socket adapter offers the composition root: listen with an HTTP core, report its port, close gracefully.
import type { HttpCore } from '../http/core.js';

export type TransportName = 'uws' | 'node';

export interface ListenOptions {
  host: string;
  port: number;
  core: HttpCore;
  /**
   * Worker threads of one process listen on the same port. Only for workers started after the main thread has
   * checked the port with `probeExclusivePort()`; default: exclusive.
   */
  sharedPort?: boolean;
  /** An idle keep-alive connection is closed after this many seconds. */
  idleTimeoutS: number;
  /** Connections beyond this many per process are refused at once (0: no cap). */
  maxConnections: number;
  /** Connections beyond this many from one client address are refused at once (0: no cap). */
  maxConnectionsPerClient?: number;
  /** IPv6 client addresses count per network of this prefix length (as the rate limit counts them). */
  ipv6PrefixBits?: number;
}

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

/** One adapter: its name and version (for the ready line and the health JSON) and how it listens. */
export interface Transport {
  readonly name: TransportName;
  /** e.g. 'uWebSockets.js 20.30.0-unofficial.0' or 'node:http v22.12.0'. */
  readonly version: string;
  listen(options: ListenOptions): Promise<ListeningServer>;
  /**
   * For a main thread that starts workers sharing a port: binds `host:port` exclusively once and releases it, so a busy
   * port stops startup with a clear message and port 0 becomes the real port every worker then binds.
   */
  probeExclusivePort(host: string, port: number): Promise<number>;
}

/** The address cannot be bound, or the chosen adapter cannot run here; the message is one line for the operator. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
}
