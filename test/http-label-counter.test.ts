// LabelCounter must export exactly what prom-client's Counter exports for the same increments.
import fc from 'fast-check';
import { AggregatorRegistry, Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelCounter } from '../src/metrics/label-counter.js';

const LABEL_SETS = [
  { route: 'mcp', method: 'POST', status: '200' },
  { route: 'mcp', method: 'GET', status: '405' },
  { route: 'rest_create', method: 'POST', status: '422' },
];

function pair(): { ours: Registry; theirs: Registry; inc(set: number): void } {
  const ours = new Registry();
  const theirs = new Registry();
  const mine = new LabelCounter('x_requests_total', 'Requests.', [ours]);
  const reference = new Counter({ name: 'x_requests_total', help: 'Requests.', labelNames: ['route', 'method', 'status'], registers: [theirs] });
  const bound = LABEL_SETS.map((labels) => mine.bind(labels));
  const referenceBound = LABEL_SETS.map((labels) => reference.labels(labels));
  return {
    ours,
    theirs,
    inc(set) {
      bound[set]!.inc();
      referenceBound[set]!.inc();
    },
  };
}

describe('LabelCounter', () => {
  it('renders the same /metrics text and JSON as prom-client for any increments, resets between them included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.nat({ max: LABEL_SETS.length - 1 }), fc.constant('reset' as const)), { maxLength: 60 }), async (steps) => {
        const { ours, theirs, inc } = pair();
        for (const step of steps) {
          if (step === 'reset') {
            ours.resetMetrics();
            theirs.resetMetrics();
          } else inc(step);
        }
        expect(await ours.metrics()).toBe(await theirs.metrics());
        expect(JSON.stringify(await ours.getMetricsAsJSON())).toBe(JSON.stringify(await theirs.getMetricsAsJSON()));
      }),
      { numRuns: 300 },
    );
  });

  it('counts each label set on its own and sums like prom-client across worker registries', async () => {
    const a = pair();
    const b = pair();
    a.inc(0);
    a.inc(0);
    a.inc(2);
    b.inc(0);
    b.inc(1);
    const sumOf = async (side: 'ours' | 'theirs') =>
      AggregatorRegistry.aggregate((await Promise.all([a[side].getMetricsAsJSON(), b[side].getMetricsAsJSON()])) as never).metrics();
    expect(await sumOf('ours')).toBe(await sumOf('theirs'));
    expect(await sumOf('ours')).toMatch(/^x_requests_total\{route="mcp",method="POST",status="200"\} 3$/m);
    expect(await sumOf('ours')).toMatch(/^x_requests_total\{route="rest_create",method="POST",status="422"\} 1$/m);
  });
});
