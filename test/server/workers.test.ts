// WorkerSupervisor with real worker threads running real uWS servers: start, crash restart, startup failure, SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkerSupervisor, resolveWorkerCount } from '../../src/process/supervisor.js';
import type { SupervisorEvent } from '../../src/process/supervisor.js';
import type { SupervisedWorkerData } from '../fixtures/supervised-worker.js';
import { startTsWorker } from '../support/ts-worker.js';

const WORKER = new URL('../fixtures/supervised-worker.ts', import.meta.url);

function stopLogPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'sp-workers-')), 'stops.log');
}

function stoppedWorkers(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').sort() : [];
}

function supervisor(count: number, payload: (index: number, generation: number) => SupervisedWorkerData, events: SupervisorEvent[]): WorkerSupervisor {
  return new WorkerSupervisor({
    count,
    spawn: (workerData, transferList) => startTsWorker(WORKER, { workerData, transferList }),
    payload: (index, generation) => ({ data: { ...payload(index, generation) } }),
    onEvent: (event) => events.push(event),
  });
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WorkerSupervisor', () => {
  it('resolves WORKERS=auto to the available cores', () => {
    expect(resolveWorkerCount('auto')).toBe(availableParallelism());
    expect(resolveWorkerCount(3)).toBe(3);
  });

  it('starts every worker, and stop() lets each one drain and exit with code 0', async () => {
    const log = stopLogPath();
    const events: SupervisorEvent[] = [];
    const workers = supervisor(2, () => ({ stopLog: log, drainMs: 100 }), events);
    await workers.start();
    expect(events.filter((e) => e.type === 'listening').map((e) => e.index).sort()).toEqual([0, 1]);
    await workers.stop();
    expect(stoppedWorkers(log)).toEqual(['stopped 0', 'stopped 1']);
    expect(events.filter((e) => e.type === 'exited')).toEqual([
      expect.objectContaining({ code: 0 }),
      expect.objectContaining({ code: 0 }),
    ]);
  });

  it('restarts a worker that crashes after it started listening', async () => {
    const log = stopLogPath();
    const events: SupervisorEvent[] = [];
    // Only the first generation of worker 0 crashes; its replacement stays up.
    const workers = supervisor(2, (index, generation) => ({ stopLog: log, ...(index === 0 && generation === 0 ? { crashAfterMs: 200 } : {}) }), events);
    await workers.start();
    await waitFor(() => events.some((e) => e.type === 'listening' && e.index === 0 && e.generation === 1), 'the restarted worker');
    const crash = events.find((e) => e.type === 'crashed');
    expect(crash).toMatchObject({ type: 'crashed', index: 0, generation: 0, reason: 'fixture crash', restartInMs: 100 });
    expect(workers.restarts).toBe(1);
    // The crashed generation closed its uWS server before its thread ended (else the whole process would abort).
    expect(stoppedWorkers(log)).toEqual(['stopped 0']);
    await workers.stop();
    expect(stoppedWorkers(log)).toEqual(['stopped 0', 'stopped 0', 'stopped 1']);
  });

  it('rejects start() with the reason when a worker cannot start, and stops the others', async () => {
    const log = stopLogPath();
    const events: SupervisorEvent[] = [];
    const workers = supervisor(2, (index) => ({ stopLog: log, ...(index === 1 ? { failStartup: 'port 8080 is already in use' } : {}) }), events);
    await expect(workers.start()).rejects.toThrow('Worker 1 could not start: port 8080 is already in use.');
    expect(events.some((e) => e.type === 'crashed')).toBe(false);
    await waitFor(() => events.filter((e) => e.type === 'exited').length === 2, 'both workers to exit');
    expect(stoppedWorkers(log)).toEqual(['stopped 0']);
  });

  it('stops gracefully on SIGTERM: workers drain, the process exits 0 without process.exit', async () => {
    const log = stopLogPath();
    const main = fileURLToPath(new URL('../fixtures/supervised-main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', main, log], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await waitFor(() => stdout.includes('ready') || child.exitCode !== null, 'the child to start');
    expect(stdout, stderr).toContain('ready');
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(stdout).toContain('stopped');
    expect(stoppedWorkers(log)).toEqual(['stopped 0', 'stopped 1']);
  });
});
