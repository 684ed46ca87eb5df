// Fixed-window rate-limit store in Redis, shared by every instance: one atomic Lua call per hit, fails closed and fast,
// on one Redis, a primary found through Sentinel, or a Redis Cluster (redis-url.ts), and it heals by itself.
import { Cluster, Redis } from 'ioredis';
import type { ClusterOptions, RedisOptions } from 'ioredis';
import { parseRedisUrl, type RedisTarget } from './redis-url.js';
import type { RateLimitStore, RateLimitStoreHealth } from './store.js';
import { RateLimitStoreError } from './store-error.js';

/**
 * INCR, PEXPIRE only when the key was just created (so the window is fixed, not sliding), then PTTL — atomically,
 * on Redis' clock, so instance clocks never matter. A key that somehow lost its expiry (PTTL -1) is healed instead
 * of counting forever. ARGV[2] is the time on Redis' clock after which the caller no longer waits for the answer (it
 * has answered 503): a hit that Redis runs later, after a stall, is not counted, and the reply says so with -1. The
 * script touches one key, so it runs unchanged on a cluster.
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
  /** REDIS_URL in any of its forms (redis-url.ts). */
  url: string;
  /** Prepended to every key so the limiter can share a Redis with other data (default `sp:` → `sp:rl:mcp:203.0.113.7`). */
  keyPrefix?: string;
  /** A hung Redis turns into an error after this long; well under the 1 s budget for a 503. */
  commandTimeoutMs?: number;
  /** How often the store checks Redis by itself, so its health follows recovery without traffic (0: never). */
  checkIntervalMs?: number;
  /**
   * Called for every failure: of the connection, and of each command that could not be counted. `kind` is coarse enough
   * to log once per kind (an error code or a reply's error word such as `READONLY`), and never holds an address or a key.
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

/**
 * Replies that say this connection reaches the wrong server: a primary demoted by Sentinel (READONLY), one whose own
 * primary is gone (MASTERDOWN), one still loading. ioredis reconnects on them, and in Sentinel mode asks for the primary.
 */
const RECONNECT_REPLIES = /^(READONLY|MASTERDOWN|LOADING)\b/;
/**
 * After this many commands in a row that got no answer in time, the connection is dropped and made again: a network
 * partition leaves a socket that looks open, and a new connection is how the client notices the network healed.
 */
const TIMEOUTS_BEFORE_RECONNECT = 3;
/** The store checks Redis this often by itself (TIME: it also keeps the clocks compared). */
const CHECK_INTERVAL_MS = 1000;

type HitReply = [count: unknown, ttlMs: unknown];
type Client = (Redis | Cluster) & { rateLimitHit(key: string, windowMs: number, deadlineMs: number): Promise<HitReply> };

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
    // true = reconnect without resending the command (its hit may have counted already).
    reconnectOnError: (error) => RECONNECT_REPLIES.test(error.message),
  };
}

/** The ioredis client of a REDIS_URL target. */
function clientFor(target: RedisTarget, options: RedisOptions): Redis | Cluster {
  switch (target.kind) {
    case 'single':
      return new Redis(target.url, options);
    case 'socket':
      return new Redis({ ...options, path: target.path, ...(target.db === undefined ? {} : { db: target.db }) });
    case 'sentinel':
      return new Redis({
        ...options,
        sentinels: target.sentinels.map((node) => ({ host: node.host, port: node.port })),
        name: target.name,
        ...(target.db === undefined ? {} : { db: target.db }),
        ...(target.username === undefined ? {} : { username: target.username }),
        ...(target.password === undefined ? {} : { password: target.password }),
        ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
        ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
        // Sentinel says when it switched the primary, and the connection follows at once instead of at its next error.
        failoverDetector: true,
        sentinelRetryStrategy: reconnectDelayMs,
        sentinelCommandTimeout: 500,
      });
    case 'cluster': {
      const clusterOptions: ClusterOptions = {
        enableOfflineQueue: false,
        clusterRetryStrategy: reconnectDelayMs,
        enableReadyCheck: true,
        redisOptions: {
          ...options,
          ...(target.username === undefined ? {} : { username: target.username }),
          ...(target.password === undefined ? {} : { password: target.password }),
          ...(target.tls ? { tls: {} } : {}),
        },
      };
      return new Cluster(target.nodes.map((node) => ({ host: node.host, port: node.port })), clusterOptions);
    }
  }
}

