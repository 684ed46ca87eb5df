// Test helper: the reference deployment on one machine. Hosts are network namespaces joined by a bridge (loopback
// addresses where `ip netns` is not allowed), with nginx from deploy/nginx, Redis with a replica and three Sentinels
// from deploy/redis, and instances of the built server: each part started, signalled and cut off for real.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './main-process.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const INSTALL_HINT = 'install nginx, redis-server and redis-sentinel: apt-get install nginx redis-server redis-sentinel';

function need(command: string, args: string[]): void {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(`${command} is not available (${probe.error?.message ?? probe.stderr.trim()}); ${INSTALL_HINT}`);
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
  if (result.error || result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.error?.message ?? result.stderr.trim()}`);
  return result.stdout.trim();
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Where the parts run: namespaces with addresses of their own behind a bridge, or loopback addresses. */
export interface Network {
  readonly isolated: boolean;
  /** The address of the machine itself, as the hosts reach it (Redis and the Sentinels listen there). */
  readonly gateway: string;
  /** The address of host `index`. */
  address(index: number): string;
  /** The command that runs `args` on host `index`. */
  command(index: number, args: string[]): [string, string[]];
  /** Drops (true) or lets through (false) host `index`'s packets to the machine's Redis and Sentinel ports. */
  cutOff(index: number, ports: number[], cut: boolean): void;
  remove(): void;
}

/** `count` hosts in network namespaces of their own, or loopback addresses where namespaces cannot be made here. */
export function createNetwork(count: number): Network {
  const id = (process.pid % 200) + 20;
  const bridge = `spbr${id}`;
  const names = Array.from({ length: count }, (_, i) => `sp${id}n${i}`);
  const subnet = `10.${id}.77`;
  const made: string[] = [];
  try {
    run('ip', ['link', 'add', bridge, 'type', 'bridge']);
    made.push(bridge);
    run('ip', ['addr', 'add', `${subnet}.1/24`, 'dev', bridge]);
    run('ip', ['link', 'set', bridge, 'up']);
    names.forEach((name, i) => {
      run('ip', ['netns', 'add', name]);
      made.push(name);
      run('ip', ['link', 'add', `${name}h`, 'type', 'veth', 'peer', 'name', `${name}c`]);
      run('ip', ['link', 'set', `${name}c`, 'netns', name]);
      run('ip', ['link', 'set', `${name}h`, 'master', bridge]);
      run('ip', ['link', 'set', `${name}h`, 'up']);
      run('ip', ['netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.${10 + i}/24`, 'dev', `${name}c`]);
      run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', `${name}c`, 'up']);
      run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
    });
  } catch {
    for (const name of made.reverse()) spawnSync('ip', name === bridge ? ['link', 'del', bridge] : ['netns', 'del', name]);
    return {
      isolated: false,
      gateway: '127.0.0.1',
      address: (index) => `127.0.0.${20 + index}`,
      command: (_index, args) => [args[0]!, args.slice(1)],
      cutOff: () => {
        throw new Error('cutting one host off needs network namespaces (run as root where `ip netns` works)');
      },
      remove: () => {},
    };
  }
  return {
    isolated: true,
    gateway: `${subnet}.1`,
    address: (index) => `${subnet}.${10 + index}`,
    command: (index, args) => ['ip', ['netns', 'exec', names[index]!, ...args]],
    cutOff(index, ports, cut) {
      for (const port of ports) run('ip', ['netns', 'exec', names[index]!, 'iptables', cut ? '-A' : '-D', 'OUTPUT', '-p', 'tcp', '-d', `${subnet}.1`, '--dport', String(port), '-j', 'DROP']);
    },
    remove() {
      for (const name of names) spawnSync('ip', ['netns', 'del', name]);
      spawnSync('ip', ['link', 'del', bridge]);
    },
  };
}

/** A child process that can be signalled and started again with the same command. */
export class Part {
  #child: ChildProcess | undefined;
  #output = '';
  exited: Promise<number | null> = Promise.resolve(null);

  constructor(
    readonly name: string,
    private readonly start: () => [string, string[], Record<string, string>],
  ) {}

