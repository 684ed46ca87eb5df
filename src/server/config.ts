// Server configuration: the environment variables of the README's table, validated with zod into one typed object.
import { isIP } from 'node:net';
import * as z from 'zod';
import type { LogLevel } from '../logging/logger.js';
import type { ConnectionLimits } from '../transport/types.js';
import { parseRedisUrl, REDIS_URL_FORMS, RedisUrlError } from '../rate-limit/redis-url.js';

export type { LogLevel };

export interface ServerConfig {
  /** TCP port; 0 asks the OS for a free one (tests). */
  port: number;
  host: string;
  /** Base URL of created links and of the served icon; always ends with '/'. */
  publicBaseUrl: string;
  /** Browser origins allowed to call the endpoints (lower-case, no trailing slash). */
  allowedOrigins: readonly string[];
  /** 'development' additionally allows http(s)://localhost and 127.0.0.1 origins with any port. */
  env: 'production' | 'development';
  /** Shared rate-limit store; undefined = embedded in-memory store. */
  redisUrl: string | undefined;
  /** Number of uWS apps in worker threads ('auto' resolves to the core count). */
  workers: number | 'auto';
  /** How many reverse proxies append to X-Forwarded-For; 0 = use the socket address. */
  trustProxy: number;
  rateLimit: number;
  rateWindowS: number;
  /** IPv6 clients share one rate-limit counter per network of this prefix length. */
  rateLimitIpv6Prefix: number;
  logLevel: LogLevel;
  /** Socket adapter: 'node' (default), 'uws', or 'auto' = uWS where its native binary loads, else node:http. */
  transport: 'auto' | 'uws' | 'node';
  /**
   * The connection limits the environment sets (IDLE_TIMEOUT_S, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT); one left
   * unset is undefined, and connection-limits.ts resolves it for the adapter that serves.
   */
  connections: Partial<ConnectionLimits>;
  /** Where GET /metrics is served; undefined = not served at all (never on the public port). */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Worker threads that answer heavy POSTs (large bodies, decodes) off the event loop; 0 = all on the event loop. */
  offloadThreads: number;
  /** The MCP App (plan view resource, `_meta.ui` on both tools); false gives the plain MCP surface (tools only, docs/http-api.md). */
  mcpApps: boolean;
  /** The MCP prompts (plan_workshop, revise_plan) and the templates resource; false gives the plain MCP surface (tools only). */
  mcpPrompts: boolean;
  /** SIGUSR1 opens Node's inspector on 127.0.0.1:9229 (Node's default); false (the default) ignores it. */
  inspectorSignal: boolean;
  /**
   * While the shared rate-limit store cannot count: 'closed' answers POSTs 503; 'local' counts them in this process's
   * memory with the same limit (so the effective limit is multiplied by the number of instances).
   */
  rateLimitStoreFailure: 'closed' | 'local';
  /** After a stop signal: seconds of answering on (readiness 503, every answer closing its connection) before stopping. */
  shutdownDelayS: number;
}

/** A bad environment value; the message is one line naming the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const integer = (min: number, max: number, what: string) =>
  z.string().regex(/^\d+$/, what).transform(Number).pipe(z.number().int().min(min, what).max(max, what));

const hostSchema = z
  .string()
  .refine((h) => isIP(h) !== 0 || /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(h), 'must be an IP address or a host name');

const publicBaseUrlSchema = z
  .string()
  .refine((s) => URL.canParse(s), 'must be an absolute http(s) URL')
  .transform((s) => new URL(s))
  .refine((u) => u.protocol === 'https:' || u.protocol === 'http:', 'must be an absolute http(s) URL')
  .refine((u) => u.hash === '' && u.search === '' && u.username === '' && u.password === '', 'must not contain a query, fragment or credentials')
  .transform((u) => (u.href.endsWith('/') ? u.href : `${u.href}/`));

/** One origin exactly as browsers send it: scheme://host[:port], nothing else. */
const originSchema = z.string().refine((s) => {
  if (!URL.canParse(s)) return false;
  const u = new URL(s);
  return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === s.toLowerCase().replace(/\/$/, '');
}, 'must be a comma-separated list of origins like https://sessionplan.de');

const originListSchema = z
  .string()
  .transform((s) => s.split(',').map((o) => o.trim()).filter((o) => o !== ''))
  .pipe(z.array(originSchema))
  .transform((list) => list.map((o) => o.toLowerCase().replace(/\/$/, '')));

const redisUrlSchema = z.string().superRefine((url, ctx) => {
  try {
    parseRedisUrl(url);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof RedisUrlError ? error.message : `must be ${REDIS_URL_FORMS}` });
  }
});

