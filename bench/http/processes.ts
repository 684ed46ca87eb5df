// Child processes for the HTTP benchmark: servers pinned to one core, wrk pinned to another, and their parsed output.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuOf } from '../../test/support/main-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LUA = fileURLToPath(new URL('./post.lua', import.meta.url));

/**
 * CPU seconds (user + system, all threads) the process has used so far. On a shared machine wall-clock throughput
 * moves with other people's work; CPU time per request is what the server itself costs.
 */
export const cpuSeconds = (pid: number): number => cpuOf(pid) / 1000;

export interface RunningServer {
  name: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface WrkResult {
  requests: number;
  duration_us: number;
  rps: number;
  connect_errors: number;
  read_errors: number;
  write_errors: number;
  status_errors: number;
  timeouts: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
  mean_us: number;
}

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** `taskset -c N` when the machine has that core and taskset exists; otherwise run unpinned (recorded in the results). */
/** BENCH_NICE=-10 (root only) raises the priority of servers and wrk above other work on a shared machine. */
export function pinning(): { server: string[]; load: string[]; note: string } {
  const cores = Number(spawnSync('nproc', [], { encoding: 'utf8' }).stdout.trim() || '1');
  const nice = process.env.BENCH_NICE ? ['nice', '-n', process.env.BENCH_NICE] : [];
  const niceNote = nice.length ? `, nice ${process.env.BENCH_NICE}` : '';
  if (!has('taskset') || cores < 2) {
    return { server: nice, load: nice, note: `unpinned (${cores} core(s), taskset ${has('taskset') ? 'present' : 'missing'})${niceNote}` };
  }
  return {
    server: [...nice, 'taskset', '-c', '1'],
    load: [...nice, 'taskset', '-c', '0'],
    note: `server on core 1, wrk on core 0 (taskset)${niceNote}`,
  };
}

export function requireWrk(): string {
  if (!has('wrk')) {
    throw new Error('bench:http needs wrk 4.x as its load generator: install it with `apt-get install wrk` (Debian/Ubuntu).');
  }
  const out = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`.split('\n')[0]!.trim();
}

/** Starts `node --import tsx <script>` (pinned) and waits for its "LISTENING <port>" line. */
export function startServer(name: string, script: string, env: Record<string, string>, pin: string[]): Promise<RunningServer> {
  const args = [...pin, process.execPath, '--import', 'tsx', script];
  const child = spawn(args[0]!, args.slice(1), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name}: no LISTENING line within 60 s:\n${log.slice(-2000)}`)), 60_000);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    const onData = (chunk: Buffer): void => {
      if (log.length < 100_000) log += chunk.toString();
      const m = /LISTENING (\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        // Keep draining: a full pipe would block a server that logs every request.
        child.stdout.resume();
        child.stderr.resume();
        resolve({ name, port: Number(m[1]), child, stop: () => stop(child) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => fail(new Error(`${name}: exited with ${code} before listening:\n${log.slice(-2000)}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface WrkOptions {
  url: string;
  bodyFile: string;
  headers: Record<string, string>;
  connections: number;
  durationS: number;
  timeoutS: number;
  pin: string[];
}

/** One wrk run (1 thread); resolves with wrk's own counters and latency percentiles. */
export function wrk(o: WrkOptions): Promise<WrkResult> {
  const headerArgs = Object.entries(o.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = [...o.pin, 'wrk', '-t1', `-c${o.connections}`, `-d${o.durationS}s`, `--timeout`, `${o.timeoutS}s`, '-s', LUA, ...headerArgs, o.url];
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), { env: { ...process.env, BODY_FILE: o.bodyFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (exit ${code}):\n${out.slice(-2000)}`));
      const r = JSON.parse(line.slice('WRK_JSON '.length)) as Omit<WrkResult, 'rps'>;
      resolve({ ...r, rps: r.requests / (r.duration_us / 1e6) });
    });
  });
}

const IN_PROCESS = fileURLToPath(new URL('./in-process.ts', import.meta.url));

/** The MCP handler's µs per small create, measured by bench/http/in-process.ts in a fresh process with `pin`. */
export function measureHandlerInChild(bodyFile: string, headers: Record<string, string>, pin: string[]): number {
  const args = [...pin, process.execPath, '--import', 'tsx', IN_PROCESS, bodyFile, JSON.stringify(headers)];
  const run = spawnSync(args[0]!, args.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const m = /HANDLER_US ([\d.]+)/.exec(run.stdout ?? '');
  if (!m) throw new Error(`in-process handler measurement failed (exit ${run.status}):\n${(run.stderr ?? '').slice(-2000)}`);
  return Number(m[1]);
}
