// One request from head to answer, shared by every adapter: refusals before the body, the streaming cap, bounded drains.
import { LIMITS } from '../limits/table.js';
import { bufferedBody, decodedBody, LARGE_BODY_BYTES } from './body.js';
import type { RequestBody } from './body.js';
import type { Exchange, HttpCore } from './core.js';
import type { ClientPresence } from './ports.js';
import { READ_BODY } from './core.js';
import type { TurnJob } from './turn-batch.js';
import type { ReceptionRefusal, Upload } from './reception.js';
import type { HttpRequest, HttpResponse } from './types.js';

/**
 * How the connection ends after an answer. 'keep': keep-alive. 'close': close once the answer is out. 'after-body':
 * the answer says `Connection: close`, but the connection keeps reading (and discarding) the rest of the request body
 * and closes only then: a client that writes its whole body before reading (fetch, node:http, browsers) would
 * otherwise get a reset instead of the answer, because closing a socket with unread data sends RST.
 */
export type CloseMode = 'keep' | 'close' | 'after-body';

/** What an adapter does with the socket of one request. */
export interface ResponseWriter {
  /**
   * Writes status, headers and body (none for HEAD); returns the body's byte length. Calls `response.release` once it
   * no longer needs the body's bytes (after copying or sending them), if the response has one.
   */
  write(response: HttpResponse, close: CloseMode): number;
  /** After an 'after-body' answer, the request body has ended: close the connection gracefully now. */
  closeAfterBody(): void;
  /** Cuts the connection at once (a drain past its bound). */
  destroy(): void;
  /**
   * For a request with `Expect: 100-continue` whose head was accepted: tells the client to send its body. Adapters that
   * answer the expectation themselves leave it out (uWS 20.30 sends 100 before any handler runs).
   */
  continue?(): void;
}

export interface CycleOptions {
  /** True when the server is shutting down: every answer closes its connection. */
  closing(): boolean;
  /** Called once when the request arrives… */
  started(): void;
  /** …and once when it is answered or aborted (in-flight accounting). */
  settled(): void;
}

const EMPTY = new Uint8Array(0);

export class RequestCycle implements ClientPresence, TurnJob {
  readonly #core: HttpCore;
  readonly #exchange: Exchange;
  readonly #writer: ResponseWriter;
  readonly #options: CycleOptions;
  readonly #started = performance.now();
  /** Declared Content-Length, or -1 (chunked, or none). */
  readonly #declared: number;
  #bodyComplete: boolean;
  #mayReadBody = false;
  #handling = false;
  #answered = false;
  #aborted = false;
  #bytesIn = 0;
  /** A small or chunked body's chunks so far. */
  #chunks: Uint8Array[] = [];
  /** A large body with a declared length, copied straight into one pooled buffer as it arrives. */
  #buffer: ArrayBuffer | undefined;
  /** The complete body once handed to the core; released when the request is answered. */
  #body: RequestBody | undefined;
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  /** This request's share of what the server is receiving (reception.ts), from its head decision until its body is complete. */
  #upload: Upload | undefined;
  readonly #expectsContinue: boolean;
  #closeAfterAnswer = false;

  constructor(core: HttpCore, request: HttpRequest, writer: ResponseWriter, options: CycleOptions) {
    this.#core = core;
    this.#writer = writer;
    this.#options = options;
    options.started();
    this.#exchange = core.resolve(request);
    const length = request.headers['content-length'];
    const chunked = request.headers['transfer-encoding'] !== undefined;
    this.#declared = chunked || length === undefined ? -1 : Number(length);
    // A request that declares no body is complete now (uWS reports its empty last chunk only after the microtasks).
    this.#bodyComplete = !chunked && (length === undefined || this.#declared === 0);
    this.#expectsContinue = !this.#bodyComplete && request.headers['expect']?.trim().toLowerCase() === '100-continue';
  }

  /** Runs the head decisions; call once, right after construction and after registering the abort handler. */
  start(): void {
    let decision;
    try {
      decision = this.#core.head(this.#exchange);
    } catch (error) {
      return this.failed(error);
    }
    if (!(decision instanceof Promise)) return this.#decided(decision);
    decision.then(
      (d) => this.#decided(d),
      (error: unknown) => this.failed(error),
    );
  }

  /** A last-resort catch under this request caught `error`: the core reports it, the client gets the generic 500. */
  failed(error: unknown): void {
    this.#respond(this.#core.failed(this.#exchange, error));
  }

