// The MCP handler over a byte stream (stdio): one JSON-RPC message per line in, one answer per line out, nothing else.
import { rpcError } from '../mcp/errors.js';
import type { McpHttpRequest, McpHttpResponse } from '../mcp/handler.js';
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
}

/** What the transport answers for a line over the cap: the owner's 413 row (-32600), in a stream's words. */
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

  constructor(options: StreamServerOptions) {
    this.#options = options;
    this.#oversized = `${oversizedMessageError(options.maxMessageBytes)}\n`;
    this.#lines = new LineSplitter(options.maxMessageBytes, {
      line: (text) => this.#enqueue(text),
      oversized: () => this.#enqueue(undefined),
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

  /** A message (or `undefined` for a line over the cap) is answered after everything before it. */
  #enqueue(text: string | undefined): void {
    if (text !== undefined && BLANK.test(text)) return;
    this.#last = this.#last.then(() => (text === undefined ? this.#options.write(this.#oversized) : this.#answer(text)));
  }

  async #answer(text: string): Promise<void> {
    let response: McpHttpResponse;
    try {
      response = await this.#options.handle({ headers: this.#headers, body: text });
    } catch {
      // The handler answers every failure itself; this only keeps a broken promise from stopping the stream.
      response = { status: 200, body: rpcError('internalError', null).body };
    }
    if (response.negotiated !== undefined) this.#headers = { [HEADER.protocolVersion]: response.negotiated };
    if (response.body !== null) this.#write(response.body);
  }

  #write(body: JsonText): void {
    this.#options.write(`${typeof body === 'string' ? body : joinText(body)}\n`);
  }
}
