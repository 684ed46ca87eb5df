// The uWebSockets.js adapter, the only file that imports it: loads the native binary, copies requests out, writes corked.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { STATUS_CODES } from 'node:http';
import type { HttpResponse as UwsResponse, HttpRequest as UwsRequest, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { RequestCycle } from '../http/request-cycle.js';
import type { CloseMode, ResponseWriter } from '../http/request-cycle.js';
import { ServerLifecycle } from '../http/server-lifecycle.js';
import type { ListeningServer } from '../http/server-lifecycle.js';
import type { HttpResponse } from '../http/types.js';
import type { AnswerBacklog, BacklogConnection } from '../http/answer-backlog.js';
import { TransportError } from './types.js';
import type { HonouredLimits, ListenOptions, Transport } from './types.js';

type Uws = typeof import('uWebSockets.js');

const PACKAGE = 'uWebSockets.js';

/** uWS cannot serve in this installation; `remedy` is the sentence that tells the operator what to do about it. */
export class UwsUnavailableError extends TransportError {
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }
}

/** How package.json names the pinned build (an npm alias), so the install hint stays what `npm ci` would install. */
function pinnedSpec(require: NodeJS.Require): string {
  try {
    const own = require('../../package.json') as { optionalDependencies?: Record<string, string> };
    return own.optionalDependencies?.[PACKAGE] ?? 'npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0';
  } catch {
    return 'npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0';
  }
}

/**
 * The package silently falls back to a node:http reimplementation when its binary does not load, and that fallback
 * lacks what this adapter relies on (remote address, corking). So the binary for this Node ABI is required directly:
 * it either loads natively or throws (docs/deployment.md, "Node versions and socket adapters"). The package itself is an
 * optional dependency (113 MB of binaries for Node versions it mostly cannot load on): an install with
 * `--omit=optional` has none, and that is said as such.
 */
export function loadNativeUws(): { uws: Uws; version: string } {
  const require = createRequire(import.meta.url);
  // Found by its folder, not through require.resolve: newer builds have an `exports` map that hides their files.
  const folder = (require.resolve.paths(PACKAGE) ?? []).map((modules) => join(modules, PACKAGE)).find((candidate) => existsSync(join(candidate, 'package.json')));
  if (folder === undefined) {
    throw new UwsUnavailableError(
      `${PACKAGE} is not installed (an optional dependency, left out by npm install --omit=optional)`,
      `On Node 20, install it with \`npm install ${PACKAGE}@${pinnedSpec(require)}\``,
    );
  }
  // The pinned build keeps its binaries in binaries/, newer ones beside their package.json.
  const file = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  const binary = [join(folder, 'binaries', file), join(folder, file)].find((candidate) => existsSync(candidate));
  let uws: Uws;
  try {
    if (binary === undefined) throw new Error('Cannot find module');
    uws = require(binary) as Uws;
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? '';
    throw new UwsUnavailableError(
      `uWebSockets.js has no native binary that loads on Node ${process.version} (ABI ${process.versions.modules}, ${process.platform}-${process.arch}): ${reason.includes('Cannot find module') ? 'none is shipped for this ABI' : reason}`,
      'Use Node 20 for the pinned uWebSockets.js build',
    );
  }
  const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
  return { uws, version: `uWebSockets.js ${version}` };
}

/** uWS 20.30 closes idle connections after its own fixed ~10 s and has no hook at accept time, so it has no connection caps. */
export const UWS_HONOURS: HonouredLimits = { idleTimeoutS: 10, maxConnections: 0, maxConnectionsPerClient: 0 };