const workersSchema = z.union([z.literal('auto'), integer(1, 256, 'must be "auto" or an integer from 1 to 256')], {
  error: 'must be "auto" or an integer from 1 to 256',
});

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Each variable: its schema and the default used when it is unset or empty. */
const variables = {
  PORT: { schema: integer(0, 65535, 'must be an integer from 0 to 65535'), fallback: '8080', secret: false },
  HOST: { schema: hostSchema, fallback: '127.0.0.1', secret: false },
  PUBLIC_BASE_URL: { schema: publicBaseUrlSchema, fallback: 'https://sessionplan.de/', secret: false },
  ALLOWED_ORIGINS: { schema: originListSchema, fallback: 'https://sessionplan.de', secret: false },
  SP_ENV: { schema: z.enum(['production', 'development'], { error: 'must be "production" or "development"' }), fallback: 'production', secret: false },
  REDIS_URL: { schema: redisUrlSchema, fallback: undefined, secret: true },
  WORKERS: { schema: workersSchema, fallback: '1', secret: false },
  TRUST_PROXY: { schema: integer(0, 32, 'must be an integer from 0 to 32 (the number of trusted proxies)'), fallback: '0', secret: false },
  RATE_LIMIT: { schema: integer(1, 1_000_000_000, 'must be an integer from 1 to 1000000000'), fallback: '60', secret: false },
  RATE_WINDOW_S: { schema: integer(1, 86_400, 'must be an integer from 1 to 86400 (seconds)'), fallback: '60', secret: false },
  RATE_LIMIT_IPV6_PREFIX: { schema: integer(16, 128, 'must be an integer from 16 to 128 (an IPv6 prefix length)'), fallback: '64', secret: false },
  LOG_LEVEL: { schema: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }), fallback: 'info', secret: false },
  // node:http by default: the uWS builds that load here leave some valid requests unanswered (docs/deployment.md).
  TRANSPORT: { schema: z.enum(['auto', 'uws', 'node'], { error: 'must be "auto", "uws" or "node"' }), fallback: 'node', secret: false },
  IDLE_TIMEOUT_S: { schema: integer(1, 3600, 'must be an integer from 1 to 3600 (seconds)'), fallback: undefined, secret: false },
  METRICS_PORT: { schema: integer(0, 65535, 'must be an integer from 0 to 65535'), fallback: undefined, secret: false },
  METRICS_HOST: { schema: hostSchema, fallback: '127.0.0.1', secret: false },
  OFFLOAD_THREADS: { schema: integer(0, 64, 'must be an integer from 0 to 64 (0 = answer everything on the event loop)'), fallback: '1', secret: false },
  MAX_CONNECTIONS: { schema: integer(0, 1_000_000, 'must be an integer from 0 to 1000000 (0 = no cap)'), fallback: undefined, secret: false },
  MAX_CONNECTIONS_PER_CLIENT: { schema: integer(0, 1_000_000, 'must be an integer from 0 to 1000000 (0 = no cap)'), fallback: undefined, secret: false },
  MCP_APPS: { schema: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).transform((value) => value === 'on'), fallback: 'on', secret: false },
  MCP_PROMPTS: { schema: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).transform((value) => value === 'on'), fallback: 'on', secret: false },
  RATE_LIMIT_STORE_FAILURE: { schema: z.enum(['closed', 'local'], { error: 'must be "closed" or "local"' }), fallback: 'closed', secret: false },
  SHUTDOWN_DELAY_S: { schema: integer(0, 600, 'must be an integer from 0 to 600 (seconds)'), fallback: '0', secret: false },
  INSPECTOR_SIGNAL: { schema: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).transform((value) => value === 'on'), fallback: 'off', secret: false },
} as const;

type Variables = typeof variables;
type Parsed = { [K in keyof Variables]: z.output<Variables[K]['schema']> | (Variables[K]['fallback'] extends undefined ? undefined : never) };

/** The settings given, without keys for those left unset. */
function withoutUnset(limits: { [K in keyof ConnectionLimits]: number | undefined }): Partial<ConnectionLimits> {
  const given: { -readonly [K in keyof ConnectionLimits]?: number } = {};
  for (const key of Object.keys(limits) as (keyof ConnectionLimits)[]) if (limits[key] !== undefined) given[key] = limits[key];
  return given;
}

/**
 * Reads and validates the environment. Throws ConfigError with one line naming every bad variable
 * (secret values such as REDIS_URL are never echoed).
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): ServerConfig {
  const problems: string[] = [];
  const parsed: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(variables) as [keyof Variables, Variables[keyof Variables]][]) {
    const raw = env[name];
    const value = raw === undefined || raw.trim() === '' ? spec.fallback : raw.trim();
    if (value === undefined) {
      parsed[name] = undefined;
      continue;
    }
    const result = (spec.schema as z.ZodType).safeParse(value);
    if (result.success) parsed[name] = result.data;
    else {
      const reason = result.error.issues[0]?.message ?? 'is invalid';
      problems.push(spec.secret ? `${name} ${reason}` : `${name} ${reason} (got ${JSON.stringify(value)})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}.`);
  const p = parsed as Parsed;
  return {
    port: p.PORT,
    host: p.HOST,
    publicBaseUrl: p.PUBLIC_BASE_URL,
    allowedOrigins: p.ALLOWED_ORIGINS,
    env: p.SP_ENV,
    redisUrl: p.REDIS_URL,
    workers: p.WORKERS,
    trustProxy: p.TRUST_PROXY,
    rateLimit: p.RATE_LIMIT,
    rateWindowS: p.RATE_WINDOW_S,
    rateLimitIpv6Prefix: p.RATE_LIMIT_IPV6_PREFIX,
    logLevel: p.LOG_LEVEL,
    transport: p.TRANSPORT,
    connections: withoutUnset({ idleTimeoutS: p.IDLE_TIMEOUT_S, maxConnections: p.MAX_CONNECTIONS, maxConnectionsPerClient: p.MAX_CONNECTIONS_PER_CLIENT }),
    metricsPort: p.METRICS_PORT,
    metricsHost: p.METRICS_HOST,
    offloadThreads: p.OFFLOAD_THREADS,
    mcpApps: p.MCP_APPS,
    mcpPrompts: p.MCP_PROMPTS,
    inspectorSignal: p.INSPECTOR_SIGNAL,
    rateLimitStoreFailure: p.RATE_LIMIT_STORE_FAILURE,
    shutdownDelayS: p.SHUTDOWN_DELAY_S,
  };
}
