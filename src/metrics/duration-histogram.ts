// A Prometheus duration histogram for a small, fixed label space whose observations cost a few array writes.
import type { Metric, Registry } from 'prom-client';

// Why not prom-client's Histogram: even a bound child validates and hashes its label object on every observation,
// a visible share of a small tools/call's CPU (two observations per request), and so does its Counter (the counter
// beside each histogram is now derived from it). This one keeps a series per label set, bound once,
// and produces the same values as prom-client's Histogram (and Counter) when the registry asks (get()), so /metrics
// text, getMetricsAsJSON and the worker aggregation (aggregator 'sum') are unchanged.

type Labels = Readonly<Record<string, string>>;

interface Series {
  readonly labels: Labels;
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
  /** In the export order: prom-client lists series in the order of their first observation (since the last reset). */
  listed: boolean;
}

export interface BoundDuration {
  observe(seconds: number): void;
}

/** A counter of the observations per label set, shown under its own name: the `_count` of each series. */
export interface ObservationCount {
  readonly name: string;
  readonly help: string;
}

interface ExportedValue {
  value: number;
  metricName: string;
  exemplar?: null;
  labels: Record<string, string | number>;
}

export class DurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();
  #exportOrder: Series[] = [];

  /**
   * `count`: also register a counter of the observations (e.g. requests_total beside request_duration_seconds). It is
   * derived from the series, not counted again, and lists them in the same order, as prom-client's Counter would had
   * it been incremented with every observation; it is registered first, where such a counter stood.
   */
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
    registers: readonly Registry[],
    count?: ObservationCount,
  ) {
    // The registry reads a metric through get() and reset() only (duck-typed in prom-client's Registry).
    const counter = count === undefined ? undefined : this.#counter(count);
    for (const registry of registers) {
      if (counter !== undefined) registry.registerMetric(counter as unknown as Metric);
      registry.registerMetric(this as unknown as Metric);
    }
  }

  /** The counter view in prom-client's Counter export shape; its reset is the histogram's (same registries). */
  #counter({ name, help }: ObservationCount) {
    return {
      name,
      help,
      type: 'counter' as const,
      aggregator: 'sum' as const,
      get: async () => ({
        help,
        name,
        type: 'counter' as const,
        values: this.#exportOrder.map(({ count, labels }) => ({ value: count, labels: { ...labels } })),
        aggregator: 'sum' as const,
      }),
      reset: () => {},
    };
  }

  /** The series of one label set; callers keep the handle (the label space is small and fixed). */
  bind(labels: Labels): BoundDuration {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: { ...labels }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0, listed: false };
      this.#series.set(key, series);
    }
    const target = series;
    const bounds = this.buckets;
    const list = (): void => {
      this.#exportOrder.push(target);
      target.listed = true;
    };
    return {
      observe(seconds) {
        if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
        if (!target.listed) list();
        let slot = 0;
        while (slot < bounds.length && seconds > bounds[slot]!) slot++;
        target.counts[slot]!++;
        target.sum += seconds;
        target.count += 1;
      },
    };
  }

  /** Series observed so far, in prom-client's histogram export shape (cumulative buckets, +Inf, sum, count). */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; values: ExportedValue[]; aggregator: 'sum' }> {
    const values: ExportedValue[] = [];
    for (const { labels, counts, sum, count } of this.#exportOrder) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ value: cumulative, metricName: `${this.name}_bucket`, exemplar: null, labels: { le: bound, ...labels } });
      });
      values.push({ value: count, metricName: `${this.name}_bucket`, exemplar: null, labels: { le: '+Inf', ...labels } });
      values.push({ value: sum, metricName: `${this.name}_sum`, labels: { ...labels } });
      values.push({ value: count, metricName: `${this.name}_count`, labels: { ...labels } });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.#exportOrder) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
      series.listed = false;
    }
    this.#exportOrder = [];
  }
}
