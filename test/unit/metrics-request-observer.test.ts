// The access log: the line built per request is byte for byte what pino writes for the same record.
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../src/http/ports.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { accessLogFields, accessLogLine, createHttpObserver } from '../../src/metrics/request-observer.js';

const TIME = 1_796_378_000_123;

/** What pino writes for the record, at a fixed time, through a plain logger or a worker's child logger. */
function pinoLine(record: RequestRecord, worker?: number): string {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) };
  const base = pino({ level: 'info', base: undefined, timestamp: () => `,"time":${TIME}` }, stream);
  (worker === undefined ? base : base.child({ worker })).info(accessLogFields(record), 'request');
  return lines.join('');
}

const record = (overrides: Partial<RequestRecord> = {}): RequestRecord => ({
  requestId: 17,
  method: 'POST',
  path: '/mcp',
  route: 'mcp',
  status: 200,
  bytesIn: 3598,
  bytesOut: 5506,
  durationMs: 0.123456,
  aborted: false,
  ...overrides,
});

describe('the access-log line', () => {
  it('is what pino writes, for plain and worker loggers, aborted requests and long or odd paths', () => {
    const records = [
      record(),
      record({ status: 0, bytesOut: 0, aborted: true, durationMs: 1500.5 }),
      record({ method: 'GET', path: '/"quoted"\\path\u0000\u2028ü😀', status: 404 }),
      record({ path: `/${'x'.repeat(300)}`, durationMs: 0 }),
      record({ path: `/${'😀'.repeat(150)}` }),
    ];
    for (const r of records) {
      expect(accessLogLine(r, TIME)).toBe(pinoLine(r));
      expect(accessLogLine(r, TIME, ',"worker":3')).toBe(pinoLine(r, 3));
    }
  });

  it('is what pino writes for any record (fast-check)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 260 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 599 }), fc.nat(), fc.nat(), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.boolean(), (method, path, status, bytesIn, bytesOut, durationMs, aborted) => {
        const r = record({ method, path, status, bytesIn, bytesOut, durationMs, aborted });
        expect(accessLogLine(r, TIME)).toBe(pinoLine(r));
      }),
      { numRuns: 1_000 },
    );
  });

  it('goes to the destination when one is given, through the logger otherwise, and not at all below info', () => {
    const written: string[] = [];
    const observed = createHttpObserver(createMetrics({ defaultMetrics: false }), pino({ level: 'info', base: undefined }), { write: (line) => written.push(line), bindings: '' });
    observed.requestCompleted(record());
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 30, method: 'POST', path: '/mcp', status: 200, msg: 'request' });

    const viaLogger: string[] = [];
    createHttpObserver(createMetrics({ defaultMetrics: false }), pino({ level: 'info', base: undefined }, { write: (line: string) => viaLogger.push(line) })).requestCompleted(record());
    expect(viaLogger).toHaveLength(1);

    const quiet: string[] = [];
    createHttpObserver(createMetrics({ defaultMetrics: false }), pino({ level: 'warn' }), { write: (line) => quiet.push(line), bindings: '' }).requestCompleted(record());
    expect(quiet).toHaveLength(0);
  });
});
