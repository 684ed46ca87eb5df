// Splits a byte stream into newline-delimited messages, never keeping more than one message's cap of bytes.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Lines must be UTF-8 (RFC 8259 §8.1), as HTTP bodies must: a malformed sequence is refused, never read as U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface LineSink {
  /** A complete line as UTF-8 text, without its `\n` (and without a `\r` before it). */
  line(text: string): void;
  /** A complete line that is not valid UTF-8 (its bytes are dropped). */
  notUtf8(): void;
  /** A line grew past the cap: its bytes were dropped as they came, up to its `\n`. Called once per such line. */
  oversized(): void;
}

/**
 * Feed it chunks in order; it calls the sink once per line. A line over `maxBytes` is not buffered: what arrived of it
 * is dropped at once and the rest is skipped up to its newline, so a client that writes 10 MB without a newline costs
 * at most `maxBytes` of memory. A last line without a newline is delivered by end().
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #sink: LineSink;
  /** The current line's bytes so far (chunks or slices of chunks). */
  #parts: Buffer[] = [];
  #length = 0;
  /** Inside a line that went over the cap: skip to its end. */
  #skipping = false;

  constructor(maxBytes: number, sink: LineSink) {
    this.#maxBytes = maxBytes;
    this.#sink = sink;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        this.#take(chunk.subarray(start));
        return;
      }
      this.#take(chunk.subarray(start, end));
      this.#finishLine();
      start = end + 1;
    }
  }

  /** The stream ended: a last line without its newline still counts. */
  end(): void {
    if (this.#length > 0 || this.#skipping) this.#finishLine();
  }

  #take(bytes: Buffer): void {
    if (this.#skipping || bytes.length === 0) return;
    // One byte of slack for a `\r` that a `\n` may still follow (CRLF line ends are not part of the message).
    if (this.#length + bytes.length > this.#maxBytes + 1) {
      this.#parts = [];
      this.#length = 0;
      this.#skipping = true;
      this.#sink.oversized();
      return;
    }
    this.#parts.push(bytes);
    this.#length += bytes.length;
  }

  #finishLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      return;
    }
    let line = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length);
    this.#parts = [];
    this.#length = 0;
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > this.#maxBytes) {
      this.#sink.oversized();
      return;
    }
    if (line.length === 0) return;
    let text: string;
    try {
      text = UTF8.decode(line);
    } catch {
      return this.#sink.notUtf8();
    }
    this.#sink.line(text);
  }
}
