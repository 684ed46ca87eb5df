// The process's pino logger: JSON lines on stdout, written in batches (one write per request would cost ~8 % of one).
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { LogLevel } from '../config.js';

/** Log lines are written in batches of this many bytes. */
const LOG_BATCH_BYTES = 4096;
/**
 * sonic-boom measures its last pending string (Buffer.byteLength, which flattens it) on every write, and lets it grow to
 * maxWrite (16 KiB by default) while a write is in flight; capping it just above the batch size saves ~1 µs per line.
 */
const LOG_MAX_WRITE_BYTES = LOG_BATCH_BYTES + 512;
/** Batched lines reach stdout at the latest after this long. */
const LOG_FLUSH_INTERVAL_MS = 1000;

/**
 * JSON lines on stdout, batched; `stop()` ends the periodic flush (pino flushes the rest when the process exits).
 * `writeLine` writes a line the caller built in pino's format straight to the same destination (the access log).
 */
export function createLogger(level: LogLevel): { logger: Logger; writeLine(line: string): void; stop(): void } {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, maxWrite: LOG_MAX_WRITE_BYTES });
  const logger = pino({ level, base: undefined }, destination);
  const timer = setInterval(() => logger.flush(), LOG_FLUSH_INTERVAL_MS);
  timer.unref();
  return { logger, writeLine: (line) => destination.write(line), stop: () => clearInterval(timer) };
}
