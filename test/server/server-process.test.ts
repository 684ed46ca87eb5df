// The server as a process: refusing bad environments with one line, graceful shutdown with a request in flight, npm start.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRaw, send, startTestServer } from '../support/http.js';
import { startMainProcess } from '../support/main-process.js';
import { alive, childrenOf } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children = new Set<ChildProcess>();

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `node --import tsx src/process/main.ts` with exactly `env` added to a minimal environment. */
function startMain(env: Record<string, string>, command: string[] = ['node', '--import', 'tsx', 'src/process/main.ts']) {
  const [bin = 'node', ...args] = command;
  const child = spawn(bin, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exited>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  /** Resolves with the base URL from the ready line. */
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 45 s; stdout: ${stdout} stderr: ${stderr}`)), 45_000);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready; stderr: ${stderr}`));
    });
  });
  ready.catch(() => {});
  return { child, ready, exited };
}

describe('startup refuses a bad environment with one clear line', () => {
  it.each([
    [{ PORT: 'http' }, /^Invalid configuration: PORT must be an integer from 0 to 65535 \(got "http"\)\.$/],
    [{ PORT: '0', TRUST_PROXY: '-1' }, /^Invalid configuration: TRUST_PROXY /],
    [{ PORT: '0', REDIS_URL: 'http://127.0.0.1:6390' }, /^Invalid configuration: REDIS_URL must be a redis:\/\/, rediss:\/\/, unix:\/\/, redis\+sentinel:\/\/host:port\[,host:port…\]\/<master>\[\/<db>\] or redis\+cluster:\/\/host:port\[,host:port…\] URL\.$/],
    [{ PORT: '0', REDIS_URL: 'redis+sentinel://:secret@127.0.0.1:26379' }, /^Invalid configuration: REDIS_URL of Sentinel must name the primary: redis\+sentinel:\/\/host:port\[,host:port…\]\/<master>\[\/<db>\]\.$/],
    [{ PORT: '0', WORKERS: 'many' }, /^Invalid configuration: WORKERS must be "auto" or an integer from 1 to 256 \(got "many"\)\.$/],
    // A connection limit the chosen adapter cannot apply is refused, never left unenforced in silence.
    [{ PORT: '0', TRANSPORT: 'uws', MAX_CONNECTIONS: '500' }, /^Invalid configuration: MAX_CONNECTIONS=500 cannot be applied by TRANSPORT=uws \(uWebSockets\.js 20\.30[^)]*\), which applies only MAX_CONNECTIONS=0: unset it, or use TRANSPORT=node\.$/],
    [{ PORT: '0', TRANSPORT: 'uws', IDLE_TIMEOUT_S: '30' }, /^Invalid configuration: IDLE_TIMEOUT_S=30 cannot be applied by TRANSPORT=uws .*which applies only IDLE_TIMEOUT_S=10: unset it, or use TRANSPORT=node\.$/],
    [{ PORT: '0', TRANSPORT: 'uws', MAX_CONNECTIONS_PER_CLIENT: '20' }, /^Invalid configuration: MAX_CONNECTIONS_PER_CLIENT=20 cannot be applied by TRANSPORT=uws /],
  ])('%j: exit status 2', async (env, message) => {
    const { exited } = startMain(env);
    const { code, stderr, stdout } = await exited;
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.trim()).toMatch(message);
    expect(stdout).toBe('');
  });

  it('names the adapter that serves in its ready line: node:http by default, uWS when asked for', async () => {
    for (const [env, expected] of [[{}, /node:http v\d+/], [{ TRANSPORT: 'uws' }, /uWebSockets\.js 20\.30/]] as const) {
      const server = await startMainProcess({ LOG_LEVEL: 'info', ...env });
      try {
        expect(server.stdout()).toMatch(new RegExp(`listening on http://127\\.0\\.0\\.1:${server.port} \\(MCP endpoint [^,]+, ${expected.source}`));
        // A local quick start finds the page that opens links.
        expect(server.stdout()).toContain(`; viewer http://127.0.0.1:${server.port}/`);
      } finally {
        expect((await server.stop()).code).toBe(0);
      }
    }
  });

  it('TRANSPORT=auto with a limit uWS cannot apply serves with node:http, which applies it, and says why in one warning', async () => {
    const server = await startMainProcess({ LOG_LEVEL: 'info', TRANSPORT: 'auto', MAX_CONNECTIONS: '500' });
    try {
      expect(server.stdout()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(MCP endpoint [^,]+, node:http v\d+/);
      const warnings = server.stdout().split('\n').filter((line) => line.includes('"level":40')).map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(warnings).toEqual(['uWebSockets.js loads, but MAX_CONNECTIONS=500 cannot be applied by TRANSPORT=uws (uWebSockets.js 20.30.0-unofficial.0), which applies only MAX_CONNECTIONS=0: unset it, or use TRANSPORT=node; serving with node:http.']);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it('refuses a port that is already in use', async () => {
    const busy = await startTestServer();
    try {
      const { code, stderr } = await startMain({ PORT: String(busy.port), LOG_LEVEL: 'silent' }).exited;
      expect(code).not.toBe(0);
      expect(stderr.trim()).toBe(`Cannot listen on 127.0.0.1:${busy.port} (address in use or not available).`);
    } finally {
      await busy.close();
    }
  });
});

describe('graceful shutdown', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)('on %s stops accepting, finishes the request in flight and exits 0', async (signal) => {
    const { child, ready, exited } = startMain({ PORT: '0' });
    const url = new URL(await ready);
    const port = Number(url.port);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'req-7f3a', method: 'ping' });
    const half = Math.floor(body.length / 2);

    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, half)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));

    child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // No new connections once shutdown started.
    const refused = await new Promise<string>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve('connected');
      });
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(child.exitCode).toBeNull(); // still waiting for the in-flight request

    socket.write(body.slice(half));
    await closed;
    const reply = parseRaw(received);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 'req-7f3a', result: {} });
    expect(reply.headers['connection']).toBe('close');

    const { code, stdout } = await exited;
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { msg: string; path?: string; status?: number });
    expect(lines.some((l) => l.msg === 'request' && l.path === '/mcp' && l.status === 200)).toBe(true);
    expect(lines.at(-1)?.msg).toBe('stopped');
    // The access log carries method, path, status, sizes and duration, never the body.
    expect(stdout).not.toContain('req-7f3a');
  });

  it('ignores SIGUSR1 (no inspector), SIGUSR2 and SIGALRM, and still stops on SIGTERM', async () => {
    const { child, ready, exited } = startMain({ PORT: '0' });
    const port = Number(new URL(await ready).port);
    for (const signal of ['SIGUSR1', 'SIGUSR2', 'SIGALRM'] as const) child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(child.exitCode).toBeNull();
    expect((await send(port)).status).toBe(200);
    child.kill('SIGTERM');
    const { code, stdout, stderr } = await exited;
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/Debugger|inspector/i);
    const ignored = stdout.trim().split('\n').map((l) => JSON.parse(l) as { msg: string; signal?: string }).filter((l) => l.msg === 'signal ignored');
    expect(ignored.map((l) => l.signal).sort()).toEqual(['SIGALRM', 'SIGUSR1', 'SIGUSR2']);
  });

  it('lets SIGUSR1 open the inspector only with INSPECTOR_SIGNAL=on', async () => {
    const { child, ready, exited } = startMain({ PORT: '0', INSPECTOR_SIGNAL: 'on' });
    await ready;
    child.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    child.kill('SIGTERM');
    const { code, stderr } = await exited;
    expect(code).toBe(0);
    expect(stderr).toMatch(/inspector/i);
  });

  it('exits 0 on SIGINT when idle, also when the signal arrives twice (Ctrl-C under npm) and a keep-alive connection is open', async () => {
    const { child, ready, exited } = startMain({ PORT: '0' });
    const port = Number(new URL(await ready).port);
    // An idle keep-alive connection would hold the process for uWS's ~10 s idle timeout unless shutdown closes it.
    const idle = connect(port, '127.0.0.1');
    const idleClosed = new Promise((resolve) => idle.once('close', resolve));
    idle.on('error', () => {});
    await new Promise((resolve) => {
      idle.once('data', resolve);
      idle.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    const signalled = performance.now();
    child.kill('SIGINT');
    child.kill('SIGINT');
    await idleClosed;
    expect(performance.now() - signalled).toBeLessThan(6_000); // generous; the idle timeout alone would take ~10 s
    const result = await exited;
    expect([result.code, result.signal, result.stderr]).toEqual([0, null, '']);
  });
});

describe('npm start', () => {
  it('runs the built server as npm\'s own child, and SIGTERM to npm stops the server gracefully within 10 s', async () => {
    const entry = `${ROOT}dist/cli.js`; // what scripts.start runs (`serve` → src/process/main.ts)
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does).`);
    const { child, ready, exited } = startMain({ PORT: '0' }, ['npm', 'start', '--silent']);
    const url = await ready;
    const health = await send(Number(new URL(url).port));
    expect(health.status).toBe(200);
    expect(health.json().status).toBe('ok');
    // `exec` in scripts.start: no shell in between that would swallow the signal and leave the server running.
    const servers = childrenOf(child.pid!);
    expect(servers.map((s) => s.cmdline)).toEqual(['node dist/cli.js serve']);
    const server = servers[0]!.pid;
    const signalled = performance.now();
    child.kill('SIGTERM');
    const result = await exited;
    while (alive(server) && performance.now() - signalled < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(alive(server), 'the server outlived npm start').toBe(false);
    expect(result.stdout).toMatch(/"msg":"stopped"/);
  });
});
