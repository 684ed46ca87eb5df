// Heavy POSTs (large bodies, decodes) answered in worker threads, so that no request holds the event loop for long.
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { Codec } from '../codec/types.js';
import type { AppViewDocument } from '../mcp/app-view.js';
import { LARGE_BODY_BYTES } from '../http/body.js';
import type { RequestBody } from '../http/body.js';
import { ServerBusyError } from '../http/ports.js';
import type { AnalyticsEvent, ClientPresence } from '../http/ports.js';
import { headersRuleOutTool } from '../mcp/modern.js';
import { costlyJsonShape } from '../session/limits.js';
import { parseLink } from '../session/link.js';
import { spawnThread, threadEntry } from './threads.js';

/**
 * Bodies from this size on can cost more than a few ms (JSON.parse alone is ~10 ms per MB here), so they go to a thread,
 * as the bytes they arrived in (http/body.ts assembles bodies this large in a pooled buffer). Below it a create costs
 * well under 2 ms, less than a round trip to a thread would save.
 */
export const OFFLOAD_MIN_BODY_BYTES = LARGE_BODY_BYTES;
/** A thread's answers from this length on come back as UTF-8 bytes in the job's buffer rather than as a cloned string. */
export const BYTES_ANSWER_MIN_CHARS = 64 * 1024;
/**
 * A decode's cost follows what its link expands to, not the link's size: a 3.5 KB link can hold 1.8 MB of JSON (30–80 ms
 * of work). A link under this size expands to at most ~100,000 characters (LZW: n codes give at most n²/2 units), so
 * only decodes of longer bodies are looked at.
 */
export const OFFLOAD_MIN_DECODE_CHARS = 1024;
/**
 * …and of those, the ones whose link expands to this many characters or more go to a thread. Finding out costs one
 * decompression on the event loop that never makes its text (~1.5 ms per MB of output, bounded by the codec's
 * budget), far less than a round trip to a thread costs every ordinary decode (~180 µs of CPU for a 2 KB link, about
 * doubling it).
 */
export const OFFLOAD_MIN_EXPANDED_CHARS = 64 * 1024;
/**
 * Jobs waiting for a thread, at most (per thread), and the bytes of their bodies, at most (per thread: sixteen
 * bodies at the 2 MB cap). Beyond either the POST is answered 429 with Retry-After, so a flood of large requests costs
 * bounded memory and a bounded wait instead of a queue that grows with the flood.
 */
export const MAX_QUEUED_JOBS_PER_THREAD = 64;
export const MAX_QUEUED_BYTES_PER_THREAD = 32 * 1024 * 1024;
/**
 * Jobs handed to one thread at a time: two, so that the thread starts the next as soon as it posts an answer (with
 * one, it would idle for a round trip per job: small decodes ran at half the throughput). The rest wait here, where
 * the jobs of clients that went away can still be dropped.
 */
export const MAX_IN_FLIGHT_PER_THREAD = 2;
/** Retry-After of that 429: a queue of full-size jobs drains in about this long. */
export const BUSY_RETRY_AFTER_S = 2;

export type OffloadKind = 'mcp' | 'create' | 'decode';

/** A job: the request's headers and its body, the first `length` bytes of `buffer` (transferred to the thread). */
export interface OffloadJob {
  readonly id: number;
  readonly kind: OffloadKind;
  readonly headers: Readonly<Record<string, string>>;
  readonly buffer: ArrayBuffer;
  readonly length: number;
}

/** A thread's message: `ready` once after start-up, then one reply per job. */
export type OffloadMessage = { readonly ready: true } | OffloadReply;

/**
 * A thread's answer. The job's buffer always comes back (transferred): holding the answer as UTF-8 in its first
 * `answerBytes` bytes for a long answer (then `body` is null), or only to go back to the pool. It may be a larger
 * buffer than the job's when the answer did not fit.
 */
export interface OffloadReply {
  readonly id: number;
  readonly status: number;
  readonly body: string | null;
  readonly buffer?: ArrayBuffer;
  readonly answerBytes?: number;
  readonly events: readonly AnalyticsEvent[];
  /** A REST failure no rule covers happened (the body is already the generic 500). */
  readonly internalError: boolean;
  /** The endpoint itself threw: no answer, the main thread gives the generic internal error. */
  readonly failed?: true;
}

/** What the thread needs to build the same endpoints (offload-worker.ts). */
export interface OffloadWorkerData {
  readonly publicBaseUrl: string;
  /** The MCP App's document when MCP_APPS is on: a thread answers resources/read like the event loop does. */
  readonly appView?: AppViewDocument;
}

/**
 * Whether this POST may cost more than a few ms: a large body, or a decode whose link expands to a large document.
 * Anything that fails on the way (bad JSON, a costly shape, a bad link) is not heavy: the endpoint refuses it cheaply.
 */
export function isHeavy(kind: OffloadKind, body: RequestBody, codec: Codec, headers?: Readonly<Record<string, string>>): boolean {
  if (body.byteLength >= OFFLOAD_MIN_BODY_BYTES) return true;
  if (body.byteLength < OFFLOAD_MIN_DECODE_CHARS || kind === 'create') return false;
  // A modern MCP request names its tool in its headers, and the handler refuses a body that calls another one.
  if (kind === 'mcp' && headers !== undefined && headersRuleOutTool(headers, 'decode_session_link')) return false;
  let text: string;
  try {
    text = body.text();
  } catch {
    return false; // not UTF-8: refused at once where it is
  }
  // Only a decode_session_link call can be heavy. The name may be written with \u escapes, which JSON.parse reads as the
  // same name: a text with any \u is looked at like one that names the tool outright.
  if (kind === 'mcp' && !text.includes('decode_session_link') && !text.includes('\\u')) return false;
  const link = decodeLinkOf(kind, text);
  if (link === undefined) return false;
  try {
    return codec.decompressedLength(parseLink(link)) >= OFFLOAD_MIN_EXPANDED_CHARS;
  } catch {
    return false;
  }
}

