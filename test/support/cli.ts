// Test helper: the built CLI (`node dist/cli.js`) as a real subprocess on the Node running the tests.
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio, ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args`, `stdin` as its input; PUBLIC_BASE_URL only when `env` sets it. */
export function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    if (!options.env?.PUBLIC_BASE_URL) delete env.PUBLIC_BASE_URL;
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
    collectRun(child).then(resolve, reject);
    child.stdin.end(options.stdin ?? '');
  });
}

/** The exit status and all output of a started child process. */
export function collectRun(child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
