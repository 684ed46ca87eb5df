// The connection limits a server runs with: what the environment set, else what its adapter is fixed at, else the defaults.
import { CONNECTIONS_PER_CLIENT, LIMITS } from '../limits/table.js';
import type { ConnectionLimits, Transport } from '../transport/types.js';
import { ConfigError } from './config.js';
import type { ServerConfig } from './config.js';

/** The environment variable of each limit (the README's table). */
const VARIABLES: Readonly<Record<keyof ConnectionLimits, string>> = {
  idleTimeoutS: 'IDLE_TIMEOUT_S',
  maxConnections: 'MAX_CONNECTIONS',
  maxConnectionsPerClient: 'MAX_CONNECTIONS_PER_CLIENT',
};
const KEYS = Object.keys(VARIABLES) as (keyof ConnectionLimits)[];

/**
 * A client's share of the connection cap by default: one fiftieth (at least 10), and none behind a proxy (TRUST_PROXY > 0),
 * whose connections all come from itself, or without a cap.
 */
export function defaultConnectionsPerClient(maxConnections: number, trustProxy: number): number {
  if (maxConnections === 0 || trustProxy > 0) return 0;
  return Math.max(CONNECTIONS_PER_CLIENT.min, Math.floor(maxConnections / CONNECTIONS_PER_CLIENT.divisor));
}

/** The sentence for the first setting `transport` cannot apply as given, or undefined when it applies them all. */
export function unhonouredSetting(config: Pick<ServerConfig, 'connections'>, transport: Pick<Transport, 'name' | 'version' | 'honours'>): string | undefined {
  for (const key of KEYS) {
    const value = config.connections[key];
    const honoured = transport.honours[key];
    if (value === undefined || honoured === 'any' || value === honoured) continue;
    return `${VARIABLES[key]}=${value} cannot be applied by TRANSPORT=${transport.name} (${transport.version}), which applies only ${VARIABLES[key]}=${honoured}: unset it, or use TRANSPORT=node`;
  }
  return undefined;
}

/**
 * The limits `transport` listens with. Throws ConfigError (exit 2) for a setting it cannot apply: a limit the operator
 * set never silently goes unenforced. A limit left unset takes the adapter's fixed value where it has one (uWS: its
 * own idle timeout, no connection caps, as docs/http-api.md says), else the default.
 */
export function connectionLimits(config: Pick<ServerConfig, 'connections' | 'trustProxy'>, transport: Pick<Transport, 'name' | 'version' | 'honours'>): ConnectionLimits {
  const refusal = unhonouredSetting(config, transport);
  if (refusal !== undefined) throw new ConfigError(`Invalid configuration: ${refusal}.`);
  const fixed = (key: keyof ConnectionLimits): number | undefined => {
    const honoured = transport.honours[key];
    return honoured === 'any' ? undefined : honoured;
  };
  const { connections } = config;
  const maxConnections = connections.maxConnections ?? fixed('maxConnections') ?? LIMITS.connections.value;
  return {
    idleTimeoutS: connections.idleTimeoutS ?? fixed('idleTimeoutS') ?? LIMITS.idleTimeout.value,
    maxConnections,
    maxConnectionsPerClient: connections.maxConnectionsPerClient ?? fixed('maxConnectionsPerClient') ?? defaultConnectionsPerClient(maxConnections, config.trustProxy),
  };
}
