// Fixed-window rate-limit store in Redis, shared by every instance: one atomic Lua call per hit, fails closed and fast.
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { RateLimitStore, RateLimitStoreHealth } from './store.js';
import { RateLimitStoreError } from './store-error.js';

/**
 * INCR, PEXPIRE only when the key was just created (so the window is fixed, not sliding), then PTTL — atomically,
 * on Redis' clock, so instance clocks never matter. A key that somehow lost its expiry (PTTL -1) is healed instead
 * of counting forever.
 */
const FIXED_WINDOW_HIT_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

export interface RedisRateLimitStoreOptions {
  /** `redis://[user:pass@]host:port[/db]`, `rediss://…`, or `unix:///path/redis.sock[?db=N]` (REDIS_URL forms of config.ts). */
  url: string;
  /** Prepended to every key so the limiter can share a Redis with other data (default `sp:` → `sp:rl:mcp:203.0.113.7`). */
  keyPrefix?: string;
  /** A hung Redis turns into an error after this long; well under the 1 s budget for a 503. */
  commandTimeoutMs?: number;
  /** Called for connection errors (they also surface as failed hits); default: ignored, never an unhandled 'error'. */
  onConnectionError?: (error: Error) => void;
}

type HitReply = [count: unknown, ttlMs: unknown];
type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<HitReply> };

/** Reconnect quickly but not in a tight loop: 50 ms, 100 ms, … capped at 500 ms, forever (recovery must be automatic). */
function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 50, 500);
}

export function redisClientOptions(commandTimeoutMs: number): RedisOptions {
  return {
    // Without Redis we must answer 503 now, not queue requests until it returns.
    enableOfflineQueue: false,
    // In-flight commands on a dropped connection fail at once; resending them could count a hit twice.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 500,
    retryStrategy: reconnectDelayMs,
    enableReadyCheck: true,
    connectionName: 'sessionplan-rate-limit',
    disableClientInfo: true,
  };
}

/** ioredis reads `unix:` URLs as a host named "unix", so socket URLs become a `path` option here. */
function connectionTarget(url: string): { url: string } | { path: string; db?: number } {
  if (!url.toLowerCase().startsWith('unix:')) return { url };
  const parsed = new URL(url);
  const db = parsed.searchParams.get('db');
  return db === null ? { path: decodeURIComponent(parsed.pathname) } : { path: decodeURIComponent(parsed.pathname), db: Number(db) };
}

const REDIS_UP: RateLimitStoreHealth = Object.freeze({ kind: 'redis', state: 'up' });
const REDIS_UNREACHABLE: RateLimitStoreHealth = Object.freeze({ kind: 'redis', state: 'unreachable' });

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: RedisWithHit;
  readonly #keyPrefix: string;
  /**
   * The last hit failed (refused, timed out, odd reply) and none has succeeded since: a Redis that keeps the
   * connection open but stopped answering (hung, out of memory) is as unreachable for POSTs as a refused one.
   */
  #lastHitFailed = false;

  constructor(options: RedisRateLimitStoreOptions) {
    const clientOptions = redisClientOptions(options.commandTimeoutMs ?? 250);
    const target = connectionTarget(options.url);
    const redis = 'url' in target ? new Redis(target.url, clientOptions) : new Redis({ ...clientOptions, ...target });
    redis.defineCommand('rateLimitHit', { lua: FIXED_WINDOW_HIT_LUA, numberOfKeys: 1 });
    // An EventEmitter without an 'error' listener would crash the process on the first refused connection.
    const onError = options.onConnectionError;
    redis.on('error', (error: Error) => onError?.(error));
    redis.on('ready', () => {
      this.#lastHitFailed = false;
    });
    this.#redis = redis as RedisWithHit;
    this.#keyPrefix = options.keyPrefix ?? 'sp:';
  }

  /** True while commands can be sent; for the health endpoint and a gauge. */
  get connected(): boolean {
    return this.#redis.status === 'ready';
  }

  /** Up while connected and the last hit (if any since the connection became ready) was counted. */
  health(): RateLimitStoreHealth {
    return this.connected && !this.#lastHitFailed ? REDIS_UP : REDIS_UNREACHABLE;
  }

  /** Resolves once connected, rejects after `timeoutMs`; startup may use it to refuse a wrong REDIS_URL early. */
  async ready(timeoutMs: number): Promise<void> {
    if (this.#redis.status === 'ready') return;
    const redis = this.#redis;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(new RateLimitStoreError('unavailable', `Redis did not become ready within ${timeoutMs} ms.`));
      }, timeoutMs);
      function onReady(): void {
        clearTimeout(timer);
        resolve();
      }
      redis.once('ready', onReady);
    });
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    let reply: HitReply;
    try {
      reply = await this.#redis.rateLimitHit(this.#keyPrefix + key, windowMs);
    } catch (error) {
      this.#lastHitFailed = true;
      const timedOut = error instanceof Error && /timed out/i.test(error.message);
      throw new RateLimitStoreError(
        timedOut ? 'timeout' : 'unavailable',
        timedOut ? 'Rate-limit store (Redis) did not answer in time.' : 'Rate-limit store (Redis) is unreachable.',
        { cause: error },
      );
    }
    const [count, ttlMs] = reply;
    if (typeof count !== 'number' || typeof ttlMs !== 'number') {
      this.#lastHitFailed = true;
      throw new RateLimitStoreError('bad-reply', 'Rate-limit store (Redis) sent an unexpected reply.');
    }
    this.#lastHitFailed = false;
    return { count, resetMs: ttlMs };
  }

  /** Closes the connection; pending hits fail with a store error rather than hanging. */
  async close(): Promise<void> {
    try {
      await this.#redis.quit();
    } catch {
      this.#redis.disconnect();
    }
  }
}
