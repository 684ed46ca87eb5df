// Configuration from the environment (the README's table): defaults, every variable's validation, one clear line per failure.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { connectionLimits, unhonouredSetting } from '../../src/server/connection-limits.js';
import { createNodeHttpTransport } from '../../src/transport/node-http.js';
import { UWS_HONOURS } from '../../src/transport/uws.js';

/** The two adapters as the limits see them (the uWS binary need not load for that). */
const NODE = { name: 'node', version: 'node:http', honours: createNodeHttpTransport().honours } as const;
const UWS = { name: 'uws', version: 'uWebSockets.js 20.30', honours: UWS_HONOURS } as const;
import { MemoryRateLimitStore } from '../../src/rate-limit/memory.js';
import { createRateLimiter } from '../../src/rate-limit/limiter.js';
import type { RateLimitStore } from '../../src/rate-limit/store.js';
import { RateLimitStoreError } from '../../src/rate-limit/store-error.js';

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
  it('has embedded defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'https://sessionplan.de/',
      allowedOrigins: ['https://sessionplan.de'],
      env: 'production',
      redisUrl: undefined,
      workers: 1,
      trustProxy: 0,
      rateLimit: 60,
      rateWindowS: 60,
      rateLimitIpv6Prefix: 64,
      logLevel: 'info',
      transport: 'node',
      connections: {},
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      offloadThreads: 1,
      mcpApps: true,
      mcpPrompts: true,
      inspectorSignal: false,
      rateLimitStoreFailure: 'closed',
      shutdownDelayS: 0,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '::1',
      PUBLIC_BASE_URL: 'https://plans.example.org/app',
      ALLOWED_ORIGINS: 'https://sessionplan.de, https://Planner.Example.org/',
      SP_ENV: 'development',
      REDIS_URL: 'redis://127.0.0.1:6390/0',
      WORKERS: 'auto',
      TRUST_PROXY: '2',
      RATE_LIMIT: '100',
      RATE_WINDOW_S: '30',
      RATE_LIMIT_IPV6_PREFIX: '56',
      LOG_LEVEL: 'warn',
      TRANSPORT: 'uws',
      IDLE_TIMEOUT_S: '5',
      MAX_CONNECTIONS: '500',
      MAX_CONNECTIONS_PER_CLIENT: '25',
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      OFFLOAD_THREADS: '2',
      MCP_APPS: 'off',
      MCP_PROMPTS: 'off',
      INSPECTOR_SIGNAL: 'on',
      RATE_LIMIT_STORE_FAILURE: 'local',
      SHUTDOWN_DELAY_S: '5',
    });
    expect(config).toEqual({
      port: 0,
      host: '::1',
      publicBaseUrl: 'https://plans.example.org/app/',
      allowedOrigins: ['https://sessionplan.de', 'https://planner.example.org'],
      env: 'development',
      redisUrl: 'redis://127.0.0.1:6390/0',
      workers: 'auto',
      trustProxy: 2,
      rateLimit: 100,
      rateWindowS: 30,
      rateLimitIpv6Prefix: 56,
      logLevel: 'warn',
      transport: 'uws',
      connections: { idleTimeoutS: 5, maxConnections: 500, maxConnectionsPerClient: 25 },
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
      offloadThreads: 2,
      mcpApps: false,
      mcpPrompts: false,
      inspectorSignal: true,
      rateLimitStoreFailure: 'local',
      shutdownDelayS: 5,
    });
  });

  it('node:http: gives each client a fiftieth of MAX_CONNECTIONS (at least 10), and no share behind a proxy or without a cap', () => {
    const limits = (env: Record<string, string>) => connectionLimits(loadConfig(env), NODE);
    expect(limits({})).toEqual({ idleTimeoutS: 10, maxConnections: 10_000, maxConnectionsPerClient: 200 });
    expect(limits({ MAX_CONNECTIONS: '100' }).maxConnectionsPerClient).toBe(10);
    expect(limits({ MAX_CONNECTIONS: '5000' }).maxConnectionsPerClient).toBe(100);
    expect(limits({ MAX_CONNECTIONS: '0' }).maxConnectionsPerClient).toBe(0);
    expect(limits({ TRUST_PROXY: '1' }).maxConnectionsPerClient).toBe(0);
    expect(limits({ TRUST_PROXY: '1', MAX_CONNECTIONS_PER_CLIENT: '50' }).maxConnectionsPerClient).toBe(50);
    expect(limits({ IDLE_TIMEOUT_S: '3' }).idleTimeoutS).toBe(3);
  });

  it('uWS: runs with its fixed idle timeout and no caps when they are unset, and refuses a setting it cannot apply', () => {
    expect(connectionLimits(loadConfig({ TRANSPORT: 'uws' }), UWS)).toEqual({ idleTimeoutS: 10, maxConnections: 0, maxConnectionsPerClient: 0 });
    expect(connectionLimits(loadConfig({ TRANSPORT: 'uws', IDLE_TIMEOUT_S: '10', MAX_CONNECTIONS: '0' }), UWS).maxConnections).toBe(0);
    for (const [variable, value] of [['IDLE_TIMEOUT_S', '5'], ['MAX_CONNECTIONS', '500'], ['MAX_CONNECTIONS_PER_CLIENT', '25']] as const) {
      const config = loadConfig({ TRANSPORT: 'uws', [variable]: value });
      expect(() => connectionLimits(config, UWS)).toThrow(ConfigError);
      expect(() => connectionLimits(config, UWS)).toThrow(new RegExp(`^Invalid configuration: ${variable}=${value} cannot be applied by TRANSPORT=uws \\(uWebSockets\\.js 20\\.30\\), which applies only ${variable}=\\d+: unset it, or use TRANSPORT=node\\.$`));
      expect(unhonouredSetting(config, NODE)).toBeUndefined();
    }
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '  ' }).port).toBe(8080);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ TRANSPORT: 'express' }, 'TRANSPORT'],
    [{ IDLE_TIMEOUT_S: '0' }, 'IDLE_TIMEOUT_S'],
    [{ MAX_CONNECTIONS: '-5' }, 'MAX_CONNECTIONS'],
    [{ MAX_CONNECTIONS_PER_CLIENT: 'ten' }, 'MAX_CONNECTIONS_PER_CLIENT'],
    [{ OFFLOAD_THREADS: '65' }, 'OFFLOAD_THREADS'],
    [{ RATE_LIMIT_IPV6_PREFIX: '129' }, 'RATE_LIMIT_IPV6_PREFIX'],
    [{ PORT: '65536' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ HOST: 'not a host' }, 'HOST'],
    [{ PUBLIC_BASE_URL: 'sessionplan.de' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'ftp://sessionplan.de/' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'https://sessionplan.de/#x' }, 'PUBLIC_BASE_URL'],
    [{ ALLOWED_ORIGINS: 'https://sessionplan.de/app' }, 'ALLOWED_ORIGINS'],
    [{ ALLOWED_ORIGINS: '*' }, 'ALLOWED_ORIGINS'],
    [{ SP_ENV: 'dev' }, 'SP_ENV'],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
    [{ WORKERS: '0' }, 'WORKERS'],
    [{ WORKERS: 'many' }, 'WORKERS'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ RATE_LIMIT: '0' }, 'RATE_LIMIT'],
    [{ RATE_WINDOW_S: '1m' }, 'RATE_WINDOW_S'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ MCP_APPS: 'true' }, 'MCP_APPS'],
    [{ INSPECTOR_SIGNAL: 'yes' }, 'INSPECTOR_SIGNAL'],
    [{ RATE_LIMIT_STORE_FAILURE: 'open' }, 'RATE_LIMIT_STORE_FAILURE'],
    [{ SHUTDOWN_DELAY_S: '-1' }, 'SHUTDOWN_DELAY_S'],
  ])('refuses %j with one line naming %s', (env, name) => {
    const message = failure(env);
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toContain('\n');
  });

  it('names every bad variable in the same line and never echoes a REDIS_URL (it may hold a password)', () => {
    const message = failure({ PORT: 'x', REDIS_URL: 'http://:secret@host' });
    expect(message).toContain('PORT');
    expect(message).toContain('REDIS_URL');
    expect(message).not.toContain('secret');
    expect(message).not.toContain('\n');
  });
});

