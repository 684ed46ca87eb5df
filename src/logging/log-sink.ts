// Where log text goes: stdout through a bounded queue of non-blocking writes; what does not fit or fails is dropped and counted.
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';

/** Log text waiting for a destination that does not take it: past this, new lines are dropped (and counted). */
export const MAX_PENDING_LOG_BYTES = 4 * 1024 * 1024;
/** How often a destination that took nothing is tried again. */
const RETRY_MS = 50;
/** A pipe takes writes up to this size whole (POSIX PIPE_BUF), so lines of several threads never interleave. */
const PIPE_ATOMIC_BYTES = 4096;
/** At exit a slow reader gets this long to take the rest; a stalled one loses it (exit must not hang on a log). */
const EXIT_WRITE_MS = 500;
const EXIT_RETRY_MS = 5;

export interface LogSink {
  /** Queues `text` (whole lines) and writes what the destination takes now; never blocks. */
  write(text: string): void;
  /** Calls `done` once everything queued is written, or after `deadlineMs` if the destination does not take it. */
  flush(done: () => void, deadlineMs: number): void;
  /** At process exit: one last non-blocking attempt. */
  writeAtExit(): void;
  /** Lines dropped since the sink was made (the destination failed, or stalled past MAX_PENDING_LOG_BYTES). */
  readonly droppedLines: number;
  /** Releases the descriptor the sink opened, if any. */
  close(): void;
}

/** Counts '\n' in a string: the lines of a batch being dropped. */
function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** A descriptor for writing to `fd` without blocking, and whether it is a pipe (writes split at PIPE_BUF). */
function nonBlockingTarget(fd: number): { fd: number; pipe: boolean; opened: boolean; keep?: Socket } {
  let stat;
  try {
    stat = fstatSync(fd);
  } catch {
    return { fd, pipe: false, opened: false };
  }
  // A regular file never stalls: a failing one (a full disk) fails at once, and the failure is counted.
  if (stat.isFile()) return { fd, pipe: false, opened: false };
  if (stat.isFIFO() || stat.isCharacterDevice()) {
    // Linux: a new open file description of the same pipe or terminal, non-blocking, leaves fd's own flags alone.
    try {
      return { fd: openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_APPEND), pipe: stat.isFIFO(), opened: true };
    } catch {
      return { fd, pipe: stat.isFIFO(), opened: false };
    }
  }
  // A socket (systemd's journal stream, a container runtime) cannot be re-opened: libuv makes the descriptor itself
  // non-blocking when it wraps it. The wrapper is kept so that it is never collected (and the descriptor closed).
  if (stat.isSocket()) return { fd, pipe: true, opened: false, keep: new Socket({ fd, readable: false, writable: true }).unref() };
  return { fd, pipe: false, opened: false };
}

/**
 * A sink on file descriptor `fd` (stdout by default). Writes are non-blocking: a destination that stalls (a pipe nobody
 * reads) keeps text queued up to MAX_PENDING_LOG_BYTES and is tried again every RETRY_MS; one that fails (a full disk,
 * a closed pipe) drops the batch. The first write that succeeds after drops is preceded by one line that says how many.
 */
export function createLogSink(fd = 1, options: { maxPendingBytes?: number } = {}): LogSink {
  const target = nonBlockingTarget(fd);
  const maxPending = options.maxPendingBytes ?? MAX_PENDING_LOG_BYTES;
  const queue: Buffer[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  /** Drops not yet reported by a summary line. */
  let unreported = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const waiting: (() => void)[] = [];

  const drop = (lines: number): void => {
    dropped += lines;
    unreported += lines;
  };

  /** Writes one piece; returns the bytes taken (0 when the destination is full), or -1 when it failed. */
  const writePiece = (buffer: Buffer): number => {
    try {
      return writeSync(target.fd, buffer);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EAGAIN' ? 0 : -1;
    }
  };

  const summary = (): Buffer =>
    Buffer.from(`{"level":40,"time":${Date.now()},"droppedLines":${unreported},"msg":"log lines were dropped: the log destination was full, stalled or failing"}\n`);

  const pump = (): void => {
    while (queue.length > 0) {
      const head = queue[0]!;
      // Whole lines of at most PIPE_BUF on a pipe: written atomically, never interleaved with another thread's.
      let size = head.length;
      if (target.pipe && size > PIPE_ATOMIC_BYTES) {
        const cut = head.lastIndexOf(10, PIPE_ATOMIC_BYTES - 1);
        if (cut >= 0) size = cut + 1;
      }
      const taken = writePiece(size === head.length ? head : head.subarray(0, size));
      if (taken === 0) break;
      if (taken < 0) {
        queue.shift();
        pendingBytes -= head.length;
        drop(lineCount(head.toString('latin1')));
        continue;
      }
      pendingBytes -= taken;
      if (taken < head.length) {
        queue[0] = head.subarray(taken);
        continue;
      }
      queue.shift();
      // The destination takes text again: the next line says how many it missed.
      if (unreported > 0) {
        const line = summary();
        unreported = 0;
        queue.unshift(line);
        pendingBytes += line.length;
      }
    }
    if (queue.length === 0) {
      for (const done of waiting.splice(0)) done();
      return;
    }
    if (retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        pump();
      }, RETRY_MS);
      retry.unref();
    }
  };

  return {
    write(text) {
      const buffer = Buffer.from(text);
      if (pendingBytes + buffer.length > maxPending) return drop(lineCount(text));
      queue.push(buffer);
      pendingBytes += buffer.length;
      if (retry === undefined) pump();
    },
    flush(done, deadlineMs) {
      if (queue.length === 0) return done();
      let called = false;
      const once = (): void => {
        if (called) return;
        called = true;
        clearTimeout(timer);
        done();
      };
      const timer = setTimeout(once, deadlineMs);
      waiting.push(once);
      pump();
    },
    writeAtExit() {
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const deadline = performance.now() + EXIT_WRITE_MS;
      do {
        clearTimeout(retry);
        retry = undefined;
        pump();
      } while (queue.length > 0 && performance.now() < deadline && Atomics.wait(pause, 0, 0, EXIT_RETRY_MS) !== 'ok');
      clearTimeout(retry);
    },
    get droppedLines() {
      return dropped;
    },
    close() {
      clearTimeout(retry);
      if (target.opened) closeSync(target.fd);
    },
  };
}
