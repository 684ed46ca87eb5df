// The packed package as a user installs it: npm pack, npm install --omit=optional in a temp folder, npx serve, SIGTERM and SIGINT to npx.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalSession } from '../fixtures/sessions.js';
import { parseRaw, post } from '../support/http.js';
import { ROOT } from '../support/main-process.js';
import { alive, childrenOf } from '../support/processes.js';

/** The issue's bound for `npm install --omit=optional` of the tarball (uWebSockets.js alone was 113 MB). */
const MAX_NODE_MODULES_MB = 40;
/** Pack and install from the npm cache or registry; both are bounded so a hung registry fails the test, not CI. */
const INSTALL_TIMEOUT_MS = 150_000;

let dir = '';
const started = new Set<ChildProcess>();
/** Servers found under npx: if a test fails they may outlive npx, and must not outlive the test. */
const servers = new Set<number>();

/** The environment of a user's shell: no npm_* variables of the `npm test` that runs this file. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.toLowerCase().startsWith('npm_')) env[name] = value;
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${result.stderr.slice(-2000)}`);
  return result.stdout;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does); the tarball packs the built files');
  dir = mkdtempSync(join(tmpdir(), 'sessionplan-install-'));
  // --ignore-scripts: pack what `npm test` built instead of building a second time (prepare).
  const [packed] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as { filename: string }[];
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'install-check', private: true }));
  run('npm', ['install', '--omit=optional', '--no-audit', '--no-fund', `./${packed!.filename}`], dir);
}, INSTALL_TIMEOUT_MS * 2);

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of servers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `npx sessionplan-mcp serve` in the install folder, once its ready line names the port; the server is found under npx → sh. */
/** `npx sessionplan-mcp serve`; `group: true` makes it lead a process group of its own, as a terminal's job is. */
async function startNpxServe(options: { group?: boolean } = {}): Promise<{ npx: ChildProcess; port: number; serverPid: number; stdout: () => string; stderr: () => string; outputEnded: Promise<void> }> {
  const npx = spawn('npx', ['sessionplan-mcp', 'serve'], {
    cwd: dir,
    env: userEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  });
  started.add(npx);
  let stdout = '';
  let stderr = '';
  npx.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  npx.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The server writes to the pipe npx handed down; it ends when the last process holding it (the server) exits.
  const outputEnded = new Promise<void>((resolve) => npx.stdout!.once('end', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s; stdout: ${stdout} stderr: ${stderr}`)), 60_000);
    npx.stdout!.on('data', () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  // npx → sh → node: a signal to npx reaches npx only, as a process manager sends it.
  const [shell] = childrenOf(npx.pid!);
  const [server] = shell === undefined ? [] : childrenOf(shell.pid);
  expect(server?.cmdline, `processes under npx: ${JSON.stringify(shell)}`).toMatch(/node .*sessionplan-mcp serve$/);
  servers.add(server!.pid);
  return { npx, port, serverPid: server!.pid, stdout: () => stdout, stderr: () => stderr, outputEnded };
}

describe('the packed package, installed with --omit=optional', () => {
  it(`has no uWebSockets.js, takes at most ${MAX_NODE_MODULES_MB} MB, and ships LICENSE and every docs/ file the README links to`, () => {
    const modules = join(dir, 'node_modules');
    expect(existsSync(join(modules, 'uWebSockets.js'))).toBe(false);
    const kilobytes = Number(run('du', ['-sk', modules], dir).split('\t')[0]);
    expect(kilobytes / 1024, `node_modules takes ${(kilobytes / 1024).toFixed(1)} MB`).toBeLessThanOrEqual(MAX_NODE_MODULES_MB);

    const installed = join(modules, 'sessionplan-mcp');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Sessionplan contributors\n/);
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of new Set(links)) expect(existsSync(join(installed, link)), `README links to ${link}`).toBe(true);
  });

  it('npx sessionplan-mcp serve answers a REST create; SIGTERM to npx finishes the request in flight and closes the port', async () => {
    const { npx, port, serverPid, stdout, outputEnded } = await startNpxServe();
    expect(stdout()).toContain('node:http'); // the default adapter, with no uWebSockets.js installed

    const created = await post(port, '/api/session-links', { session: minimalSession() });
    expect(created.status).toBe(200);
    expect(created.json().link).toMatch(/^https:\/\/sessionplan\.de\/#data=v2:/);

    // A create whose body is half sent when the signal arrives.
    const body = JSON.stringify({ session: minimalSession() });
    const inFlight: Socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => inFlight.once('connect', resolve));
    let answer = '';
    inFlight.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const answered = new Promise((resolve) => inFlight.once('close', resolve));
    inFlight.write(`POST /api/session-links HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));

    npx.kill('SIGTERM');
    const signalled = performance.now();
    // The port closes: no new connections once the server begins to stop.
    let refused = false;
    while (!refused && performance.now() - signalled < 5_000) {
      refused = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', () => resolve(true));
      });
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused, 'the port still accepted connections 5 s after SIGTERM to npx').toBe(true);
    expect(alive(serverPid)).toBe(true); // still finishing the request in flight

    inFlight.write(body.slice(20));
    await answered;
    const reply = parseRaw(answer);
    expect(reply.status).toBe(200);
    expect((JSON.parse(reply.body) as { link: string }).link).toMatch(/#data=v2:/);

    await outputEnded;
    expect(alive(serverPid)).toBe(false);
    const lines = stdout().trim().split('\n').map((line) => JSON.parse(line) as { msg: string; path?: string; status?: number });
    // The in-flight create was logged as answered 200 while the server stopped.
    expect(lines.filter((line) => line.msg === 'request' && line.path === '/api/session-links').map((line) => line.status)).toEqual([200, 200]);
    expect(lines.map((line) => line.msg).filter((msg) => msg !== 'request').slice(-3)).toEqual([
      'npm exited (npx or a script without exec passes no signal on): stopping as on SIGTERM',
      'shutting down: no new connections, finishing in-flight requests',
      'stopped',
    ]);
  }, 90_000);

  it('a terminal\'s Ctrl-Z and fg (the whole job stopped and continued) leave the server running, and Ctrl-C stops it', async () => {
    const { npx, port, serverPid, stdout, outputEnded } = await startNpxServe({ group: true });
    expect((await post(port, '/api/session-links', { session: minimalSession() })).status).toBe(200);

    // A terminal stops and continues every process of its foreground job (SIGSTOP stands in for SIGTSTP, which the
    // kernel discards in a group without a terminal).
    process.kill(-npx.pid!, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(-npx.pid!, 'SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(alive(serverPid)).toBe(true);
    expect((await post(port, '/api/session-links', { session: minimalSession() })).status).toBe(200);

    // Ctrl-C: SIGINT to every process of the job, the server included.
    process.kill(-npx.pid!, 'SIGINT');
    await outputEnded;
    expect(alive(serverPid)).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    const messages = stdout().trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg).filter((msg) => msg !== 'request');
    expect(messages.slice(-2)).toEqual(['shutting down: no new connections, finishing in-flight requests', 'stopped']);
    expect(stdout()).toContain('"signal":"SIGINT"');
  }, 90_000);

  it('TRANSPORT=uws stops start-up with one line that says how to install uWebSockets.js', () => {
    const result = spawnSync(process.execPath, [join(dir, 'node_modules/sessionplan-mcp/dist/cli.js'), 'serve'], {
      cwd: dir,
      env: userEnv({ PORT: '0', TRANSPORT: 'uws' }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'TRANSPORT=uws: uWebSockets.js is not installed (an optional dependency, left out by npm install --omit=optional). ' +
        'On Node 20, install it with `npm install uWebSockets.js@npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0`, or TRANSPORT=node.\n',
    );
  });
});