const REDIS_UP: RateLimitStoreHealth = Object.freeze({ kind: 'redis', state: 'up' });
const REDIS_UNREACHABLE: RateLimitStoreHealth = Object.freeze({ kind: 'redis', state: 'unreachable' });

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Client;
  readonly #keyPrefix: string;
  /**
   * The last command (a hit, or the store's own check) failed and none has succeeded since: a Redis that keeps the
   * connection open but stopped answering (hung, out of memory, demoted) is as unreachable for POSTs as a refused one.
   */
  #lastCommandFailed = false;
  #timeoutsInARow = 0;
  readonly #commandTimeoutMs: number;
  /** Redis' clock minus this process's, measured on each check; undefined before the first. */
  #clockOffsetMs: number | undefined;
  readonly #onFailure: (kind: string) => void;
  readonly #check: ReturnType<typeof setInterval> | undefined;
  #checking = false;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 250;
    this.#onFailure = options.onFailure ?? (() => {});
    const redis = clientFor(parseRedisUrl(options.url), redisClientOptions(this.#commandTimeoutMs));
    redis.defineCommand('rateLimitHit', { lua: FIXED_WINDOW_HIT_LUA, numberOfKeys: 1 });
    // An EventEmitter without an 'error' listener would crash the process on the first refused connection.
    redis.on('error', (error: Error) => this.#onFailure(failureKind(error)));
    redis.on('ready', () => {
      this.#lastCommandFailed = false;
      this.#timeoutsInARow = 0;
      void this.#checkNow();
    });
    this.#redis = redis as Client;
    this.#keyPrefix = options.keyPrefix ?? 'sp:';
    const interval = options.checkIntervalMs ?? CHECK_INTERVAL_MS;
    if (interval > 0) {
      this.#check = setInterval(() => void this.#checkNow(), interval);
      this.#check.unref();
    }
  }

  /** True while commands can be sent; for the health endpoint and a gauge. */
  get connected(): boolean {
    return this.#redis.status === 'ready';
  }

  /** Up while connected and the last command since the connection became ready was answered. */
  health(): RateLimitStoreHealth {
    return this.connected && !this.#lastCommandFailed ? REDIS_UP : REDIS_UNREACHABLE;
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

  /**
   * The store's own look at Redis: TIME, which compares the clocks (half its round trip is the error, well under the
   * command timeout) and tells whether Redis answers, with or without traffic.
   */
  async #checkNow(): Promise<void> {
    if (this.#checking || this.#redis.status !== 'ready') return;
    this.#checking = true;
    try {
      const before = nowMs();
      const [seconds, micros] = await this.#redis.time();
      const after = nowMs();
      this.#clockOffsetMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (before + after) / 2;
      this.#answered();
    } catch (error) {
      this.#failed(failureKind(error));
    } finally {
      this.#checking = false;
    }
  }

  #answered(): void {
    this.#lastCommandFailed = false;
    this.#timeoutsInARow = 0;
  }

  #failed(kind: string): void {
    this.#lastCommandFailed = true;
    this.#onFailure(kind);
    if (kind !== 'timeout') return;
    this.#timeoutsInARow += 1;
    if (this.#timeoutsInARow < TIMEOUTS_BEFORE_RECONNECT) return;
    this.#timeoutsInARow = 0;
    this.#redis.disconnect(true);
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    // The caller stops waiting after the command timeout: a hit Redis runs later (it was stalled) must not count.
    const deadline = this.#clockOffsetMs === undefined ? NO_DEADLINE : Math.ceil(nowMs() + this.#clockOffsetMs + this.#commandTimeoutMs);
    let reply: HitReply;
    try {
      reply = await this.#redis.rateLimitHit(this.#keyPrefix + key, windowMs, deadline);
    } catch (error) {
      const kind = failureKind(error);
      this.#failed(kind);
      throw new RateLimitStoreError(
        kind === 'timeout' ? 'timeout' : 'unavailable',
        kind === 'timeout' ? 'Rate-limit store (Redis) did not answer in time.' : 'Rate-limit store (Redis) is unreachable.',
        { cause: error },
      );
    }
    const [count, ttlMs] = reply;
    if (count === -1) {
      // Redis answered, but after the deadline (the clocks drifted apart): not counted, and no reason to reconnect.
      this.#failed('late');
      throw new RateLimitStoreError('timeout', 'Rate-limit store (Redis) did not answer in time.');
    }
    if (typeof count !== 'number' || typeof ttlMs !== 'number') {
      this.#failed('bad-reply');
      throw new RateLimitStoreError('bad-reply', 'Rate-limit store (Redis) sent an unexpected reply.');
    }
    this.#answered();
    return { count, resetMs: ttlMs };
  }

  /** Closes the connection; pending hits fail with a store error rather than hanging. */
  async close(): Promise<void> {
    clearInterval(this.#check);
    try {
      await this.#redis.quit();
    } catch {
      this.#redis.disconnect();
    }
  }
}
