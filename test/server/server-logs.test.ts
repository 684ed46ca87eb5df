// Logs cannot stop the service: stdout on a pipe nobody reads or on a full disk, and health checks that would flood the log.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { counterValue } from '../support/attacks.js';
import { ROOT, startMainProcess } from '../support/main-process.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `count` GETs of `path`, `parallel` at a time, each on a fresh connection: their statuses. */
async function gets(port: number, path: string, count: number, parallel = 20): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - i) }, () =>
      fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 0,
      ),
    );
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('the log destination', () => {
  it('a stdout pipe nobody reads: 3,000 requests are answered and SIGTERM still stops it in time', { timeout: 60_000 }, async () => {
    const server = await startMainProcess({ LOG_LEVEL: 'info' }, { built: true, stallStdout: true });
    // ~600 KB of access-log lines: many times what the pipe holds.
    const statuses = await gets(server.port, '/schema/session.json', 3_000);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const t0 = performance.now();
    expect(await server.stop(15_000)).toEqual({ code: 0, signal: null });
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('stdout on a full disk: the server keeps answering and counts every line it could not write', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [`${ROOT}dist/process/main.js`], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' },
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let up = false;
      for (let i = 0; i < 100 && !up; i++) {
        up = (await gets(port, '/mcp', 1))[0] === 200;
        if (!up) await sleep(200);
      }
      expect(up).toBe(true);
      const statuses = await gets(port, '/schema/session.json', 500);
      expect(statuses.every((s) => s === 200)).toBe(true);
      await sleep(1_200); // the periodic hand-over of the last batch
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(counterValue(metrics, 'sessionplan_log_lines_dropped_total')).toBeGreaterThanOrEqual(500);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });

  it('200 health checks within a few seconds are logged as one line per path and status, with the count they stand for', { timeout: 60_000 }, async () => {
    const server = await startMainProcess({ LOG_LEVEL: 'info' }, { built: true });
    try {
      expect((await gets(server.port, '/mcp', 200)).every((s) => s === 200)).toBe(true);
      await sleep(1_200);
      const health = server.stdout().split('\n').filter((line) => line.includes('"msg":"request"') && line.includes('"path":"/mcp"'));
      expect(health.length).toBeLessThanOrEqual(2);
      expect(JSON.parse(health[0]!)).toMatchObject({ method: 'GET', status: 200, sampled: 1 });
    } finally {
      await server.stop();
    }
  });
});
