// WORKERS=2 as a real process (uWS adapter here; node:http workers in runtime-smoke.test.ts): exact limits, /metrics, SIGTERM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, send, startTestServer } from '../support/http.js';
import { logLines, startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

function ping(port: number, ip: string) {
  return post(port, '/mcp', PING, { 'x-forwarded-for': ip }).then((r) => ({
    status: r.status,
    code: r.status === 200 ? undefined : (r.json() as { error?: { code?: number } }).error?.code,
    retryAfter: r.headers['retry-after'],
  }));
}

/** The value of one exact series line in Prometheus text, or undefined. */
function series(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('WORKERS=2 (one process, two uWS apps on one port)', () => {
  let server: MainProcess;
  beforeAll(async () => {
    server = await startMainProcess({ WORKERS: '2', TRANSPORT: 'uws', TRUST_PROXY: '1', LOG_LEVEL: 'info', METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('allows exactly 60 POSTs from one client over many connections, then refuses the 61st and every later one', async () => {
    const ip = '198.51.100.61';
    const first = await Promise.all(Array.from({ length: 60 }, () => ping(server.port, ip)));
    expect(first.map((r) => r.status)).toEqual(Array(60).fill(200));
    const later = await Promise.all(Array.from({ length: 30 }, () => ping(server.port, ip)));
    expect(later.every((r) => r.status === 429 && r.code === -32000 && r.retryAfter === '60')).toBe(true);
    // Another client is counted on its own.
    expect((await ping(server.port, '198.51.100.62')).status).toBe(200);
  });

  it('serves METRICS_PORT for the whole process: both workers summed, process figures once', async () => {
    const text = (await send(server.metricsPort!, { path: '/metrics' })).text;
    expect(series(text, 'sessionplan_http_requests_total{route="mcp",method="POST",status="200"}')).toBe(61);
    expect(series(text, 'sessionplan_http_requests_total{route="mcp",method="POST",status="429"}')).toBe(30);
    expect(series(text, 'sessionplan_rate_limit_refusals_total{route="mcp",reason="limited"}')).toBe(30);
    expect(series(text, 'sessionplan_worker_restarts_total')).toBe(0);
    // A gauge of state, not a count: the lowest of the workers' values (1 each), not their sum.
    expect(series(text, 'sessionplan_rate_limit_store_up{store="memory"}')).toBe(1);
    expect(text.split('\n').filter((l) => l.startsWith('sessionplan_process_resident_memory_bytes ')).length).toBe(1);
  });

  it('spread the connections over both workers, and stops on SIGTERM with exit 0 and no stderr', async () => {
    const { code, signal } = await server.stop();
    expect({ code, signal, stderr: server.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });
    const lines = logLines(server.stdout());
    const posts = lines.filter((l) => l.msg === 'request' && l.method === 'POST');
    expect(posts).toHaveLength(91);
    const byWorker = [0, 1].map((w) => posts.filter((l) => l.worker === w).length);
    expect(byWorker.every((n) => n > 0), `requests per worker: ${byWorker.join('/')}`).toBe(true);
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});

describe('WORKERS=2 startup', () => {
  it('refuses a busy port with one line and exit 1 (SO_REUSEPORT would otherwise share it silently)', async () => {
    const busy = await startTestServer();
    try {
      const failed = startMainProcess({ WORKERS: '2', TRANSPORT: 'uws', PORT: String(busy.port) });
      await expect(failed).rejects.toThrow(/exited with 1/);
      await expect(failed).rejects.toThrow(`Cannot listen on 127.0.0.1:${busy.port} (address in use or not available).`);
    } finally {
      await busy.close();
    }
  });
});
