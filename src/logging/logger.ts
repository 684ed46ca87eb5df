// The process's pino logger: JSON lines gathered into batches and handed to a log sink that never blocks the server.
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { createLogSink } from './log-sink.js';
import type { LogSink } from './log-sink.js';

/** pino's levels, as LOG_LEVEL names them. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Lines are handed to the sink in batches of this many characters (~110 access-log lines): one write per batch instead
 * of one per line.
 */
const LOG_BATCH_CHARS = 16_384;
/** Batched lines reach stdout at the latest after this long. */
const LOG_FLUSH_INTERVAL_MS = 1000;
/** flush(cb) waits at most this long for a destination that does not take the lines (shutdown must not hang on it). */
export const LOG_FLUSH_DEADLINE_MS = 2000;

/** pino's destination: collects lines into one string and hands the sink a batch at a time, in order. */
class LineBatches implements DestinationStream {
  #pending = '';

  constructor(private readonly sink: LogSink) {}

  write(line: string): void {
    this.#pending += line;
    if (this.#pending.length >= LOG_BATCH_CHARS) this.handOver();
  }

  /** What pino's `logger.flush(cb)` calls: the callback runs once everything is written, or after the deadline. */
  flush(callback?: (error?: Error) => void): void {
    this.handOver();
    this.sink.flush(() => callback?.(), LOG_FLUSH_DEADLINE_MS);
  }

  handOver(): void {
    if (this.#pending === '') return;
    const batch = this.#pending;
    this.#pending = '';
    this.sink.write(batch);
  }

  /** At process exit: what is gathered, in one last attempt that cannot block. */
  readonly writeRestAtExit = (): void => {
    this.handOver();
    this.sink.writeAtExit();
  };
}

export interface ProcessLogger {
  logger: Logger;
  /** Writes a line the caller built in pino's format straight to the same batches (the access log). */
  writeLine(line: string): void;
  /** Lines this logger dropped because stdout was full, stalled or failing (a metric). */
  droppedLines(): number;
  /** Ends the periodic flush and hands over what is gathered. */
  stop(): void;
}

/** JSON lines on stdout (or `fd`), batched, through a sink that drops and counts what the destination does not take. */
export function createLogger(level: LogLevel, fd = 1): ProcessLogger {
  const sink = createLogSink(fd);
  const batches = new LineBatches(sink);
  const logger = pino({ level, base: undefined }, batches);
  const timer = setInterval(() => batches.handOver(), LOG_FLUSH_INTERVAL_MS);
  timer.unref();
  process.on('exit', batches.writeRestAtExit);
  return {
    logger,
    writeLine: (line) => batches.write(line),
    droppedLines: () => sink.droppedLines,
    stop: () => {
      clearInterval(timer);
      process.off('exit', batches.writeRestAtExit);
      batches.handOver();
    },
  };
}
