// The reception budget on its own: bytes counted as they arrive, server-wide and per client, and crawling uploads cut.
import { describe, expect, it } from 'vitest';
import { Reception } from '../../src/http/reception.js';

describe('Reception', () => {
  it('takes bytes as they arrive, up to the client\'s share and the server\'s cap, and gives them back once', () => {
    const reception = new Reception({ maxBytes: 1_000, maxClientBytes: 600 });
    const a = reception.open('a', () => {});
    const b = reception.open('b', () => {});
    expect(a.take(500)).toBeUndefined();
    expect(a.take(200)).toBe('client');
    expect(reception.receivingFor('a')).toBe(500);
    expect(b.take(500)).toBeUndefined();
    expect(b.take(100)).toBe('server');
    a.end();
    a.end();
    expect(reception.receiving).toBe(500);
    expect(reception.receivingFor('a')).toBe(0);
    expect(b.take(100)).toBeUndefined();
    b.end();
    expect(reception.receiving).toBe(0);
  });

  it('cuts an upload that stays under the minimum rate once its grace has passed, and only that one', async () => {
    const reception = new Reception({ minBytesPerS: 1_000, graceMs: 200 });
    const cut: string[] = [];
    const slow = reception.open('slow', () => cut.push('slow'));
    const fast = reception.open('fast', () => cut.push('fast'));
    slow.take(10);
    const feed = setInterval(() => fast.take(200), 100);
    await new Promise((r) => setTimeout(r, 1_300));
    clearInterval(feed);
    expect(cut).toEqual(['slow']);
    expect(reception.receivingFor('slow')).toBe(0);
    fast.end();
  });
});
