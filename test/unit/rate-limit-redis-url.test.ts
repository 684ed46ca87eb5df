// REDIS_URL's forms read into what ioredis takes: one Redis, Sentinel (with the primary's name), a cluster; bad ones named.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { parseRedisUrl } from '../../src/rate-limit/redis-url.js';

describe('REDIS_URL', () => {
  it('reads one Redis, a unix socket, Sentinel and a cluster', () => {
    expect(parseRedisUrl('redis://:pw@10.0.0.5:6379/2')).toEqual({ kind: 'single', url: 'redis://:pw@10.0.0.5:6379/2' });
    expect(parseRedisUrl('unix:///run/redis.sock?db=3')).toEqual({ kind: 'socket', path: '/run/redis.sock', db: 3 });
    expect(parseRedisUrl('redis+sentinel://app:p%40ss@10.0.0.1:26379,[fd00::2]:26380,s3.example:26381/mymaster/1?sentinelPassword=s%21')).toEqual({
      kind: 'sentinel',
      sentinels: [{ host: '10.0.0.1', port: 26379 }, { host: 'fd00::2', port: 26380 }, { host: 's3.example', port: 26381 }],
      name: 'mymaster',
      db: 1,
      username: 'app',
      password: 'p@ss',
      sentinelPassword: 's!',
      tls: false,
    });
    expect(parseRedisUrl('rediss+sentinel://h:26379/primary')).toMatchObject({ kind: 'sentinel', name: 'primary', db: undefined, tls: true, password: undefined });
    expect(parseRedisUrl('redis+cluster://:pw@a:7000,b:7001')).toEqual({ kind: 'cluster', nodes: [{ host: 'a', port: 7000 }, { host: 'b', port: 7001 }], username: undefined, password: 'pw', tls: false });
    expect(parseRedisUrl('rediss+cluster://a:7000')).toMatchObject({ kind: 'cluster', tls: true });
  });

  it.each([
    ['http://127.0.0.1:6379', /^REDIS_URL must be a redis:\/\//],
    ['redis+sentinel://:secret@h:26379', /^REDIS_URL of Sentinel must name the primary/],
    ['redis+sentinel://h:26379/m/x', /^REDIS_URL has a db that is not a number/],
    ['redis+sentinel://h/m', /^REDIS_URL must list host:port pairs/],
    ['redis+sentinel://h:99999/m', /^REDIS_URL must list host:port pairs/],
    ['redis+cluster://a:7000/1', /^REDIS_URL of a cluster takes no path/],
    ['redis+cluster://', /^REDIS_URL names no host/],
  ])('stops start-up on %s with one line naming REDIS_URL, never its text', (url, reason) => {
    let message = '';
    try {
      loadConfig({ REDIS_URL: url });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.replace(/^Invalid configuration: /, '')).toMatch(reason);
    expect(message).not.toContain('secret');
    expect(message).not.toContain('\n');
  });
});