  /** A body chunk. `volatile`: the bytes are only valid during this call (uWS), so they are copied when kept. */
  data(chunk: Uint8Array, isLast: boolean, volatile: boolean): void {
    if (this.#aborted) return;
    const offset = this.#bytesIn;
    this.#bytesIn += chunk.byteLength;
    if (this.#answered) return this.#drained(isLast);
    if (this.#bytesIn > this.#core.maxBodyBytes) {
      this.#dropBody();
      return this.#respond(this.#core.bodyTooLarge(this.#exchange), isLast);
    }
    // A body takes its share of what the server receives as its bytes arrive, not as its Content-Length promises.
    if (isLast) this.#releaseReception();
    else if (this.#upload !== undefined && chunk.byteLength > 0) {
      const refusal = this.#upload.take(chunk.byteLength);
      if (refusal !== undefined) return this.#refuseReception(refusal);
    }
    if (this.#declared >= LARGE_BODY_BYTES) return this.#buffered(chunk, offset, isLast);
    const last = isLast && this.#mayReadBody && !this.#handling;
    if (last && this.#chunks.length === 0 && chunk.byteLength < LARGE_BODY_BYTES) {
      this.#bodyComplete = true;
      return this.#run(decodedBody(chunk)); // the only chunk, still valid: decoded without a copy
    }
    // A volatile last chunk is joined synchronously below, so only earlier ones (or a body waiting for head) are copied.
    if (chunk.byteLength > 0) this.#chunks.push(volatile && !(isLast && this.#mayReadBody) ? chunk.slice() : chunk);
    if (!isLast) return;
    this.#bodyComplete = true;
    if (this.#mayReadBody) this.#runWithChunks();
  }

  /** A chunk of a large declared body, copied into its pooled buffer (a longer body than declared moves to a larger one). */
  #buffered(chunk: Uint8Array, offset: number, isLast: boolean): void {
    let buffer = (this.#buffer ??= this.#core.buffers.take(Math.min(this.#declared, this.#core.maxBodyBytes)));
    if (this.#bytesIn > buffer.byteLength) {
      const larger = this.#core.buffers.take(this.#core.maxBodyBytes);
      new Uint8Array(larger).set(new Uint8Array(buffer, 0, offset));
      this.#core.buffers.give(buffer);
      this.#buffer = buffer = larger;
    }
    new Uint8Array(buffer, offset, chunk.byteLength).set(chunk);
    if (!isLast) return;
    this.#bodyComplete = true;
    if (this.#mayReadBody) this.#runWithChunks();
  }

  /** The client went away (read by queues of heavy work, which then skip this request's job). */
  get departed(): boolean {
    return this.#aborted;
  }

  /** The client's rate-limit key (queues of heavy work take clients in turn by it). */
  get client(): string {
    return this.#exchange.client;
  }

  /**
   * The socket layer found the rest of this request malformed (a bad chunk size, a connection ended mid-body): a request
   * still receiving its body is answered 400 and its connection closed; one already being handled keeps its answer.
   */
  interrupt(): void {
    if (this.#aborted || this.#answered || this.#handling) return;
    this.#dropBody();
    this.#respond(this.#core.plainRefusal('bad-request'), true);
  }

  /**
   * What follows this request on its connection is malformed, but the request itself was read whole and has no answer
   * yet: it is answered as usual, with `Connection: close`, and the connection ends after the answer.
   */
  closeAfterAnswer(): void {
    this.#closeAfterAnswer = true;
  }

  /** True while the request has no answer yet (its connection is busy, not idle, whatever it waits for). */
  get pending(): boolean {
    return !this.#answered && !this.#aborted;
  }

  /** The client went away: the answer is dropped, the partial body freed now. */
  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#dropBody();
    clearTimeout(this.#drainTimer);
    if (this.#answered) return;
    this.#answered = true;
    this.#options.settled();
    this.#record(0, 0);
  }

  #decided(decision: HttpResponse | typeof READ_BODY): void {
    if (decision !== READ_BODY) return this.#respond(decision);
    if (!this.#bodyComplete) {
      // What arrived before the decision counts now; the rest as it comes, and an upload that crawls is cut (408).
      this.#upload = this.#core.reception.open(this.#exchange.client, () => this.#tooSlow());
      const refusal = this.#bytesIn > 0 ? this.#upload.take(this.#bytesIn) : undefined;
      if (refusal !== undefined) return this.#refuseReception(refusal);
    }
    this.#mayReadBody = true;
    if (this.#expectsContinue) this.#writer.continue?.();
    if (this.#bodyComplete) this.#runWithChunks();
  }

  /** The body is complete, refused or gone: its bytes no longer count as being received. */
  #releaseReception(): void {
    this.#upload?.end();
    this.#upload = undefined;
  }

  /** The server's budget, or this client's share of it, has no room for more of this body: 429, connection closed. */
  #refuseReception(refusal: ReceptionRefusal): void {
    this.#dropBody();
    this.#respond(this.#core.receptionFull(this.#exchange, refusal));
  }

  /** The body arrives slower than the server's minimum rate: 408, connection closed. */
  #tooSlow(): void {
    if (this.#aborted || this.#answered) return;
    this.#dropBody();
    this.#respond(this.#core.uploadTooSlow(this.#exchange));
  }

  #runWithChunks(): void {
    if (this.#buffer !== undefined) {
      const buffer = this.#buffer;
      this.#buffer = undefined;
      return this.#run(bufferedBody(buffer, this.#bytesIn, this.#core.buffers));
    }
    const chunks = this.#chunks;
    this.#chunks = [];
    if (chunks.length <= 1 && this.#bytesIn < LARGE_BODY_BYTES) return this.#run(decodedBody(chunks[0] ?? EMPTY));
    // Several chunks (a chunked upload, or a body that arrived before the head was decided): joined once, a large
    // body in a pooled buffer.
    const large = this.#bytesIn >= LARGE_BODY_BYTES;
    const buffer = large ? this.#core.buffers.take(this.#bytesIn) : new ArrayBuffer(this.#bytesIn);
    let offset = 0;
    for (const part of chunks) {
      new Uint8Array(buffer, offset, part.byteLength).set(part);
      offset += part.byteLength;
    }
    const bytes = new Uint8Array(buffer, 0, this.#bytesIn);
    this.#run(large ? bufferedBody(buffer, this.#bytesIn, this.#core.buffers) : decodedBody(bytes));
  }

  #run(body: RequestBody): void {
    if (this.#handling || this.#answered) return body.release();
    this.#handling = true;
    this.#body = body;
    this.#core.turns.add(this);
  }

  /** Hands the complete body to the core: at once, or with the others of this event-loop turn (turn-batch.ts). */
  begin(): void {
    const body = this.#body;
    if (this.#answered || body === undefined) return; // aborted while waiting for its turn (abort freed the body)
    this.#core.handle(this.#exchange, body, this).then(
      (response) => this.#respond(response),
      (error: unknown) => this.failed(error), // the routes answer their own failures: a last guard
    );
  }

  /** Frees what the body holds: its chunks, and its pooled buffer (back to the pool unless a thread took it). */
  #dropBody(): void {
    this.#releaseReception();
    this.#chunks = [];
    if (this.#buffer !== undefined) this.#core.buffers.give(this.#buffer);
    this.#buffer = undefined;
    this.#body?.release();
    this.#body = undefined;
  }

  /** `lastChunkSeen`: the chunk that crossed the cap was also the last one (nothing left to drain). */
  #respond(response: HttpResponse, lastChunkSeen = false): void {
    if (this.#aborted || this.#answered) return response.release?.();
    this.#answered = true;
    this.#dropBody();
    const bodyPending = !this.#bodyComplete && !lastChunkSeen;
    let mode: CloseMode = response.closeConnection === true || this.#closeAfterAnswer || this.#options.closing() ? 'close' : 'keep';
    // A client that waits for 100 Continue never sends the body it was refused: nothing to drain.
    const bodyWithheld = this.#expectsContinue && !this.#mayReadBody;
    if (bodyPending) mode = this.#declared > LIMITS.drainBytes.value || response.closeConnection === true || bodyWithheld ? 'close' : 'after-body';
    const bytesOut = this.#writer.write(response, mode);
    this.#options.settled();
    this.#record(response.status, bytesOut);
    if (mode === 'after-body') {
      this.#drainTimer = setTimeout(() => this.#writer.destroy(), LIMITS.drainTimeout.value);
      this.#drainTimer.unref?.();
    }
  }

  #drained(isLast: boolean): void {
    if (this.#drainTimer === undefined) return; // answered with keep/close: nothing is being drained
    if (isLast) {
      clearTimeout(this.#drainTimer);
      this.#drainTimer = undefined;
      this.#writer.closeAfterBody();
    } else if (this.#bytesIn > LIMITS.drainBytes.value) {
      clearTimeout(this.#drainTimer);
      this.#drainTimer = undefined;
      this.#writer.destroy();
    }
  }

  #record(status: number, bytesOut: number): void {
    const { id, request, route } = this.#exchange;
    this.#core.observer.requestCompleted({
      requestId: id,
      method: request.method,
      path: request.path,
      route: route.label,
      status,
      bytesIn: this.#bytesIn,
      bytesOut,
      durationMs: performance.now() - this.#started,
      aborted: status === 0,
    });
  }
}
