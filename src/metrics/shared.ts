// /metrics in worker mode: the main thread sums every worker's prom-client registry, so any worker serves the whole process.
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { AggregatorRegistry } from 'prom-client';
import type { MetricObjectWithValues, MetricValue, Registry } from 'prom-client';

type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Main → worker. */
type HubMessage = { type: 'collect'; id: number } | { type: 'rendered'; id: number; contentType: string; body: string } | { type: 'render-failed'; id: number };
/** Worker → main. */
type WorkerMessage = { type: 'collected'; id: number; metrics: WorkerMetrics } | { type: 'render'; id: number };

export interface RenderedMetrics {
  contentType: string;
  body: string;
}

/** A worker that does not hand over its registry by then is left out of this scrape (it is stuck or restarting). */
const COLLECT_TIMEOUT_MS = 1000;
/** A worker waits this long for the main thread's sum before failing the scrape. */
const RENDER_TIMEOUT_MS = 3000;

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
      else if (message?.type === 'render') void this.#answerRender(port1, message.id);
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

  async #answerRender(port: MessagePort, id: number): Promise<void> {
    try {
      const { contentType, body } = await this.render();
      port.postMessage({ type: 'rendered', id, contentType, body } satisfies HubMessage);
    } catch {
      port.postMessage({ type: 'render-failed', id } satisfies HubMessage);
    }
  }
}

/**
 * Worker side: hands this worker's registry to the hub when asked, and returns the `render()` its /metrics route uses
 * (the whole process, summed by the main thread). Rejects when the main thread does not answer in time.
 */
export function connectWorkerMetrics(port: MessagePort, registry: Registry): () => Promise<RenderedMetrics> {
  const pending = new Map<number, { resolve(r: RenderedMetrics): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  port.on('message', (message: HubMessage) => {
    if (message?.type === 'collect') {
      void registry.getMetricsAsJSON().then((metrics) => port.postMessage({ type: 'collected', id: message.id, metrics } satisfies WorkerMessage));
      return;
    }
    const waiting = pending.get(message?.id);
    if (waiting === undefined) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.type === 'rendered') waiting.resolve({ contentType: message.contentType, body: message.body });
    else waiting.reject(new Error('The main thread could not gather the metrics.'));
  });
  port.unref(); // an idle metrics port must not keep the worker alive after its server stopped
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('The main thread did not answer the metrics request in time.'));
      }, RENDER_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      port.postMessage({ type: 'render', id } satisfies WorkerMessage);
    });
}
