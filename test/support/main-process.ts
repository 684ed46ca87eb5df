// Test helper: the real server as its own process (src/process/main.ts under tsx, or the built dist/process/main.js), its RSS and fds.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface MainProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  /** The metrics listener's port (METRICS_PORT set), from the ready line. */
  metricsPort: number | undefined;
  /** Everything written to stdout (JSON log lines) so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started = new Set<ChildProcess>();
// A test that times out never reaches its cleanup: never leave a server behind when the test process ends.
process.once('exit', () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Starts the server with `env` on top of a minimal environment (PORT=0, 127.0.0.1) and resolves with its port once
 * the ready line appears. `built: true` runs dist/process/main.js, as deployed (needs `npm run build`, which `npm test` runs);
 * `stallStdout: true` stops reading its stdout after the ready line; `root`: another checkout's build (benchmarks).
 */
export async function startMainProcess(env: Record<string, string>, options: { built?: boolean; stallStdout?: boolean; root?: string } = {}): Promise<MainProcess> {
  if (env.LOG_LEVEL !== undefined && !['info', 'debug', 'trace'].includes(env.LOG_LEVEL)) {
    throw new Error(`LOG_LEVEL=${env.LOG_LEVEL} hides the ready line this helper waits for; use info or lower.`);
  }
  const root = options.root === undefined ? ROOT : `${options.root.replace(/\/$/, '')}/`;
  const entry = options.built ? `${root}dist/process/main.js` : `${root}src/process/main.ts`;
  if (options.built && !existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does).`);
  const args = options.built ? [entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      started.delete(child);
      resolve({ code, signal });
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s; stdout: ${out.slice(-2000)} stderr: ${err}`)), 60_000);
    const look = (): void => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout!.off('data', look);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', look);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before its ready line; stderr: ${err}`));
    });
  });
  const metricsPort = /, metrics http:\/\/[^:]+:(\d+)\/metrics\)/.exec(out)?.[1];
  // A log shipper that stalled: nobody reads the server's stdout from now on, and the pipe fills.
  if (options.stallStdout === true) {
    child.stdout!.removeAllListeners('data');
    child.stdout!.pause();
  }
  return {
    child,
    pid: child.pid!,
    port,
    metricsPort: metricsPort === undefined ? undefined : Number(metricsPort),
    stdout: () => out,
    stderr: () => err,
    exited,
    stop: async (graceMs = 20_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        const hard = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.kill('SIGTERM');
        const result = await exited;
        clearTimeout(hard);
        return result;
      }
      return exited;
    },
  };
}

/** Resident set size and its high-water mark (VmRSS, VmHWM in /proc/PID/status), in MB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Open file descriptors of the process (sockets included): a leak of connections shows here. */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** JSON log lines of the process (non-JSON lines skipped). */
export function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const CLOCK_TICKS_PER_S = 100;
/** CPU milliseconds (user + system, all threads) the process has used so far, from /proc/PID/stat (10 ms ticks). */
export function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}