/** The link of a REST decode body or of an MCP decode_session_link call; the body is under OFFLOAD_MIN_BODY_BYTES. */
function decodeLinkOf(kind: 'mcp' | 'decode', body: string): string | undefined {
  // The handlers refuse costly shapes before parsing; so does this look (a 60 KB body nested 30,000 deep parses slowly).
  if (costlyJsonShape(body) !== undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined);
  const link = kind === 'decode' ? field(parsed, 'link') : field(field(field(parsed, 'params'), 'arguments'), 'link');
  return typeof link === 'string' ? link : undefined;
}

interface Waiting {
  readonly job: OffloadJob;
  readonly presence: ClientPresence | undefined;
  resolve(reply: OffloadReply | undefined): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  /** Jobs handed to this thread and not answered yet, by job id (at most MAX_IN_FLIGHT_PER_THREAD). */
  readonly inFlight: Map<number, Waiting>;
}

/**
 * `size` threads, started (and awaited) by start(); one queue in front of them. A thread that dies is replaced and its
 * job answered with the generic internal error. Jobs of clients that went away while queued are dropped unrun.
 */
export class OffloadPool {
  readonly #threads: Thread[] = [];
  readonly #queue: Waiting[] = [];
  readonly #size: number;
  readonly #data: OffloadWorkerData;
  readonly #onThreadFailure: (error: Error) => void;
  readonly #resourceLimits: ResourceLimits | undefined;
  #queuedBytes = 0;
  #nextId = 1;
  #closed = false;

  /** `resourceLimits`: V8 heap limits of each thread (a thread past them dies and is replaced; the server sets none). */
  constructor(size: number, data: OffloadWorkerData, onThreadFailure: (error: Error) => void, resourceLimits?: ResourceLimits) {
    this.#size = size;
    this.#data = data;
    this.#onThreadFailure = onThreadFailure;
    this.#resourceLimits = resourceLimits;
  }

  /** Starts every thread and resolves once all have loaded the codec (rejects if one cannot start). */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.#size }, () => this.#spawn()));
  }

  /** Jobs waiting for a thread now (not counting those running). */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * The reply, or undefined when the client went away before a thread took the job. Rejects with ServerBusyError
   * (→ 429). The body is the first `length` bytes of `buffer`, which is transferred once a thread takes the job: until
   * then (and when the promise rejects or resolves undefined) it still belongs to the caller.
   */
  run(kind: OffloadKind, headers: Readonly<Record<string, string>>, buffer: ArrayBuffer, length: number, presence?: ClientPresence): Promise<OffloadReply | undefined> {
    if (this.#closed) return Promise.reject(new Error('offload pool closed'));
    if (this.#queue.length >= MAX_QUEUED_JOBS_PER_THREAD * this.#size || this.#queuedBytes + length > MAX_QUEUED_BYTES_PER_THREAD * this.#size) {
      return Promise.reject(new ServerBusyError(BUSY_RETRY_AFTER_S));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ job: { id: this.#nextId++, kind, headers, buffer, length }, presence, resolve, reject });
      this.#queuedBytes += length;
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiting of this.#queue.splice(0)) waiting.reject(new Error('offload pool closed'));
    const threads = this.#threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  /** Hands queued jobs to idle threads, skipping (and settling) those whose client has gone. */
  #dispatch(): void {
    for (const thread of this.#threads) {
      while (thread.inFlight.size < MAX_IN_FLIGHT_PER_THREAD) {
        let next = this.#queue.shift();
        while (next !== undefined) {
          this.#queuedBytes -= next.job.length;
          if (next.presence?.departed !== true) break;
          next.resolve(undefined);
          next = this.#queue.shift();
        }
        if (next === undefined) return;
        thread.inFlight.set(next.job.id, next);
        thread.worker.postMessage(next.job, [next.job.buffer]);
      }
    }
  }

  #spawn(): Promise<void> {
    const worker = spawnThread(threadEntry('offload-worker'), this.#data, [], this.#resourceLimits);
    // An idle pool must not keep the process alive; close() ends the threads of a server that stops.
    worker.unref();
    const thread: Thread = { worker, inFlight: new Map() };
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: OffloadMessage) => {
        if ('ready' in message) {
          ready = true;
          this.#threads.push(thread);
          resolve();
          this.#dispatch();
          return;
        }
        const waiting = thread.inFlight.get(message.id);
        thread.inFlight.delete(message.id);
        if (message.failed) waiting?.reject(new Error('an offloaded request failed'));
        else waiting?.resolve(message);
        this.#dispatch();
      });
      const fail = (error: Error): void => {
        if (!ready) return reject(error);
        const index = this.#threads.indexOf(thread);
        if (index < 0) return; // already handled ('error' is followed by 'exit')
        this.#threads.splice(index, 1);
        for (const waiting of thread.inFlight.values()) waiting.reject(error);
        thread.inFlight.clear();
        if (this.#closed) return;
        this.#onThreadFailure(error);
        // A replacement, so that the pool keeps its size; if it cannot start either, the failure is reported again.
        this.#spawn().catch((startError: unknown) => this.#onThreadFailure(startError as Error));
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`offload thread exited with ${code}`)));
    });
  }
}
