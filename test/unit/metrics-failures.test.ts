// Failures the server survives are seen: every accept error is counted and each kind logged once per interval; an
// unexpected error is logged with its stack, route and request number, and counted per route.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { oncePerInterval } from '../../src/logging/throttle.js';
import { acceptErrorReporter, unexpectedReporter } from '../../src/metrics/failures.js';
import { createMetrics } from '../../src/metrics/metrics.js';

const capture = (): { lines: Record<string, unknown>[]; logger: pino.Logger } => {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }) };
};
const counter = async (text: Promise<{ body: string }>, series: string): Promise<number> => Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\d+)$`, 'm').exec((await text).body)?.[1] ?? 0);

describe('oncePerInterval', () => {
  it('says yes once per kind per interval', () => {
    let now = 0;
    const mayLog = oncePerInterval(60_000, () => now);
    expect([mayLog('EMFILE'), mayLog('EMFILE'), mayLog('ENFILE')]).toEqual([true, false, true]);
    now = 59_999;
    expect(mayLog('EMFILE')).toBe(false);
    now = 60_000;
    expect(mayLog('EMFILE')).toBe(true);
  });
});

describe('the reporters', () => {
  it('count every accept error by its code (others as "other") and log each code once', async () => {
    const { lines, logger } = capture();
    const metrics = createMetrics({ defaultMetrics: false });
    const report = acceptErrorReporter(logger, metrics);
    for (const code of ['EMFILE', 'EMFILE', 'EMFILE', 'ENFILE', 'EWHATEVER']) report(code);
    expect(lines.map((line) => line.code)).toEqual(['EMFILE', 'ENFILE', 'EWHATEVER']);
    expect(await counter(metrics.render(), 'sessionplan_accept_errors_total{code="EMFILE"}')).toBe(3);
    expect(await counter(metrics.render(), 'sessionplan_accept_errors_total{code="other"}')).toBe(1);
  });

  it('log an unexpected error with its stack and its cause, the route and the request number, and count it', async () => {
    const { lines, logger } = capture();
    const metrics = createMetrics({ defaultMetrics: false });
    unexpectedReporter(logger, metrics)(new Error('outer', { cause: new TypeError('inner') }), { route: 'rest_create', requestId: 42 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, route: 'rest_create', requestId: 42 });
    expect((lines[0]!.err as { stack: string }).stack).toMatch(/^Error: outer\n\s+at [\s\S]*caused by: TypeError: inner\n\s+at /);
    expect(await counter(metrics.render(), 'sessionplan_unexpected_errors_total{route="rest_create"}')).toBe(1);
  });
});
