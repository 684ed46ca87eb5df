// REDIS_URL's forms: one Redis, a primary found through Sentinel, or a Redis Cluster, as the options ioredis takes.

/** A host and port of a Redis server or Sentinel. */
export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** What REDIS_URL names, read once at start-up. */
export type RedisTarget =
  /** One Redis: `redis://`, `rediss://` (handed to ioredis as it is), or a unix socket. */
  | { readonly kind: 'single'; readonly url: string }
  | { readonly kind: 'socket'; readonly path: string; readonly db: number | undefined }
  /** The primary of `name`, asked of the Sentinels, followed through failovers. */
  | {
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisNode[];
      readonly name: string;
      readonly db: number | undefined;
      readonly username: string | undefined;
      readonly password: string | undefined;
      readonly sentinelPassword: string | undefined;
      readonly tls: boolean;
    }
  /** A Redis Cluster, found from any of its nodes. */
  | { readonly kind: 'cluster'; readonly nodes: readonly RedisNode[]; readonly username: string | undefined; readonly password: string | undefined; readonly tls: boolean };

/** A REDIS_URL that cannot be read; the message never holds the URL (it may carry a password). */
export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
}

const SCHEMES = ['redis:', 'rediss:', 'unix:', 'redis+sentinel:', 'rediss+sentinel:', 'redis+cluster:', 'rediss+cluster:'];
export const REDIS_URL_FORMS =
  'a redis://, rediss://, unix://, redis+sentinel://host:port[,host:port…]/<master>[/<db>] or redis+cluster://host:port[,host:port…] URL';

const DB = /^(?:0|[1-9]\d{0,3})$/;

/** `host:port,host:port…` (IPv6 hosts in brackets), every part checked. */
function nodesOf(list: string): RedisNode[] {
  if (list === '') throw new RedisUrlError('names no host');
  return list.split(',').map((part) => {
    const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+)(?::(\d{1,5}))?$/.exec(part);
    const port = Number(match?.[2] ?? 0);
    if (match === null || match[2] === undefined || port < 1 || port > 65535) throw new RedisUrlError('must list host:port pairs separated by commas');
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

const decoded = (value: string): string | undefined => (value === '' ? undefined : decodeURIComponent(value));

/** Reads REDIS_URL; throws RedisUrlError with a reason (never the URL itself). */
export function parseRedisUrl(url: string): RedisTarget {
  const scheme = /^[a-z+]+:/i.exec(url)?.[0].toLowerCase();
  if (scheme === undefined || !SCHEMES.includes(scheme)) throw new RedisUrlError(`must be ${REDIS_URL_FORMS}`);
  if (scheme === 'redis:' || scheme === 'rediss:') {
    if (!URL.canParse(url)) throw new RedisUrlError(`must be ${REDIS_URL_FORMS}`);
    return { kind: 'single', url };
  }
  if (scheme === 'unix:') {
    if (!URL.canParse(url)) throw new RedisUrlError(`must be ${REDIS_URL_FORMS}`);
    // ioredis reads `unix:` URLs as a host named "unix", so the socket's path and database are taken apart here.
    const parsed = new URL(url);
    const db = parsed.searchParams.get('db');
    if (db !== null && !DB.test(db)) throw new RedisUrlError('has a db that is not a number');
    return { kind: 'socket', path: decodeURIComponent(parsed.pathname), db: db === null ? undefined : Number(db) };
  }
  // redis+sentinel://[user:pass@]h:p[,h:p…]/<master>[/<db>][?sentinelPassword=…] and redis+cluster://[user:pass@]h:p[,h:p…]:
  // WHATWG URLs hold one host, so the authority is read by hand.
  const rest = url.slice(scheme.length + 2);
  if (!url.slice(scheme.length).startsWith('//')) throw new RedisUrlError(`must be ${REDIS_URL_FORMS}`);
  const [beforeQuery = '', query = ''] = rest.split('?', 2) as [string, string?];
  const slash = beforeQuery.indexOf('/');
  const authority = slash < 0 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = slash < 0 ? '' : beforeQuery.slice(slash + 1);
  const at = authority.lastIndexOf('@');
  const credentials = at < 0 ? '' : authority.slice(0, at);
  const colon = credentials.indexOf(':');
  const username = decoded(colon < 0 ? credentials : credentials.slice(0, colon));
  const password = colon < 0 ? undefined : decoded(credentials.slice(colon + 1));
  const nodes = nodesOf(at < 0 ? authority : authority.slice(at + 1));
  const params = new URLSearchParams(query);
  const tls = scheme.startsWith('rediss');
  if (scheme.endsWith('+cluster:')) {
    if (path !== '') throw new RedisUrlError('of a cluster takes no path (a cluster has only database 0)');
    return { kind: 'cluster', nodes, username, password, tls };
  }
  const [name = '', db, ...more] = path.split('/');
  if (name === '' || more.length > 0) throw new RedisUrlError('of Sentinel must name the primary: redis+sentinel://host:port[,host:port…]/<master>[/<db>]');
  if (db !== undefined && !DB.test(db)) throw new RedisUrlError('has a db that is not a number');
  return {
    kind: 'sentinel',
    sentinels: nodes,
    name: decodeURIComponent(name),
    db: db === undefined ? undefined : Number(db),
    username,
    password,
    sentinelPassword: params.get('sentinelPassword') ?? undefined,
    tls,
  };
}
