// Heavy POSTs answered in worker threads, so that no request holds the event loop for long: the threads and their fair queue.
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { AppViewDocument } from '../mcp/app-view.js';
import { ServerBusyError } from '../http/ports.js';
import { LIMITS } from '../limits/table.js';
import type { AnalyticsEvent, ClientPresence } from '../http/ports.js';
import { revivedFailure, type ThreadFailure } from './failure.js';
import { spawnThread, threadEntry } from './threads.js';

/** A thread's answers from this length on come back as UTF-8 bytes in the job's buffer rather than as a cloned string. */
export const BYTES_ANSWER_MIN_CHARS = 64 * 1024;
/**
 * Jobs handed to one thread at a time: two, so that the thread starts the next as soon as it posts an answer (with
 * one, it would idle for a round trip per job: small decodes ran at half the throughput). The rest wait here, where
 * the jobs of clients that went away can still be dropped.
 */
export const MAX_IN_FLIGHT_PER_THREAD = 2;

/** The endpoint a job is for: the MCP endpoint, or one of the REST ones. */
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
  /** The failure behind a generic internal-error answer the endpoints gave (the body is that answer). */
  readonly unexpected?: ThreadFailure | undefined;
  /** The endpoint itself threw: no answer, the main thread gives the generic internal error. */
  readonly failed?: ThreadFailure;
}

/** What the thread needs to build the same endpoints (offload-worker.ts). */
export interface OffloadWorkerData {
  readonly publicBaseUrl: string;
  /** The MCP App's document when MCP_APPS is on: a thread answers resources/read like the event loop does. */
  readonly appView?: AppViewDocument;
  /** The prompts on (MCP_PROMPTS): a thread answers prompts/* like the event loop does. */
  readonly prompts?: boolean;
}


interface Waiting {
  readonly job: OffloadJob;
  readonly presence: ClientPresence | undefined;
  /** Start-time fair queuing: the job's start tag (virtual time), and its client. */
  readonly start: number;
  readonly client: ClientQueue;
  resolve(reply: OffloadReply | undefined): void;
  reject(error: Error): void;
}

/** One client's waiting jobs (oldest first) and the virtual time at which its last one will have been served. */
interface ClientQueue {
  readonly key: string;
  readonly jobs: Waiting[];
  finish: number;
}

interface Thread {
  readonly worker: Worker;
  /** Jobs handed to this thread and not answered yet, by job id (at most MAX_IN_FLIGHT_PER_THREAD). */
  readonly inFlight: Map<number, Waiting>;
}

/** A replacement thread that fails to start is tried again after this long, doubling up to the next value. */
export const RESPAWN_FIRST_DELAY_MS = 100;
export const RESPAWN_MAX_DELAY_MS = 10_000;

export interface OffloadPoolOptions {
  /** Called when a thread dies or a replacement fails to start; the pool keeps trying to get back to its size. */
  onThreadFailure(error: Error): void;
  /** V8 heap limits of each thread (a thread past them dies and is replaced; the server sets none). */
  resourceLimits?: ResourceLimits;
  /** The thread's entry module; default: offload/thread (tests give one that fails on purpose). */
  entry?: URL;
}

/**
 * `size` threads, started (and awaited) by start(); one queue in front of them. A thread that dies is replaced and its
 * job answered with the generic internal error; a replacement that cannot start is tried again with a growing delay,
 * and while the pool has no thread at all it is not ready (`hasThreads`). Jobs of clients that went away while queued
 * are dropped unrun.
 *
 * The queue serves clients (by rate-limit key) in turn, weighted by what their jobs cost: start-time fair queuing. Each
 * job gets a start tag, the later of the queue's virtual time and the end of its client's previous job (tag + cost),
 * and the job with the smallest tag goes next. A client that floods the queue waits behind its own jobs; one that
 * arrives with a single job starts after at most one job of each other client.
 */
export class OffloadPool {
  readonly #threads: Thread[] = [];
  /** Clients with jobs waiting, or whose last job ends after the virtual time (so that leaving buys no advantage). */
  readonly #clients = new Map<string, ClientQueue>();
  #queued = 0;
  /** The start tag of the job handed to a thread last. */
  #virtualTime = 0;
  readonly #size: number;
  readonly #data: OffloadWorkerData;
  readonly #options: OffloadPoolOptions;
  readonly #entry: URL;
  #queuedBytes = 0;
  #nextId = 1;
  #closed = false;
  /** Replacements waiting for their next try. */
  readonly #respawns = new Set<ReturnType<typeof setTimeout>>();

  constructor(size: number, data: OffloadWorkerData, options: OffloadPoolOptions) {
    this.#size = size;
    this.#data = data;
    this.#options = options;
    this.#entry = options.entry ?? threadEntry(import.meta.url, 'thread');
  }

