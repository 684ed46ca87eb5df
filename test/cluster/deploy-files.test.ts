// Every file of deploy/ is checked by the tool that reads it: nginx -t, systemd-analyze verify, the Kubernetes API
// schemas (kubernetes-models), and the Containerfile built and run with podman (Redis and Sentinel: cluster.test.ts).
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Service } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { freePort, nginxMain, temporaryDirectory } from '../support/cluster.js';
import { baseImageOf, IMAGE_NODE_VERSION, nodeBaseRootfs, podman, unpackedPackage } from '../support/container.js';
import { ROOT } from '../support/main-process.js';

const DEPLOY = join(ROOT, 'deploy');
/** The newest uWebSockets.js build on the npm registry (it needs glibc 2.38). */
const UWS_ON_NEW_GLIBC = '20.57.0';
const temp = temporaryDirectory('sp-deploy-');
afterAll(() => temp.remove());

describe('deploy/nginx', () => {
  it('nginx -t accepts sessionplan-mcp.conf as shipped, inside an http block', () => {
    const main = nginxMain(temp.path, join(DEPLOY, 'nginx/sessionplan-mcp.conf'));
    const check = spawnSync('nginx', ['-t', '-c', main, '-p', temp.path], { encoding: 'utf8' });
    expect(check.error, 'install nginx: apt-get install nginx').toBeUndefined();
    expect(check.stderr).toContain('syntax is ok');
    expect(check.stderr).toContain('test is successful');
    expect(check.status).toBe(0);
  });
});

describe('deploy/systemd', () => {
  it('systemd-analyze verify accepts the template unit for an instance, without a warning', () => {
    const unit = join(temp.path, 'sessionplan-mcp@8081.service');
    copyFileSync(join(DEPLOY, 'systemd/sessionplan-mcp@.service'), unit);
    const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect(verify.error, 'systemd-analyze comes with systemd').toBeUndefined();
    expect(verify.stderr.trim()).toBe('');
    expect(verify.status).toBe(0);
    const text = readFileSync(unit, 'utf8');
    for (const line of ['DynamicUser=yes', 'NoNewPrivileges=yes', 'ProtectSystem=strict', 'Restart=on-failure', 'MemoryMax=1G']) expect(text).toContain(line);
  });
});

describe('deploy/kubernetes', () => {
  const documents = ['deployment.yaml', 'service.yaml', 'pod-disruption-budget.yaml'].flatMap((file) =>
    parseAllDocuments(readFileSync(join(DEPLOY, 'kubernetes', file), 'utf8')).map((document) => document.toJS() as Record<string, unknown>),
  );
  const byKind = new Map(documents.map((document) => [document.kind as string, document]));

  it('validates against the Kubernetes API schemas', () => {
    expect([...byKind.keys()].sort()).toEqual(['Deployment', 'PodDisruptionBudget', 'Service']);
    new Deployment(byKind.get('Deployment') as never).validate();
    new Service(byKind.get('Service') as never).validate();
    new PodDisruptionBudget(byKind.get('PodDisruptionBudget') as never).validate();
  });

  it('probes /readyz and /livez, gives more grace than SHUTDOWN_DELAY_S + 10 s, and selects the same pods everywhere', () => {
    const deployment = new Deployment(byKind.get('Deployment') as never);
    const pod = deployment.spec!.template.spec!;
    const container = pod.containers[0]!;
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/livez');
    const delay = Number(container.env?.find((variable) => variable.name === 'SHUTDOWN_DELAY_S')?.value);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(delay + 10);
    const labels = deployment.spec!.selector.matchLabels;
    expect((byKind.get('Service') as { spec: { selector: unknown } }).spec.selector).toEqual(labels);
    expect((byKind.get('PodDisruptionBudget') as { spec: { selector: { matchLabels: unknown } } }).spec.selector.matchLabels).toEqual(labels);
  });

  it('a manifest that breaks the schema is refused (the check can fail)', () => {
    const broken = structuredClone(byKind.get('Deployment')) as { spec: { replicas: unknown } };
    broken.spec.replicas = 'three';
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });
});