/** uWS writes the status verbatim after "HTTP/1.1 ", so it needs the reason phrase. */
const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`));
  return line;
}

/** uSockets' default listen options: SO_REUSEPORT on Linux, so several worker threads can bind one port. */
const SHARED_PORT = 0;

type ListenCallback = (token: us_listen_socket | false) => void;

function bodyLength(body: string | Uint8Array | null): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

const ENCODER = new TextEncoder();
/** Text bodies up to this size are encoded into one reused buffer; longer ones (offloaded answers are bytes) get their own. */
const SCRATCH_BYTES = 256 * 1024;
const scratch = new Uint8Array(SCRATCH_BYTES);

/**
 * A body as UTF-8, encoded once: uWS would otherwise convert a string itself after the access log had measured it.
 * The scratch buffer is reused at once, which is safe because uWS copies what it does not send before end() returns.
 */
function utf8(body: string | Uint8Array): Uint8Array {
  if (typeof body !== 'string') return body;
  if (body.length * 3 > SCRATCH_BYTES) return Buffer.from(body);
  return scratch.subarray(0, ENCODER.encodeInto(body, scratch).written);
}

/**
 * The headers req.forEach is copying into. forEach calls back synchronously, so one module-level callback serves every
 * request instead of a closure made per request (docs/architecture.md, "The request path").
 */
const COPIED: Record<string, string> = Object.freeze({}) as Record<string, string>;
let copying = COPIED;
/** Header lines copied so far of the request being copied. */
let copiedLines = 0;
function copyHeader(name: string, value: string): void {
  const prior = copying[name];
  copying[name] = prior === undefined ? value : `${prior}, ${value}`;
  copiedLines++;
}

/** Header names lower-case (as uWS gives them), repeats joined with ', ' (what the node:http adapter hands over too). */
function copyHeaders(req: UwsRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  copying = headers;
  copiedLines = 0;
  req.forEach(copyHeader);
  // Not left pointing at this request's headers (a frozen empty object: nothing can be written there by mistake).
  copying = COPIED;
  return headers;
}

/** uWS gives the method lower-case; the common ones map to constants instead of a new string per request. */
function upperCaseMethod(method: string): string {
  switch (method) {
    case 'post':
      return 'POST';
    case 'get':
      return 'GET';
    case 'options':
      return 'OPTIONS';
    case 'head':
      return 'HEAD';
    default:
      return method.toUpperCase();
  }
}

/**
 * Answers from this size on are written with tryEnd: what the socket does not take at once stays with the writer (not
 * in uWS's own buffer) and counts against the answer backlog until onWritable sends it (http/answer-backlog.ts).
 */
const STREAMED_MIN_BYTES = 16 * 1024;

/** What writeCorked writes: set right before res.cork, which calls back synchronously (one callback, no closure). */
let corked: { res: UwsResponse; response: HttpResponse; body: Uint8Array | null; head: boolean; close: boolean; connectionClose: boolean; streamed: boolean } | undefined;
/** After a streamed write: whether tryEnd sent the whole answer, and the write offset before it. */
let streamedDone = true;
let streamedStart = 0;
function writeCorked(): void {
  const { res, response, body, head, close, connectionClose, streamed } = corked!;
  res.writeStatus(statusLine(response.status));
  for (const name in response.headers) res.writeHeader(name, response.headers[name] as string);
  if (connectionClose && !close) res.writeHeader('connection', 'close');
  if (body === null && (response.status === 204 || response.status === 304)) res.endWithoutBody();
  // uWS 20.30 leaves a keep-alive connection unusable after endWithoutBody(length): the next request on it
  // gets no answer (found by the protocol fuzz, test/scale/fuzz.test.ts), so HEAD closes its connection.
  else if (head) res.endWithoutBody(body?.byteLength ?? 0, true);
  else if (streamed) {
    streamedStart = res.getWriteOffset();
    streamedDone = res.tryEnd(body!, body!.byteLength)[1];
  } else res.end(body ?? '', close);
}

/** The part of the module's scratch buffer a short answer was encoded into (it is reused by the next answer). */
const inScratch = (body: Uint8Array): boolean => body.buffer === scratch.buffer;

/** Writes one request's answer to its uWS response. */
class UwsWriter implements ResponseWriter, BacklogConnection {
  /** Set by the adapter's onAborted: from then on `res` must never be touched. */
  #aborted = false;
  #ended = false;
  /** A chunked body refused before its end: its answer waits until the body is drained (uWS cannot cut after end). */
  #held: HttpResponse | undefined;
  readonly #res: UwsResponse;
  readonly #head: boolean;
  readonly #chunked: boolean;
  readonly #backlog: AnswerBacklog;
  /** An answer the socket has not taken whole yet: its bytes, the write offset it started at, what is left to send. */
  #streaming: { body: Uint8Array; start: number; left: number; release: (() => void) | undefined } | undefined;

  constructor(res: UwsResponse, method: string, chunked: boolean, backlog: AnswerBacklog) {
    this.#res = res;
    this.#head = method === 'HEAD';
    this.#chunked = chunked;
    this.#backlog = backlog;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** onAborted: the connection is gone; an answer still being sent is dropped and its bytes freed. */
  abort(): void {
    this.#aborted = true;
    const streaming = this.#streaming;
    if (streaming === undefined) return;
    this.#streaming = undefined;
    this.#backlog.closed(this);
    streaming.release?.();
  }

  sentBytes(): number {
    const streaming = this.#streaming;
    return streaming === undefined ? 0 : streaming.body.byteLength - streaming.left;
  }

  cut(): void {
    if (!this.#aborted) this.#res.close();
  }

  write(response: HttpResponse, mode: CloseMode): number {
    // 'after-body' with a declared length: answer now and let uWS parse (and drop) the rest of the declared body.
    // A chunked body has no bound uWS enforces, so its answer is held until the drain ends (or is cut).
    if (mode === 'after-body' && this.#chunked) {
      this.#held = response;
      return this.#head ? 0 : bodyLength(response.body);
    }
    const bytes = this.#end(response, mode === 'close', mode === 'after-body');
    return this.#head ? 0 : bytes;
  }

  closeAfterBody(): void {
    if (this.#held !== undefined) void this.#end(this.#held, true, true);
  }

  destroy(): void {
    if (this.#held !== undefined) void this.#end(this.#held, true, true);
    else if (!this.#ended && !this.aborted) this.#res.close();
  }

  /** Writes the answer; returns its body's length in bytes. */
  #end(response: HttpResponse, close: boolean, connectionClose: boolean): number {
    if (this.aborted || this.#ended) {
      response.release?.();
      return 0;
    }
    this.#ended = true;
    const body = response.body === null ? null : utf8(response.body);
    // A large keep-alive answer goes out as far as the socket takes it; an answer that closes its connection goes whole.
    const streamed = body !== null && body.byteLength >= STREAMED_MIN_BYTES && !close && !this.#head;
    corked = { res: this.#res, response, body, head: this.#head, close, connectionClose, streamed };
    try {
      this.#res.cork(writeCorked);
    } finally {
      corked = undefined;
    }
    if (streamed && !streamedDone) {
      // The socket is full: the rest waits here (in bytes of its own, as the scratch buffer is reused) for onWritable.
      const kept = inScratch(body) ? body.slice() : body;
      const left = kept.byteLength - (this.#res.getWriteOffset() - streamedStart);
      this.#streaming = { body: kept, start: streamedStart, left, release: response.release };
      this.#res.onWritable((offset) => this.#resume(offset));
      // The whole answer is held (its buffer, pooled or not) until the socket has it: that is what counts.
      this.#backlog.add(this, kept.byteLength);
      return body.byteLength;
    }
    // uWS has sent the body or copied what the socket did not take yet: the bytes are free again.
    response.release?.();
    return body?.byteLength ?? 0;
  }

  /** onWritable: sends on from `offset`; true when the socket took all it was given (uWS's contract). */
  #resume(offset: number): boolean {
    const streaming = this.#streaming;
    if (streaming === undefined || this.#aborted) return true;
    const [ok, done] = this.#res.tryEnd(streaming.body.subarray(offset - streaming.start), streaming.body.byteLength);
    streaming.left = done ? 0 : streaming.body.byteLength - (this.#res.getWriteOffset() - streaming.start);
    if (done) {
      this.#streaming = undefined;
      this.#backlog.closed(this);
      streaming.release?.();
    }
    return ok;
  }
}

export function createUwsTransport(): Transport {
  const { uws, version } = loadNativeUws();
  const exclusivePort = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
  /** `listen(host, port, flags, cb)` exists at runtime in 20.30; the typings only declare `listen(port, flags, cb)`. */
  const listen = (app: TemplatedApp, host: string, port: number, flags: number, cb: ListenCallback): void =>
    (app.listen as unknown as (host: string, port: number, flags: number, cb: ListenCallback) => void).call(app, host, port, flags, cb);
  const closeApp = (app: TemplatedApp): void => (app as TemplatedApp & { close?: () => void }).close?.();

  return {
    name: 'uws',
    version,
    honours: UWS_HONOURS,
    probeExclusivePort(host, port) {
      const app = uws.App();
      return new Promise((resolve, reject) => {
        listen(app, host, port, exclusivePort, (token) => {
          if (token === false) {
            closeApp(app);
            return reject(new TransportError(`Cannot listen on ${host}:${port} (address in use or not available).`));
          }
          const bound = uws.us_socket_local_port(token);
          uws.us_listen_socket_close(token);
          closeApp(app);
          resolve(bound);
        });
      });
    },

    listen(options: ListenOptions): Promise<ListeningServer> {
      const { core } = options;
      const app = uws.App();
      const lifecycle = new ServerLifecycle();
      const cycleOptions = lifecycle.cycleOptions;

      app.any('/*', (res: UwsResponse, req: UwsRequest) => {
        // 1. uWS's HttpRequest lives on the C++ stack: copy everything before any await.
        const headers = copyHeaders(req);
        const method = upperCaseMethod(req.getMethod());
        // uWS 20.30 parses HTTP/1.1 request lines only (docs/deployment.md): every request that gets here is one.
        const request = { method, path: req.getUrl(), headers, socketAddress: Buffer.from(res.getRemoteAddressAsText()).toString(), httpVersion: '1.1', headerLines: copiedLines };
        const writer = new UwsWriter(res, method, headers['transfer-encoding'] !== undefined, core.backlog);
        const cycle = new RequestCycle(core, request, writer, cycleOptions);
        // 2. onAborted before anything can return or await; after it fires `res` must never be touched.
        res.onAborted(() => {
          writer.abort();
          cycle.abort();
        });
        // 3. The body, chunk by chunk; each ArrayBuffer is detached when this callback returns (volatile).
        res.onData((chunk, isLast) => cycle.data(new Uint8Array(chunk), isLast, true));
        cycle.start();
      });

      return new Promise((resolve, reject) => {
        // Exclusive unless asked: without it SO_REUSEPORT lets a second server silently share a busy port.
        listen(app, options.host, options.port, options.sharedPort === true ? SHARED_PORT : exclusivePort, (token) => {
          if (token === false) return reject(new TransportError(`Cannot listen on ${options.host}:${options.port} (address in use or not available).`));
          resolve(
            lifecycle.listening(uws.us_socket_local_port(token), {
              stopAccepting: () => uws.us_listen_socket_close(token),
              // Connections still open (idle keep-alive ones) would otherwise hold the event loop for uWS's idle timeout.
              closeAll: () => closeApp(app),
            }),
          );
        });
      });
    },
  };
}
