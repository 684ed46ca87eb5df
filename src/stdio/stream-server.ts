// The MCP handler over a byte stream (stdio): one JSON-RPC message per line in, one answer per line out, nothing else.
import { rpcError } from '../mcp/errors.js';
import { refuseUnparsed } from '../mcp/handler.js';
import type { McpHttpRequest, McpHttpResponse } from '../mcp/handler.js';
import { costlyBodyProblem } from '../http/body-guard.js';
import type { OnUnexpected } from '../http/ports.js';
import { HEADER } from '../mcp/headers.js';
import { joinText, type JsonText } from '../session/json-pieces.js';
import { LineSplitter } from './lines.js';

export interface StreamServerOptions {
  /** The MCP handler, made with `transport: 'stream'`. */
  handle(request: McpHttpRequest): Promise<McpHttpResponse>;
  /** Writes one answer line (a JSON-RPC message and its `\n`). */
  write(line: string): void;
  /** The longest message, in bytes; a longer line gets the JSON-RPC error and is dropped as it arrives. */
  maxMessageBytes: number;
  /**
   * Called before each answer: a promise while the answers already written wait for a slow reader beyond their bound
   * (the next message is answered once it resolves), undefined when the output takes more now.
   */
  outputReady?(): Promise<void> | undefined;
  /**
   * Called with true once the messages read but not yet answered reach QUEUED_INPUT_MESSAGES (stop reading input), and
   * with false once they are answered (read again): a client that writes faster than it reads cannot grow the queue.
   */
  pauseInput?(pause: boolean): void;
  /** Where a failure under a message goes (its number counts the stream's messages from 1); the client gets -32603. */
  onUnexpected?: OnUnexpected;
}

/** Messages read and waiting for their answer, past which input pauses. */
export const QUEUED_INPUT_MESSAGES = 16;

/** What the transport answers for a line that is not UTF-8: a parse error, as HTTP answers such a body. */
const NOT_UTF8_ERROR = `${rpcError('malformedJson', null, 'the message is not valid UTF-8').body}\n`;

/** What the transport answers for a line over the cap: the 413 row of docs/http-api.md (-32600), in a stream's words. */
export function oversizedMessageError(maxMessageBytes: number): string {
  const limit = maxMessageBytes.toLocaleString('en-US');
  return rpcError('invalidRequest', null, `the message is longer than ${limit} bytes; send each JSON-RPC message of at most ${limit} bytes on one line`).body;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const BLANK = /^[ \t]*$/;

/**
 * Reads messages from `push`ed chunks and answers them one after another, in the order they came. The handler's work is
 * CPU on this thread either way, so answering in order costs nothing, and a message sees the effect of every message
 * before it. A stream is one client's connection, so it keeps what HTTP clients repeat in headers: the revision a
 * legacy `initialize` negotiated, which then shapes every later legacy result (an HTTP client sends it as
 * MCP-Protocol-Version). Notifications are answered with nothing.
 */
export class McpStreamServer {
  readonly #options: StreamServerOptions;
  readonly #lines: LineSplitter;
  readonly #oversized: string;
  #headers: Readonly<Record<string, string>> = NO_HEADERS;
  /** The end of the last message's answer: each message starts after it. */
  #last: Promise<void> = Promise.resolve();
  /** Messages read and not answered yet. */
  #queued = 0;
  #inputPaused = false;
  /** Messages read so far: the number of each, for the log line of a failure under it. */
  #messages = 0;

  constructor(options: StreamServerOptions) {
    this.#options = options;
    this.#oversized = `${oversizedMessageError(options.maxMessageBytes)}\n`;
    this.#lines = new LineSplitter(options.maxMessageBytes, {
      line: (text) => {
        if (BLANK.test(text)) return;
        const number = ++this.#messages;
        this.#enqueue(() => this.#answer(text, number));
      },
      notUtf8: () => this.#enqueue(() => this.#options.write(NOT_UTF8_ERROR)),
      oversized: () => this.#enqueue(() => this.#options.write(this.#oversized)),
    });
  }

  push(chunk: Buffer): void {
    this.#lines.push(chunk);
  }

  /** The input ended: a last line without newline is still answered. Resolves once every answer is written. */
  end(): Promise<void> {
    this.#lines.end();
    return this.#last;
  }

  /** The answer to one line (a message, or the error for input refused as it was read), after everything before it. */
  #enqueue(answer: () => Promise<void> | void): void {
    this.#queued++;
    if (this.#queued >= QUEUED_INPUT_MESSAGES && !this.#inputPaused) {
      this.#inputPaused = true;
      this.#options.pauseInput?.(true);
    }
    this.#last = this.#last.then(async () => {
      await this.#options.outputReady?.();
      await answer();
      this.#queued--;
      if (this.#inputPaused && this.#queued < QUEUED_INPUT_MESSAGES / 2) {
        this.#inputPaused = false;
        this.#options.pauseInput?.(false);
      }
    });
  }

  async #answer(text: string, number: number): Promise<void> {
    const costly = costlyBodyProblem(text);
    if (costly !== undefined) return this.#write(refuseUnparsed(this.#headers, 'invalidRequest', costly).body!);
    let response: McpHttpResponse;
    try {
      response = await this.#options.handle({ headers: this.#headers, body: text });
    } catch (error) {
      // The handler answers every failure itself; this keeps a broken promise from stopping the stream, and says so.
      response = { status: 200, body: rpcError('internalError', null).body, unexpected: error ?? new Error('a failure without an error value') };
    }
    if (response.unexpected !== undefined) this.#options.onUnexpected?.(response.unexpected, { route: 'stdio', requestId: number });
    if (response.negotiated !== undefined) this.#headers = { [HEADER.protocolVersion]: response.negotiated };
    if (response.body !== null) this.#write(response.body);
  }

  #write(body: JsonText): void {
    this.#options.write(`${typeof body === 'string' ? body : joinText(body)}\n`);
  }
}
