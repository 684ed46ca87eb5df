// What every socket adapter offers the composition root: the limits it can apply, listening with an HTTP core, its port.
import type { HttpCore } from '../http/core.js';
import type { ListeningServer } from '../http/server-lifecycle.js';

export type { ListeningServer } from '../http/server-lifecycle.js';

export type TransportName = 'uws' | 'node';

/** The connection limits an adapter applies itself (the README's IDLE_TIMEOUT_S, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT). */
export interface ConnectionLimits {
  /** An idle keep-alive connection, or one that never sends, is closed after this many seconds. */
  readonly idleTimeoutS: number;
  /** Connections beyond this many per process are refused at once (0: no cap). */
  readonly maxConnections: number;
  /** Connections beyond this many from one client address are refused at once (0: no cap). */
  readonly maxConnectionsPerClient: number;
}

/** What an adapter can apply of each connection limit: any value, or only this one (its fixed behaviour). */
export type HonouredLimits = { readonly [K in keyof ConnectionLimits]: 'any' | number };

export interface ListenOptions {
  host: string;
  port: number;
  core: HttpCore;
  /**
   * Worker threads of one process listen on the same port. Only for workers started after the main thread has
   * checked the port with `probeExclusivePort()`; default: exclusive.
   */
  sharedPort?: boolean;
  /** The limits to apply; each one the adapter honours (`Transport.honours`). */
  limits: ConnectionLimits;
  /** IPv6 client addresses count per network of this prefix length (as the rate limit counts them). */
  ipv6PrefixBits?: number;
}

/** One adapter: its name and version (for the ready line and the health JSON), what it can apply, how it listens. */
export interface Transport {
  readonly name: TransportName;
  /** e.g. 'uWebSockets.js 20.30.0-unofficial.0' or 'node:http v22.12.0'. */
  readonly version: string;
  /** The connection limits it applies as configured, or the one value it is fixed at. */
  readonly honours: HonouredLimits;
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