describe('rate limiter (embedded store)', () => {
  it('counts a fixed window per key and starts a new one when it expires', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const limiter = createRateLimiter(store, { limit: 3, windowS: 60 });
    const kinds = async (n: number, ip = '192.0.2.1') => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await limiter.check('mcp', ip)).kind);
      return out;
    };
    expect(await kinds(4)).toEqual(['allowed', 'allowed', 'allowed', 'limited']);
    expect(await kinds(1, '192.0.2.2')).toEqual(['allowed']); // per IP
    expect((await limiter.check('rest_create', '192.0.2.1')).kind).toBe('allowed'); // per endpoint
    expect(await limiter.check('mcp', '192.0.2.1')).toEqual({ kind: 'limited', retryAfterS: 60 });
    now = 59_999;
    expect((await limiter.check('mcp', '192.0.2.1')).kind).toBe('limited');
    now = 60_000;
    expect(await kinds(3)).toEqual(['allowed', 'allowed', 'allowed']);
    now = 200_000;
    await limiter.check('mcp', '192.0.2.9'); // sweeps the expired windows
    expect(store.size).toBe(1);
  });

  it('reports a failing store as unavailable instead of letting requests through', async () => {
    const unreachable: RateLimitStore = {
      hit: () => Promise.reject(new RateLimitStoreError('unavailable', 'Rate-limit store is unreachable.')),
      health: () => ({ kind: 'redis', state: 'unreachable' }),
    };
    expect(await createRateLimiter(unreachable, { limit: 60, windowS: 60 }).check('mcp', '192.0.2.1')).toEqual({ kind: 'unavailable' });
  });

  it('treats a store that never answers as unavailable after its timeout', async () => {
    const hanging: RateLimitStore = { hit: () => new Promise(() => {}), health: () => ({ kind: 'redis', state: 'up' }) };
    const started = performance.now();
    expect(await createRateLimiter(hanging, { limit: 60, windowS: 60, storeTimeoutMs: 50 }).check('mcp', '192.0.2.1')).toEqual({ kind: 'unavailable' });
    expect(performance.now() - started).toBeLessThan(5_000); // generous: it must not wait for the store
  });
});
