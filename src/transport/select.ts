// Picks the socket adapter for TRANSPORT=auto|uws|node: uWS where its native binary loads, node:http everywhere else.
import { createNodeHttpTransport } from './node-http.js';
import { TransportError } from './types.js';
import type { Transport } from './types.js';

export type TransportChoice = 'auto' | 'uws' | 'node';

export interface SelectedTransport {
  transport: Transport;
  /** One line for the operator when `auto` could not use uWS (said once at start-up), else undefined. */
  warning?: string;
}

/** Shared-port worker threads on node:http need SO_REUSEPORT in `listen()`, which Node has since 22.12 / 23.1. */
export function nodeSupportsReusePort(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/**
 * uWS is loaded only when it may be used: its module is imported lazily, so `TRANSPORT=node` never touches the native
 * binary (nor needs the optional package). `TRANSPORT=uws` without a loadable binary, or without the package, stops
 * start-up with one line that says what to do instead. `refuses` says why an adapter cannot serve the configuration
 * (a setting it cannot apply): `auto` then serves with node:http instead, with one warning line.
 */
export async function selectTransport(choice: TransportChoice, refuses: (transport: Transport) => string | undefined = () => undefined): Promise<SelectedTransport> {
  if (choice === 'node') return { transport: createNodeHttpTransport() };
  let reason: string;
  let remedy = 'Use Node 20 for the pinned uWebSockets.js build';
  try {
    const { createUwsTransport } = await import('./uws.js');
    const uws = createUwsTransport();
    const refusal = choice === 'auto' ? refuses(uws) : undefined;
    if (refusal === undefined) return { transport: uws };
    return { transport: createNodeHttpTransport(), warning: `uWebSockets.js loads, but ${refusal}; serving with node:http.` };
  } catch (error) {
    reason = error instanceof TransportError ? error.message : `uWebSockets.js cannot be loaded: ${(error as Error).message}`;
    if (error instanceof TransportError && 'remedy' in error && typeof error.remedy === 'string') remedy = error.remedy;
  }
  if (choice === 'uws') throw new TransportError(`TRANSPORT=uws: ${reason}. ${remedy}, or TRANSPORT=node.`);
  return {
    transport: createNodeHttpTransport(),
    warning: `${reason}; serving with node:http instead. For the uWS fast path ${remedy.charAt(0).toLowerCase()}${remedy.slice(1)} (see docs/deployment.md), or set TRANSPORT=node to silence this line.`,
  };
}
