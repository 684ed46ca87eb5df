// Every file of deploy/ is checked by the tool that reads it: nginx -t, systemd-analyze verify, the Kubernetes API
// schemas (kubernetes-models), and the Containerfile built and run with podman (Redis and Sentinel: cluster.test.ts).
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Service } from 'kubernetes-models/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { freePort, nginxMain, temporaryDirectory } from '../support/cluster.js';
import { baseImageOf, nodeBaseRootfs, podman } from '../support/container.js';
import { ROOT } from '../support/main-process.js';

const DEPLOY = join(ROOT, 'deploy');
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
  it('builds with podman (base image made from this machine), runs as a non-root user, is healthy, stops on SIGTERM', { timeout: 600_000 }, async () => {
    const containerfile = join(DEPLOY, 'container/Containerfile');
    const pod = podman(temp.path);
    // No registry is reachable here: the base image is made under its own name from this machine's Node.js.
    const root = join(temp.path, 'rootfs');
    nodeBaseRootfs(root);
    const tar = join(temp.path, 'rootfs.tar');
    expect(spawnSync('tar', ['-C', root, '-cf', tar, '.']).status).toBe(0);
    const imported = pod.run(['import', tar, baseImageOf(containerfile)]);
    expect(imported.status, imported.stderr).toBe(0);
    const image = `localhost/sessionplan-mcp:test-${process.pid}`;
    const build = pod.run(['build', '--format', 'docker', '--network', 'host', '-f', containerfile, '-t', image, ROOT], { timeoutMs: 480_000 });
    expect(build.status, build.stderr.slice(-3_000)).toBe(0);
    const port = await freePort();
    const name = `sessionplan-test-${process.pid}`;
    const started = pod.run(['run', '-d', '--name', name, '--network', 'host', '-e', `PORT=${port}`, '-e', 'HOST=127.0.0.1', image]);
    expect(started.status, started.stderr).toBe(0);
    try {
      let live = false;
      for (let i = 0; i < 100 && !live; i++) {
        live = await fetch(`http://127.0.0.1:${port}/livez`).then((r) => r.ok, () => false);
        if (!live) await new Promise((r) => setTimeout(r, 200));
      }
      expect(live, pod.run(['logs', name]).stdout).toBe(true);
      expect(pod.run(['exec', name, 'id', '-u']).stdout.trim()).toBe('1000');
      expect(pod.run(['healthcheck', 'run', name]).status).toBe(0);
      // Production dependencies only: no compiler, no test tools, no uWebSockets.js.
      const modules = pod.run(['exec', name, 'ls', 'node_modules']).stdout.split('\n');
      expect(modules).toContain('zod');
      for (const only of ['typescript', 'vitest', 'assemblyscript', 'uWebSockets.js']) expect(modules).not.toContain(only);
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
});