  /** Starts every thread and resolves once all have loaded the codec (rejects if one cannot start). */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.#size }, () => this.#spawn()));
  }

  /** Jobs waiting for a thread now (not counting those running). */
  get queued(): number {
    return this.#queued;
  }

  /** False while every thread is gone and no replacement has started yet: heavy POSTs would only wait (readiness). */
  get hasThreads(): boolean {
    return this.#threads.length > 0;
  }

  /**
   * The reply, or undefined when the client went away before a thread took the job. Rejects with ServerBusyError
   * (→ 429). The body is the first `length` bytes of `buffer`, which is transferred once a thread takes the job: until
   * then (and when the promise rejects or resolves undefined) it still belongs to the caller.
   */
  run(kind: OffloadKind, headers: Readonly<Record<string, string>>, buffer: ArrayBuffer, length: number, presence?: ClientPresence, cost = length): Promise<OffloadReply | undefined> {
    if (this.#closed) return Promise.reject(new Error('offload pool closed'));
    const key = presence?.client ?? '';
    const client = this.#clients.get(key) ?? { key, jobs: [], finish: 0 };
    // Jobs of requests whose client has gone no longer hold a place (they would be dropped unrun anyway).
    if (client.jobs.length >= LIMITS.queuedJobsPerClient.value) this.#dropDeparted(client);
    if (client.jobs.length >= LIMITS.queuedJobsPerClient.value) return Promise.reject(new ServerBusyError(LIMITS.busyRetryAfter.value, 'client'));
    if (!this.#makeRoom(client, length)) return Promise.reject(new ServerBusyError(LIMITS.busyRetryAfter.value));
    this.#clients.set(key, client);
    return new Promise((resolve, reject) => {
      const start = Math.max(this.#virtualTime, client.finish);
      client.finish = start + Math.max(1, cost);
      client.jobs.push({ job: { id: this.#nextId++, kind, headers, buffer, length }, presence, start, client, resolve, reject });
      this.#queued++;
      this.#queuedBytes += length;
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#respawns) clearTimeout(timer);
    this.#respawns.clear();
    for (const client of this.#clients.values()) for (const waiting of client.jobs.splice(0)) waiting.reject(new Error('offload pool closed'));
    this.#clients.clear();
    const threads = this.#threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  /**
   * Whether a job of `length` bytes from `client` fits the queue's caps, after refusing the newest jobs of clients with
   * more waiting than this one (each such job is answered 429, as it would have been had it arrived now).
   */
  #makeRoom(client: ClientQueue, length: number): boolean {
    const maxJobs = LIMITS.queuedJobsPerThread.value * this.#size;
    const maxBytes = LIMITS.queuedBytesPerThread.value * this.#size;
    const full = (): boolean => this.#queued >= maxJobs || this.#queuedBytes + length > maxBytes;
    if (full()) for (const other of this.#clients.values()) this.#dropDeparted(other);
    while (full()) {
      let fullest: ClientQueue | undefined;
      for (const other of this.#clients.values()) if (fullest === undefined || other.jobs.length > fullest.jobs.length) fullest = other;
      if (fullest === undefined || fullest === client || fullest.jobs.length <= client.jobs.length + 1) return false;
      const evicted = fullest.jobs.pop()!;
      this.#queued--;
      this.#queuedBytes -= evicted.job.length;
      evicted.reject(new ServerBusyError(LIMITS.busyRetryAfter.value));
    }
    return true;
  }

  /** Settles (unrun) the waiting jobs of `client` whose requests' clients have gone. */
  #dropDeparted(client: ClientQueue): void {
    const kept = client.jobs.filter((waiting) => {
      if (waiting.presence?.departed !== true) return true;
      this.#queued--;
      this.#queuedBytes -= waiting.job.length;
      waiting.resolve(undefined);
      return false;
    });
    client.jobs.splice(0, client.jobs.length, ...kept);
  }

  /**
   * The waiting job with the smallest start tag (a client's oldest job has its smallest), or undefined. Clients that
   * arrive together share a tag: the one with fewer jobs waiting goes first, so a client with one job passes a flood.
   */
  #next(): Waiting | undefined {
    let best: ClientQueue | undefined;
    for (const client of this.#clients.values()) {
      const head = client.jobs[0];
      if (head === undefined) continue;
      const bestHead = best?.jobs[0];
      if (bestHead === undefined || head.start < bestHead.start || (head.start === bestHead.start && client.jobs.length < best!.jobs.length)) best = client;
    }
    const next = best?.jobs.shift();
    if (next === undefined) return undefined;
    this.#queued--;
    this.#queuedBytes -= next.job.length;
    this.#virtualTime = Math.max(this.#virtualTime, next.start);
    // Clients with nothing waiting whose last job ends by now have no advantage or debt left to remember.
    for (const [key, client] of this.#clients) if (client.jobs.length === 0 && client.finish <= this.#virtualTime) this.#clients.delete(key);
    return next;
  }

  /** Hands queued jobs to idle threads, skipping (and settling) those whose client has gone. */
  #dispatch(): void {
    for (const thread of this.#threads) {
      while (thread.inFlight.size < MAX_IN_FLIGHT_PER_THREAD) {
        let next = this.#next();
        while (next !== undefined && next.presence?.departed === true) {
          next.resolve(undefined);
          next = this.#next();
        }
        if (next === undefined) return;
        thread.inFlight.set(next.job.id, next);
        thread.worker.postMessage(next.job, [next.job.buffer]);
      }
    }
  }

  /** Starts a replacement now, and again after a growing delay for as long as it fails to start. */
  #replace(delayMs = RESPAWN_FIRST_DELAY_MS): void {
    this.#spawn().catch((startError: unknown) => {
      if (this.#closed) return;
      this.#options.onThreadFailure(startError as Error);
      const timer = setTimeout(() => {
        this.#respawns.delete(timer);
        if (!this.#closed) this.#replace(Math.min(delayMs * 2, RESPAWN_MAX_DELAY_MS));
      }, delayMs);
      timer.unref();
      this.#respawns.add(timer);
    });
  }

  #spawn(): Promise<void> {
    const worker = spawnThread(this.#entry, this.#data, [], this.#options.resourceLimits);
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
        if (message.failed !== undefined) waiting?.reject(revivedFailure(message.failed, 'a request in an offload thread'));
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
        this.#options.onThreadFailure(error);
        // A replacement, so that the pool keeps its size.
        this.#replace();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`offload thread exited with ${code}`)));
    });
  }
}
