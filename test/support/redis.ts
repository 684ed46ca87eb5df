// Test helper: a real redis-server of our own on a free loopback port in a temp dir; can be killed and restarted.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const INSTALL_REDIS_HINT = 'install redis-server: apt-get install redis-server';

export interface RedisServerHandle {
  /** `redis://127.0.0.1:PORT`, or `unix:///…/redis.sock` when started with `{ unixSocket: true }`. */
  readonly url: string;
  /** SIGKILL, like a crash: no goodbye to clients. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (clients can reconnect to the address they know). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that keeps its connections open but never answers. */
  freeze(): void;
  thaw(): void;
  /** Kills it if running and removes the temp dir. */
  stop(): Promise<void>;
  /** One command through redis-cli (from redis-tools, which redis-server depends on): its reply as text. */
  command(...args: string[]): string;
}

function assertRedisInstalled(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(`redis-server is not available (${probe.error?.message ?? `exit ${probe.status}`}); ${INSTALL_REDIS_HINT}`);
  }
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

type Address = { port: number } | { socketPath: string };

/** Every redis-server this process started and has not stopped yet. */
const running = new Set<ChildProcess>();
// A test that times out never reaches its cleanup; don't leave its Redis behind when the test process ends.
process.once('exit', () => {
  for (const proc of running) {
    proc.kill('SIGCONT');
    proc.kill('SIGKILL');
  }
});

/** One raw PING; true on +PONG. No client library, so the helper never depends on the code under test. */
async function pingOnce(address: Address): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = 'port' in address ? createConnection({ host: '127.0.0.1', port: address.port }) : createConnection({ path: address.socketPath });
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(200, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

async function waitForPong(address: Address, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}: ${output()}`);
    if (await pingOnce(address)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer PING within 10 s: ${output()}`);
}

export async function startRedisServer(options: { unixSocket?: boolean } = {}): Promise<RedisServerHandle> {
  assertRedisInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'sp-redis-'));
  const address: Address = options.unixSocket ? { socketPath: join(dir, 'redis.sock') } : { port: await freeLoopbackPort() };
  const listenArgs =
    'port' in address
      ? ['--port', String(address.port), '--bind', '127.0.0.1']
      : ['--port', '0', '--unixsocket', address.socketPath, '--unixsocketperm', '700'];
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    // Foreground (no --daemonize) so the test owns the process and can SIGKILL it; no persistence, loopback only.
    const proc = spawn(
      'redis-server',
      [...listenArgs, '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', ''],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-2000);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    running.add(proc);
    proc.once('exit', () => running.delete(proc));
    child = proc;
    await waitForPong(address, proc, () => output);
  };

  const kill = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  };

  await launch();
  return {
    url: 'port' in address ? `redis://127.0.0.1:${address.port}` : `unix://${address.socketPath}`,
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    freeze: () => {
      child?.kill('SIGSTOP');
    },
    command: (...args: string[]) => {
      const target = 'port' in address ? ['-h', '127.0.0.1', '-p', String(address.port)] : ['-s', address.socketPath];
      const reply = spawnSync('redis-cli', [...target, ...args], { encoding: 'utf8', timeout: 5_000 });
      if (reply.error || reply.status !== 0) throw new Error(`redis-cli ${args.join(' ')} failed: ${reply.error?.message ?? reply.stderr}`);
      return reply.stdout.trim();
    },
    thaw: () => {
      child?.kill('SIGCONT');
    },
    stop: async () => {
      child?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