describe('deploy/container', () => {
  const containerfile = join(DEPLOY, 'container/Containerfile');
  let pod: ReturnType<typeof podman>;
  let base: string;
  beforeAll(() => {
    pod = podman(temp.path);
    // No image registry is reachable here: the base image is made under its own name, Debian 13 and Node 24.
    const root = join(temp.path, 'rootfs');
    nodeBaseRootfs(root, join(temp.path, 'downloads'));
    const tar = join(temp.path, 'rootfs.tar');
    expect(spawnSync('tar', ['-C', root, '-cf', tar, '.']).status).toBe(0);
    base = baseImageOf(containerfile);
    const imported = pod.run(['import', tar, base]);
    expect(imported.status, imported.stderr).toBe(0);
  }, 600_000);

  it(`builds with podman on Node ${IMAGE_NODE_VERSION}, runs as a non-root user, is healthy, stops on SIGTERM`, { timeout: 600_000 }, async () => {
    expect(base).toMatch(/^docker\.io\/library\/node:24-trixie-slim$/);
    const image = `localhost/sessionplan-mcp:test-${process.pid}`;
    const build = pod.run(['build', '--format', 'docker', '--network', 'host', '-f', containerfile, '-t', image, ROOT], { timeoutMs: 480_000 });
    expect(build.status, build.stderr.slice(-3_000)).toBe(0);
    const port = await freePort();
    const name = `sessionplan-test-${process.pid}`;
    const started = pod.run(['run', '-d', '--name', name, '--network', 'host', '-e', `PORT=${port}`, '-e', 'HOST=127.0.0.1', image]);
    expect(started.status, started.stderr).toBe(0);
    try {
      expect(await livezWithin(port, 20_000), pod.run(['logs', name]).stdout).toBe(true);
      expect(pod.run(['exec', name, 'id', '-u']).stdout.trim()).toBe('1000');
      expect(pod.run(['exec', name, 'node', '--version']).stdout.trim()).toBe(`v${IMAGE_NODE_VERSION}`);
      expect(pod.run(['healthcheck', 'run', name]).status).toBe(0);
      // Production dependencies only: no compiler, no test tools, no uWebSockets.js.
      const modules = pod.run(['exec', name, 'ls', 'node_modules']).stdout.split('\n');
      expect(modules).toContain('zod');
      for (const only of ['typescript', 'vitest', 'assemblyscript', 'uWebSockets.js']) expect(modules).not.toContain(only);
      const health = (await (await fetch(`http://127.0.0.1:${port}/mcp`)).json()) as { transport: { adapter: string } };
      expect(health.transport.adapter).toBe('node');
      const create = await fetch(`http://127.0.0.1:${port}/api/session-links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: { version: '1.0', workshop: { title: 'In a container', description: '' }, blockTypes: [], persons: [], items: [] } }),
      });
      expect(create.status).toBe(200);
      const stop = pod.run(['stop', '--time', '20', name], { timeoutMs: 30_000 });
      expect(stop.status, stop.stderr).toBe(0);
      expect(pod.run(['inspect', name, '--format', '{{.State.ExitCode}}']).stdout.trim()).toBe('0');
    } finally {
      pod.run(['rm', '-f', name]);
      pod.run(['rmi', '-f', image]);
    }
  });

  it(`on the same Debian 13 and Node ${IMAGE_NODE_VERSION}: uWebSockets.js ${UWS_ON_NEW_GLIBC} from the npm registry loads natively and serves, but answers some requests itself, without the security headers`, { timeout: 300_000 }, async () => {
    // The newest uWS build on the npm registry needs glibc 2.38: it loads here, never on Debian 12. The checkout's own
    // build runs against it, with that package in place of the pinned one.
    const uws = unpackedPackage(`@btc-vision/uwebsockets.js@${UWS_ON_NEW_GLIBC}`, join(temp.path, 'uws'));
    const port = await freePort();
    const name = `sessionplan-uws-${process.pid}`;
    const started = pod.run(['run', '-d', '--name', name, '--network', 'host', '-v', `${ROOT}:/app:ro`, '-v', `${uws}:/app/node_modules/uWebSockets.js:ro`, '-w', '/app', '-e', `PORT=${port}`, '-e', 'HOST=127.0.0.1', '-e', 'TRANSPORT=uws', base, 'node', 'dist/process/main.js']);
    expect(started.status, started.stderr).toBe(0);
    try {
      expect(await livezWithin(port, 20_000), pod.run(['logs', name]).stdout + pod.run(['logs', name]).stderr).toBe(true);
      const health = (await (await fetch(`http://127.0.0.1:${port}/mcp`)).json()) as { transport: { adapter: string; version: string } };
      expect(health.transport).toEqual({ adapter: 'uws', version: `uWebSockets.js ${UWS_ON_NEW_GLIBC}` });
      const create = await fetch(`http://127.0.0.1:${port}/api/session-links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: { version: '1.0', workshop: { title: 'uWS', description: '' }, blockTypes: [], persons: [], items: [] } }),
      });
      expect(create.status).toBe(200);
      // An HTTP/1.1 request without Host: node:http's server answers it through the core (400, JSON, security headers);
      // this uWS answers it with its own HTML page (docs/deployment.md, §2: why node:http is the production adapter).
      const answer = await rawExchange(port, 'GET /mcp HTTP/1.1\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer).not.toMatch(/cache-control: no-store/i);
      expect(answer).toContain('<h1>Bad Request</h1>');
    } finally {
      pod.run(['rm', '-f', name]);
    }
  });
});

/** Whether GET /livez on `port` answers 200 within `ms`. */
async function livezWithin(port: number, ms: number): Promise<boolean> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    if (await fetch(`http://127.0.0.1:${port}/livez`).then((r) => r.ok, () => false)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** Writes `request` as it is and collects what comes back within 2 s. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
    setTimeout(() => socket.destroy(), 2_000);
  });
}
