// Test helper: podman from Debian with no registry. The base image deploy/container/Containerfile names is built here,
// under that name, from this machine's own Node.js, npm, shell and the libraries they load; the rest is real podman.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
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

/** The shared libraries a binary loads (ldd), the loader included. */
function librariesOf(binary: string): string[] {
  const ldd = spawnSync('ldd', [binary], { encoding: 'utf8' });
  return [...ldd.stdout.matchAll(/(\/\S+) \(0x/g)].map((match) => match[1]!);
}

/** Copies `file` (following links) into `root` at the same path, and the libraries it loads. */
function copyWithLibraries(root: string, file: string): void {
  for (const path of [file, ...librariesOf(file)]) {
    const target = join(root, path);
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    cpSync(realpathSync(path), target);
  }
}

/**
 * A root file system with what a `node:*-slim` image offers the Containerfile: node and npm, a POSIX shell and the tools
 * npm scripts call, CA certificates for the npm registry, and the `node` user (1000). Written to `root`.
 */
export function nodeBaseRootfs(root: string): void {
  const node = realpathSync(process.execPath);
  copyWithLibraries(root, node);
  mkdirSync(join(root, 'usr/local/bin'), { recursive: true });
  symlinkSync(node, join(root, 'usr/local/bin/node'));
  const npmRoot = realpathSync(join(dirname(realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim())), '..'));
  cpSync(npmRoot, join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
  for (const tool of ['sh', 'rm', 'mkdir', 'cp', 'mv', 'cat', 'env', 'ls', 'chmod', 'ln', 'id']) {
    const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (path !== '') copyWithLibraries(root, path);
  }
  if (!existsSync(join(root, 'bin/sh'))) {
    mkdirSync(join(root, 'bin'), { recursive: true });
    symlinkSync('/usr/bin/sh', join(root, 'bin/sh'));
  }
  mkdirSync(join(root, 'etc/ssl/certs'), { recursive: true });
  cpSync('/etc/ssl/certs/ca-certificates.crt', join(root, 'etc/ssl/certs/ca-certificates.crt'));
  // The machine's own npm settings (the registry's certificate authority, say): npm inside reads them from its prefix.
  const globalConfig = spawnSync('npm', ['config', 'get', 'globalconfig'], { encoding: 'utf8' }).stdout.trim();
  if (globalConfig !== '' && existsSync(globalConfig)) {
    mkdirSync(dirname(join(root, globalConfig)), { recursive: true });
    cpSync(globalConfig, join(root, globalConfig));
  }
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n');
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnode:x:1000:\nnogroup:x:65534:\n');
  for (const dir of ['tmp', 'root', 'home/node', 'dev', 'proc', 'sys']) mkdirSync(join(root, dir), { recursive: true, mode: dir === 'tmp' ? 0o1777 : 0o755 });
  spawnSync('chown', ['1000:1000', join(root, 'home/node')]);
}
