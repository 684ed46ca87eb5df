// The process logger's batches: every line reaches stdout in order — at exit, on flush(cb) and on the periodic flush.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOGGER = JSON.stringify(new URL('../../src/logging/logger.ts', import.meta.url).href);

interface Run {
  stdout: string;
  /** stdout as it stood when the child wrote "checkpoint" on stderr. */
  atCheckpoint: string | undefined;
  stderr: string;
}

/** Runs `body` in a child process with `logger`, `writeLine` and `stop` from createLogger('info') in scope. */
function runWithLogger(body: string): Promise<Run> {
  const script = `const { createLogger } = await import(${LOGGER}); const { logger, writeLine, stop } = createLogger('info');\n${body}`;
  const child = spawn('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let atCheckpoint: string | undefined;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (atCheckpoint === undefined && stderr.includes('checkpoint')) atCheckpoint = stdout;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`logger child did not exit within 20 s; stderr: ${stderr}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`logger child exited with ${code}: ${stderr}`));
      else resolve({ stdout, atCheckpoint, stderr });
    });
  });
}

/** The `n` of every line, in the order written; every line must be JSON. */
const numbersOf = (stdout: string): number[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { n: number }).n);

/** Access lines (writeLine) and pino's own lines interleaved, numbered 0..count-1, several batches' worth. */
const interleaved = (count: number) =>
  `for (let n = 0; n < ${count}; n++) { if (n % 7 === 0) logger.info({ n }, 'pino'); else writeLine('{"level":30,"n":' + n + ',"msg":"request"}\\n'); }`;

describe('process logger', () => {
  it('writes every line in order when the process exits without a flush', async () => {
    const run = await runWithLogger(`${interleaved(3000)}\nprocess.exit(0);`);
    expect(numbersOf(run.stdout)).toEqual([...Array(3000).keys()]);
  });

  it("calls flush(cb)'s callback only after every line is written", async () => {
    // process.exit right in the callback, as main.ts does once the server has stopped.
    const run = await runWithLogger(`${interleaved(5000)}\nlogger.flush(() => process.exit(0));`);
    expect(numbersOf(run.stdout)).toEqual([...Array(5000).keys()]);
  });

  it('writes a batch that is not full within the flush interval', async () => {
    const run = await runWithLogger(`${interleaved(3)}\nsetTimeout(() => { process.stderr.write('checkpoint\\n'); setTimeout(() => process.exit(0), 300); }, 1600);`);
    expect(numbersOf(run.atCheckpoint ?? '')).toEqual([0, 1, 2]);
  });

  it('hands over what it gathered when stopped, and no longer keeps an exit hook', async () => {
    const run = await runWithLogger(`${interleaved(10)}\nconst before = process.listenerCount('exit');\nstop();\nprocess.stderr.write('hooks ' + (before - process.listenerCount('exit')) + '\\n');\nlogger.flush(() => process.exit(0));`);
    expect(numbersOf(run.stdout)).toEqual([...Array(10).keys()]);
    expect(run.stderr).toContain('hooks 1');
  });
});

/** Runs `body` like runWithLogger, with stdout on `stdout` (an fd), or on a pipe that is only read from `readAfterMs` on. */
function runWithDestination(body: string, stdout: number | { readAfterMs: number }): Promise<{ code: number | null; ms: number; stdout: string; stderr: string }> {
  const script = `const { createLogger } = await import(${LOGGER}); const { logger, writeLine, droppedLines } = createLogger('info');\n${body}`;
  const t0 = performance.now();
  const child = spawn('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', typeof stdout === 'number' ? stdout : 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  if (child.stdout !== null && typeof stdout !== 'number') {
    child.stdout.pause();
    if (Number.isFinite(stdout.readAfterMs)) setTimeout(() => {
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stdout!.resume();
    }, stdout.readAfterMs);
  }
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`logger child did not exit within 20 s; stderr: ${stderr}`));
    }, 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - t0, stdout: out, stderr });
    });
  });
}

/** 100,000 access lines of ~80 bytes: 8 MB, more than a pipe and the sink's queue hold. */
const flood = `for (let n = 0; n < 100000; n++) writeLine('{"level":30,"n":' + n + ',"msg":"request","pad":"${'x'.repeat(40)}"}\\n');`;

describe('process logger: a destination that stalls or fails', () => {
  it('on a pipe nobody reads: writing never blocks, what does not fit is dropped and counted, flush(cb) and exit end in time', async () => {
    const run = await runWithDestination(
      `const t0 = performance.now(); ${flood} const ms = performance.now() - t0;
       logger.flush(() => { process.stderr.write(JSON.stringify({ ms, dropped: droppedLines() }) + '\\n'); process.exit(0); });`,
      { readAfterMs: Number.POSITIVE_INFINITY },
    );
    const report = JSON.parse(run.stderr.trim().split('\n').pop()!) as { ms: number; dropped: number };
    expect(run.code).toBe(0);
    expect(report.dropped).toBeGreaterThan(40_000);
    // 8 MB of lines written while nobody reads, which would block forever on a blocking pipe; then a flush that gives
    // up after its deadline, and an exit that does not wait for the reader.
    expect(report.ms).toBeLessThan(3_000);
    expect(run.ms).toBeLessThan(10_000);
  });

  it('on a full disk (/dev/full): every line is dropped and counted, nothing throws', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const run = await runWithDestination(`${flood} logger.flush(() => { process.stderr.write('dropped ' + droppedLines() + '\\n'); process.exit(0); });`, full);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('dropped 100000');
    } finally {
      closeSync(full);
    }
  });

  it('says once how many lines it dropped when the destination takes lines again', async () => {
    const run = await runWithDestination(
      `${flood} setTimeout(() => { writeLine('{"level":30,"n":-1,"msg":"after"}\\n'); logger.flush(() => process.exit(0)); }, 3_000);`,
      { readAfterMs: 1_500 },
    );
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { droppedLines?: number; msg: string });
    const summaries = lines.filter((line) => line.droppedLines !== undefined);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.droppedLines).toBe(100_000 - lines.filter((line) => line.msg === 'request').length);
    expect(lines.at(-1)!.msg).toBe('after');
  });
});