  launch(extraEnv: Record<string, string> = {}): void {
    const [command, args, env] = this.start();
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#output = '';
    const keep = (d: Buffer): void => void (this.#output = (this.#output + d.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.#child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    running.add(child);
    void this.exited.then(() => running.delete(child));
  }

  get output(): string {
    return this.#output;
  }

  get alive(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  signal(signal: NodeJS.Signals): void {
    this.#child?.kill(signal);
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.#child!.kill('SIGCONT');
    this.#child!.kill('SIGKILL');
    await this.exited;
  }
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

/** RESP over redis-cli (from redis-tools): one command's reply as text, or undefined when it gets none in 2 s. */
export function redisCommand(host: string, port: number, ...args: string[]): string | undefined {
  const reply = spawnSync('redis-cli', ['-h', host, '-p', String(port), '--no-raw', ...args], { encoding: 'utf8', timeout: 2_000 });
  return reply.status === 0 ? reply.stdout.trim() : undefined;
}

export interface RedisSet {
  /** Primary first, then the replica, as they were started (Sentinel may swap their roles). */
  readonly servers: Part[];
  readonly ports: number[];
  readonly sentinelPorts: number[];
  readonly sentinels: Part[];
  /** REDIS_URL of the Sentinel form, as the instances use it. */
  readonly url: string;
  /** The port of the server Sentinel currently names as primary (undefined while none answers). */
  primaryPort(): number | undefined;
  /** Waits until the Sentinels name a primary other than `port`; resolves with when they did (ms, performance.now). */
  switchedFrom(port: number, timeoutMs: number): Promise<number>;
}

/** A Redis primary, a replica and three Sentinels on the machine, configured from deploy/redis's files. */
export async function startRedisSet(dir: string, gateway: string): Promise<RedisSet> {
  need('redis-server', ['--version']);
  need('redis-sentinel', ['--version']);
  const template = (file: string): string => readFileSync(join(ROOT, 'deploy/redis', file), 'utf8');
  const ports = [await freePort(gateway), await freePort(gateway)];
  const sentinelPorts = [await freePort(gateway), await freePort(gateway), await freePort(gateway)];
  const redisConf = (file: string, index: number): string => {
    const path = join(dir, `redis-${index}.conf`);
    writeFileSync(path, template(file).replace(/^bind .*/m, `bind ${gateway}`).replace(/^port .*/m, `port ${ports[index]}`).replace(/^replicaof .*/m, `replicaof ${gateway} ${ports[0]}`) + `\ndir ${dir}\n`);
    return path;
  };
  const servers = [redisConf('primary.conf', 0), redisConf('replica.conf', 1)].map((path, i) => new Part(`redis ${i}`, () => ['redis-server', [path], {}]));
  const sentinels = sentinelPorts.map((port, i) => {
    const path = join(dir, `sentinel-${i}.conf`);
    writeFileSync(path, template('sentinel.conf').replace(/^bind .*/m, `bind ${gateway}`).replace(/^port .*/m, `port ${port}`).replace(/^sentinel monitor sessionplan .*/m, `sentinel monitor sessionplan ${gateway} ${ports[0]} 2`) + `\ndir ${dir}\n`);
    return new Part(`sentinel ${i}`, () => ['redis-sentinel', [path], {}]);
  });
  for (const part of [...servers, ...sentinels]) part.launch();
  const primaryPort = (): number | undefined => {
    for (const port of sentinelPorts) {
      const reply = redisCommand(gateway, port, 'SENTINEL', 'get-master-addr-by-name', 'sessionplan');
      const found = reply === undefined ? undefined : /(\d+)"?\s*$/.exec(reply)?.[1];
      if (found !== undefined) return Number(found);
    }
    return undefined;
  };
  // Ready when the replica is in sync and every Sentinel knows both the replica and the other Sentinels.
  const deadline = performance.now() + 30_000;
  for (;;) {
    const synced = redisCommand(gateway, ports[1]!, 'INFO', 'replication')?.includes('master_link_status:up') === true;
    const known = sentinelPorts.every((port) => {
      const info = redisCommand(gateway, port, 'INFO', 'sentinel') ?? '';
      return /slaves=1,sentinels=3/.test(info);
    });
    if (synced && known) break;
    if (performance.now() > deadline) throw new Error(`Redis and Sentinels did not settle in 30 s: ${servers.map((s) => s.output).join('\n')}`);
    await sleep(200);
  }
  return {
    servers,
    ports,
    sentinelPorts,
    sentinels,
    url: `redis+sentinel://${sentinelPorts.map((port) => `${gateway}:${port}`).join(',')}/sessionplan`,
    primaryPort,
    async switchedFrom(port, timeoutMs) {
      const t0 = performance.now();
      while (performance.now() - t0 < timeoutMs) {
        const now = primaryPort();
        if (now !== undefined && now !== port) return performance.now();
        await sleep(100);
      }
      throw new Error(`Sentinel did not switch away from port ${port} in ${timeoutMs} ms`);
    },
  };
}

/** The deployment's nginx (deploy/nginx/sessionplan-mcp.conf) with its upstream servers and listen address replaced. */
export async function startNginx(dir: string, upstreams: string[]): Promise<{ part: Part; port: number; configFile: string }> {
  need('nginx', ['-v']);
  const port = await freePort();
  const site = readFileSync(join(ROOT, 'deploy/nginx/sessionplan-mcp.conf'), 'utf8');
  const servers = upstreams.map((address) => `    server ${address} max_fails=3 fail_timeout=2s;`).join('\n');
  const replaced = site.replace(/(upstream sessionplan_mcp \{\n(?:\s*#.*\n)*)(?:\s*server .*\n)+/, `$1${servers}\n`).replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  if (!replaced.includes(upstreams[0]!) || !replaced.includes(`listen 127.0.0.1:${port}`)) throw new Error('deploy/nginx/sessionplan-mcp.conf no longer has the upstream and listen lines this test replaces');
  writeFileSync(join(dir, 'site.conf'), replaced);
  const configFile = nginxMain(dir, join(dir, 'site.conf'));
  const part = new Part('nginx', () => ['nginx', ['-c', configFile, '-p', dir], {}]);
  part.launch();
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/livez`).then(() => true, () => false)) return { part, port, configFile };
    await sleep(100);
  }
  throw new Error(`nginx did not start: ${part.output}`);
}

/** A main nginx.conf around `site` (the shipped file's place in a real one: inside http {}). */
export function nginxMain(dir: string, site: string): string {
  mkdirSync(join(dir, 'temp'), { recursive: true });
  const file = join(dir, 'nginx.conf');
  writeFileSync(
    file,
    `daemon off;\nuser root;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 4096; }\n` +
      `http {\n  access_log off;\n  client_body_temp_path ${dir}/temp/body;\n  proxy_temp_path ${dir}/temp/proxy;\n  fastcgi_temp_path ${dir}/temp/fastcgi;\n  uwsgi_temp_path ${dir}/temp/uwsgi;\n  scgi_temp_path ${dir}/temp/scgi;\n  include ${site};\n}\n`,
  );
  return file;
}

export function temporaryDirectory(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
