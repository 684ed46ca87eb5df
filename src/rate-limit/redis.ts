// Fixed-window rate-limit store in Redis, shared by every instance: one atomic Lua call per hit, fails closed and fast.
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { RateLimitStore, RateLimitStoreHealth } from './store.js';
import { RateLimitStoreError } from './store-error.js';

/**
 * INCR, PEXPIRE only when the key was just created (so the window is fixed, not sliding), then PTTL — atomically,
 * on Redis' clock, so instance clocks never matter. A key that somehow lost its expiry (PTTL -1) is healed instead
 * of counting forever. ARGV[2] is the time on Redis' clock after which the caller no longer waits for the answer (it
 * has answered 503): a hit that Redis runs later, after a stall, is not counted, and the reply says so with -1.
 */
const FIXED_WINDOW_HIT_LUA = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[2]) then return {-1, 0} end
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
  /**
   * Called for every failure: of the connection, and of each hit that could not be counted. `kind` is coarse enough to
   * log once per kind (an error code or a reply's error word such as `READONLY`), and never holds an address or a key.
   */
  onFailure?: (kind: string) => void;
}

/** What a failure is called in logs: a reply's error word (READONLY, OOM, …), a connection error's code, or a class. */
export function failureKind(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  if (error.name === 'ReplyError') return /^([A-Z]+)\b/.exec(error.message)?.[1] ?? 'ReplyError';
  if (/timed out/i.test(error.message)) return 'timeout';
  return (error as NodeJS.ErrnoException).code ?? error.name;
}

/** A deadline so far ahead that Redis never refuses the hit: before the clocks are compared. */
const NO_DEADLINE = Number.MAX_SAFE_INTEGER;
/** This process's clock in ms, monotonic (a wall-clock step must not move deadlines). */
const nowMs = (): number => performance.timeOrigin + performance.now();

type HitReply = [count: unknown, ttlMs: unknown];
type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number, deadlineMs: number): Promise<HitReply> };

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
  readonly #commandTimeoutMs: number;
  /** Redis' clock minus this process's, measured each time the connection becomes ready; undefined before. */
  #clockOffsetMs: number | undefined;
  readonly #onFailure: (kind: string) => void;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 250;
    this.#onFailure = options.onFailure ?? (() => {});
    const clientOptions = redisClientOptions(this.#commandTimeoutMs);
    const target = connectionTarget(options.url);
    const redis = 'url' in target ? new Redis(target.url, clientOptions) : new Redis({ ...clientOptions, ...target });
    redis.defineCommand('rateLimitHit', { lua: FIXED_WINDOW_HIT_LUA, numberOfKeys: 1 });
    // An EventEmitter without an 'error' listener would crash the process on the first refused connection.
    redis.on('error', (error: Error) => this.#onFailure(failureKind(error)));
    redis.on('ready', () => {
      this.#lastHitFailed = false;
      void this.#measureClock();
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

  /** Redis' clock against ours, from one TIME round trip (half of it is the error; well under the command timeout). */
  async #measureClock(): Promise<void> {
    try {
      const before = nowMs();
      const [seconds, micros] = await this.#redis.time();
      const after = nowMs();
      this.#clockOffsetMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (before + after) / 2;
    } catch {
      // The next ready measures again; until then hits carry no deadline.
    }
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    // The caller stops waiting after the command timeout: a hit Redis runs later (it was stalled) must not count.
    const deadline = this.#clockOffsetMs === undefined ? NO_DEADLINE : Math.ceil(nowMs() + this.#clockOffsetMs + this.#commandTimeoutMs);
    let reply: HitReply;
    try {
      reply = await this.#redis.rateLimitHit(this.#keyPrefix + key, windowMs, deadline);
    } catch (error) {
      this.#lastHitFailed = true;
      const kind = failureKind(error);
      this.#onFailure(kind);
      throw new RateLimitStoreError(
        kind === 'timeout' ? 'timeout' : 'unavailable',
        kind === 'timeout' ? 'Rate-limit store (Redis) did not answer in time.' : 'Rate-limit store (Redis) is unreachable.',
        { cause: error },
      );
    }
    const [count, ttlMs] = reply;
    if (count === -1) {
      this.#lastHitFailed = true;
      this.#onFailure('timeout');
      throw new RateLimitStoreError('timeout', 'Rate-limit store (Redis) did not answer in time.');
    }
    if (typeof count !== 'number' || typeof ttlMs !== 'number') {
      this.#lastHitFailed = true;
      this.#onFailure('bad-reply');
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
