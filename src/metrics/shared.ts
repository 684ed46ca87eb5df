// Metrics in worker mode: the main thread sums every worker's prom-client registry for its metrics listener.
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { AggregatorRegistry } from 'prom-client';
import type { MetricObjectWithValues, MetricValue, Registry } from 'prom-client';

type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Main → worker. */
type HubMessage = { type: 'collect'; id: number };
/** Worker → main. */
type WorkerMessage = { type: 'collected'; id: number; metrics: WorkerMetrics };

export interface RenderedMetrics {
  contentType: string;
  body: string;
}

/** A worker that does not hand over its registry by then is left out of this scrape (it is stuck or restarting). */
const COLLECT_TIMEOUT_MS = 1000;

/**
 * Main-thread side. `own` holds what only the main thread knows: process-wide default metrics (RSS, CPU — counted
 * once here instead of once per worker, which the sum would multiply) and the worker restart counter.
 */
export class MetricsHub {
  readonly #own: Registry;
  readonly #ports = new Set<MessagePort>();
  readonly #waiting = new Map<number, (metrics: WorkerMetrics) => void>();
  #nextId = 0;

  constructor(own: Registry) {
    this.#own = own;
  }

  /** A new port for one worker; transfer it in `workerData` + `transferList`. */
  connect(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.#ports.add(port1);
    port1.on('message', (message: WorkerMessage) => {
      if (message?.type === 'collected') this.#waiting.get(message.id)?.(message.metrics);
    });
    port1.on('close', () => this.#ports.delete(port1));
    port1.unref(); // must not keep the process alive once the workers are gone
    return port2;
  }

  /** The Prometheus text of the whole process: every worker's registry and the main thread's, summed per series. */
  async render(): Promise<RenderedMetrics> {
    const parts = await Promise.all([...this.#ports].map((port) => this.#collect(port)));
    const gathered = [await this.#own.getMetricsAsJSON(), ...parts.filter((p): p is WorkerMetrics => p !== undefined)];
    const sum = AggregatorRegistry.aggregate(gathered as Parameters<typeof AggregatorRegistry.aggregate>[0]);
    return { contentType: sum.contentType, body: await sum.metrics() };
  }

  close(): void {
    for (const port of this.#ports) port.close();
    this.#ports.clear();
  }

  #collect(port: MessagePort): Promise<WorkerMetrics | undefined> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), COLLECT_TIMEOUT_MS);
      const finish = (metrics: WorkerMetrics | undefined): void => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(metrics);
      };
      this.#waiting.set(id, finish);
      port.postMessage({ type: 'collect', id } satisfies HubMessage);
    });
  }
}

/** Worker side: hands this worker's registry to the hub whenever the main thread gathers a scrape. */
export function connectWorkerMetrics(port: MessagePort, registry: Registry): void {
  port.on('message', (message: HubMessage) => {
    if (message?.type !== 'collect') return;
    void registry.getMetricsAsJSON().then((metrics) => port.postMessage({ type: 'collected', id: message.id, metrics } satisfies WorkerMessage));
  });
  port.unref(); // an idle metrics port must not keep the worker alive after its server stopped
}
