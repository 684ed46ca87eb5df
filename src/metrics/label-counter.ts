// A Prometheus counter for a small, fixed label space whose increments cost one addition.
import type { Metric, Registry } from 'prom-client';

// Why not prom-client's Counter: even a bound child hashes and validates its label object on every increment, about
// 1 % of the CPU of a small tools/call (two increments per request: the request and the tool call). This one keeps a
// series per label set, bound once, like duration-histogram.ts, and produces the same values as prom-client's Counter
// when the registry asks (get()), so /metrics text, getMetricsAsJSON and the worker aggregation ('sum') are unchanged.

type Labels = Readonly<Record<string, string>>;

interface Series {
  readonly labels: Labels;
  value: number;
  /** In the export order: prom-client lists series in the order of their first increment (since the last reset). */
  listed: boolean;
}

export interface BoundCount {
  inc(): void;
}

export class LabelCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();
  #exportOrder: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    registers: readonly Registry[],
  ) {
    // The registry reads a metric through get() and reset() only (duck-typed in prom-client's Registry).
    for (const registry of registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of one label set; callers keep the handle (the label space is small and fixed). */
  bind(labels: Labels): BoundCount {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: { ...labels }, value: 0, listed: false };
      this.#series.set(key, series);
    }
    const target = series;
    const list = (): void => {
      this.#exportOrder.push(target);
      target.listed = true;
    };
    return {
      inc() {
        if (!target.listed) list();
        target.value += 1;
      },
    };
  }

  /** Series counted so far, in prom-client's counter export shape. */
  async get(): Promise<{ help: string; name: string; type: 'counter'; values: { value: number; labels: Record<string, string> }[]; aggregator: 'sum' }> {
    const values = this.#exportOrder.map(({ value, labels }) => ({ value, labels: { ...labels } }));
    return { help: this.help, name: this.name, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.#exportOrder) {
      series.value = 0;
      series.listed = false;
    }
    this.#exportOrder = [];
  }
}
