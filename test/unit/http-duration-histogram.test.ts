// DurationHistogram must export exactly what prom-client's Histogram exports for the same observations, and its count
// counter what a prom-client Counter incremented with every observation exports.
import fc from 'fast-check';
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DurationHistogram } from '../../src/metrics/duration-histogram.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const LABEL_SETS = [
  { route: 'mcp', method: 'POST', status: '200' },
  { route: 'mcp', method: 'GET', status: '405' },
  { route: 'rest_create', method: 'POST', status: '422' },
];
/** Durations around and on the bucket bounds, tiny and huge ones included. */
const SECONDS = fc.oneof(fc.constantFrom(0, ...BUCKETS, 7, 1e-9), fc.double({ min: 0, max: 10, noNaN: true }));

/** Ours (a histogram with its count counter) and prom-client's (a Counter registered first, then a Histogram). */
function pair(): { ours: Registry; theirs: Registry; observe(set: number, seconds: number): void } {
  const ours = new Registry();
  const theirs = new Registry();
  const mine = new DurationHistogram('x_duration_seconds', 'Durations.', BUCKETS, [ours], { name: 'x_requests_total', help: 'Requests.' });
  const referenceCount = new Counter({ name: 'x_requests_total', help: 'Requests.', labelNames: ['route', 'method', 'status'], registers: [theirs] });
  const reference = new Histogram({ name: 'x_duration_seconds', help: 'Durations.', labelNames: ['route', 'method', 'status'], buckets: BUCKETS, registers: [theirs] });
  const bound = LABEL_SETS.map((labels) => mine.bind(labels));
  const referenceBound = LABEL_SETS.map((labels) => referenceCount.labels(labels));
  return {
    ours,
    theirs,
    observe(set, seconds) {
      bound[set]!.observe(seconds);
      referenceBound[set]!.inc();
      reference.observe(LABEL_SETS[set]!, seconds);
    },
  };
}

describe('DurationHistogram', () => {
  it('renders the same /metrics text and JSON as prom-client for any observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat({ max: LABEL_SETS.length - 1 }), SECONDS), { maxLength: 60 }), async (observations) => {
        const { ours, theirs, observe } = pair();
        for (const [set, seconds] of observations) observe(set, seconds);
        expect(await ours.metrics()).toBe(await theirs.metrics());
        expect(JSON.stringify(await ours.getMetricsAsJSON())).toBe(JSON.stringify(await theirs.getMetricsAsJSON()));
      }),
      { numRuns: 300 },
    );
  });

  it('renders the same text and JSON as prom-client when resets come between the observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.tuple(fc.nat({ max: LABEL_SETS.length - 1 }), SECONDS), fc.constant('reset' as const)), { maxLength: 60 }), async (steps) => {
        const { ours, theirs, observe } = pair();
        for (const step of steps) {
          if (step === 'reset') {
            ours.resetMetrics();
            theirs.resetMetrics();
          } else observe(...step);
        }
        expect(await ours.metrics()).toBe(await theirs.metrics());
        expect(JSON.stringify(await ours.getMetricsAsJSON())).toBe(JSON.stringify(await theirs.getMetricsAsJSON()));
      }),
      { numRuns: 300 },
    );
  });

  it('sums like prom-client across worker registries and clears on reset', async () => {
    const a = pair();
    const b = pair();
    a.observe(0, 0.0004);
    a.observe(1, 0.3);
    b.observe(0, 0.002);
    b.observe(2, 9);
    const sumOf = async (side: 'ours' | 'theirs') =>
      AggregatorRegistry.aggregate((await Promise.all([a[side].getMetricsAsJSON(), b[side].getMetricsAsJSON()])) as never).metrics();
    expect(await sumOf('ours')).toBe(await sumOf('theirs'));
    expect(await sumOf('ours')).toMatch(/^x_duration_seconds_count\{route="mcp",method="POST",status="200"\} 2$/m);
    expect(await sumOf('ours')).toMatch(/^x_requests_total\{route="mcp",method="POST",status="200"\} 2$/m);
    expect(await sumOf('ours')).toMatch(/^x_requests_total\{route="rest_create",method="POST",status="422"\} 1$/m);
    a.ours.resetMetrics();
    a.theirs.resetMetrics();
    expect(await a.ours.metrics()).toBe(await a.theirs.metrics());
  });

  it('refuses a duration that is not a finite number, like prom-client', () => {
    const registry = new Registry();
    const bound = new DurationHistogram('y_seconds', 'Y.', BUCKETS, [registry]).bind({ route: 'mcp' });
    expect(() => bound.observe(Number.NaN)).toThrow(TypeError);
  });
});
