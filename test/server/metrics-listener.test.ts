// /metrics is a deployment decision: off the public port, served only on METRICS_PORT (its own listener).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenMetrics } from '../../src/metrics/listener.js';
import { expectSecurityHeaders, post, send, startTestServer } from '../support/http.js';
import type { TestServer } from '../support/http.js';

describe('METRICS_PORT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
  });
  afterAll(() => server.close());

  it('serves Prometheus text on its own port, and nothing of it on the public one', async () => {
    expect(server.metricsPort).toBeGreaterThan(0);
    expect(server.metricsPort).not.toBe(server.port);
    await post(server.port, '/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' });
    const scrape = await send(server.metricsPort!, { path: '/metrics' });
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain/);
    expect(scrape.text).toMatch(/^sessionplan_http_requests_total\{route="mcp",method="POST",status="200"\} 1$/m);
    expectSecurityHeaders(scrape.headers, 'metrics');
    const publicPort = await send(server.port, { path: '/metrics' });
    expect(publicPort.status).toBe(404);
    expect(publicPort.text).not.toMatch(/nodejs|process_|resident/);
  });

  it('answers only GET and HEAD /metrics', async () => {
    expect((await send(server.metricsPort!, { path: '/mcp' })).status).toBe(404);
    const wrong = await post(server.metricsPort!, '/metrics', {});
    expect([wrong.status, wrong.headers['allow']]).toEqual([405, 'GET, HEAD']);
    const head = await send(server.metricsPort!, { method: 'HEAD', path: '/metrics' });
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it('is not started without METRICS_PORT', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.metricsPort).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('answers 503, not 500, when the registries cannot be gathered (a busy worker)', async () => {
    const listener = await listenMetrics({ host: '127.0.0.1', port: 0, render: () => Promise.reject(new Error('workers did not answer')) });
    try {
      const reply = await send(listener.port, { path: '/metrics' });
      expect([reply.status, reply.json()]).toEqual([503, { error: 'Metrics are temporarily unavailable' }]);
    } finally {
      await listener.close();
    }
  });
});
