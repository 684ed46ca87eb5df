// The metrics listener (METRICS_PORT): GET /metrics on its own address, never on the public port (docs/deployment.md).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RenderMetrics } from '../http/ports.js';

export interface MetricsListener {
  readonly port: number;
  close(): Promise<void>;
}

const SECURITY = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function answer(res: ServerResponse, status: number, type: string, body: string, head: boolean): void {
  res.writeHead(status, { ...SECURITY, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

/**
 * A small node:http server for Prometheus: one path, read-only, no body ever read. With WORKERS>1 the main thread runs
 * it and sums every worker's registry, so one scrape shows the whole process.
 */
export function listenMetrics(options: { host: string; port: number; render: RenderMetrics }): Promise<MetricsListener> {
  const server = createServer({ keepAliveTimeout: 10_000, headersTimeout: 10_000, requestTimeout: 10_000 }, (req: IncomingMessage, res: ServerResponse) => {
    const head = req.method === 'HEAD';
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'application/json; charset=utf-8', '{"error":"Not found"}', head);
    if (req.method !== 'GET' && !head) {
      res.setHeader('allow', 'GET, HEAD');
      return answer(res, 405, 'application/json; charset=utf-8', '{"error":"Method not allowed"}', false);
    }
    options.render().then(
      ({ contentType, body }) => answer(res, 200, contentType, body, head),
      // With workers the registries are gathered over message ports; a busy worker is a passing state, not a fault.
      () => answer(res, 503, 'application/json; charset=utf-8', '{"error":"Metrics are temporarily unavailable"}', head),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', () => reject(new Error(`Cannot listen for metrics on ${options.host}:${options.port} (address in use or not available).`)));
    server.listen({ host: options.host, port: options.port }, () => {
      server.removeAllListeners('error');
      resolve({
        port: (server.address() as { port: number }).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
