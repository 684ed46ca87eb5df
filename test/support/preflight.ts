// Before any test: the system programs the tests need, found in a moment, or one message with the command that installs
// them (run as root on Debian, it installs them itself, as .ci/run does). `preflight.ts all` checks for test:all too.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromiumPath, DEFAULT_CHROMIUM_PATH } from './chromium-path.js';

interface Need {
  /** What the tests run: a program on PATH, or a file. */
  readonly program: string;
  /** The Debian package that has it. */
  readonly debian: string;
  /** Which tests need it. */
  readonly for: string;
  /** Needed by `npm run test:all` only (test/scale, test/cluster). */
  readonly all?: true;
}

const NEEDS: readonly Need[] = [
  { program: 'redis-server', debian: 'redis-server', for: 'the rate limit over Redis' },
  { program: chromiumPath(), debian: 'chromium', for: 'the page tests; or point CHROMIUM_PATH at a Chromium' },
  { program: 'pdftotext', debian: 'poppler-utils', for: 'the printed plan' },
  { program: 'pdftoppm', debian: 'poppler-utils', for: 'the printed plan' },
  { program: 'redis-sentinel', debian: 'redis-sentinel', for: 'the cluster', all: true },
  { program: 'nginx', debian: 'nginx', for: 'the cluster', all: true },
  { program: 'iptables', debian: 'iptables', for: 'the cluster (a host cut off)', all: true },
  { program: 'podman', debian: 'podman', for: 'the container image', all: true },
  { program: 'runc', debian: 'runc', for: 'the container image', all: true },
  { program: 'debootstrap', debian: 'debootstrap', for: "the container image's Debian base", all: true },
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `program` (a name on PATH, or a path) can be run: the same lookup the shell makes, without starting it. */
function found(program: string): boolean {
  if (program.includes('/')) return executable(program);
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  return dirs.some((dir) => dir !== '' && executable(join(dir, program)));
}

const all = process.argv.includes('all');
const missing = NEEDS.filter((need) => (all || need.all !== true) && !found(need.program));
if (missing.length > 0) {
  const packages = [...new Set(missing.map((need) => need.debian))];
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const root = process.getuid?.() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    console.error(`preflight: installing ${packages.join(', ')} from Debian (${command})`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env }) : update;
    if (install.status !== 0) {
      console.error(`preflight: the install failed; run it yourself: ${command}`);
      process.exit(1);
    }
  } else {
    const what = missing.map((need) => `${need.program === DEFAULT_CHROMIUM_PATH ? 'chromium' : need.program} (for ${need.for})`).join(', ');
    console.error(`The tests need ${what}, which this machine does not have. Install ${packages.length === 1 ? 'it' : 'them'} with:\n  sudo ${command}`);
    process.exit(1);
  }
}
