// Runs N server workers (one HTTP server each, same port via SO_REUSEPORT), restarts crashed ones, stops them gracefully.
import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { TransferListItem, Worker } from 'node:worker_threads';
import { handleSignals } from './signals.js';
import type { SignalHandlers } from './signals.js';

/** Main → worker. */
type ControlMessage = { type: 'shutdown' } | { type: 'drain' };
/** Worker → main. */
type StatusMessage = { type: 'listening' } | { type: 'startup-failed'; message: string } | { type: 'crashed'; message: string; stack: string | undefined };

export type SupervisorEvent =
  | { type: 'listening'; index: number; generation: number }
  | { type: 'crashed'; index: number; generation: number; reason: string; stack?: string | undefined; restartInMs: number }
  | { type: 'exited'; index: number; generation: number; code: number };

export interface WorkerPayload {
  /** What one worker needs besides its slot, e.g. config and a rate-limit broker port (listed in `transferList`). */
  data: Record<string, unknown>;
  transferList?: TransferListItem[];
}

export interface SupervisorOptions {
  count: number;
  /** Creates one worker thread from its workerData (production: `new Worker(entryUrl, { workerData, transferList })`). */
  spawn(workerData: Record<string, unknown>, transferList: TransferListItem[]): Worker;
  /** Called for every (re)start, so a restarted worker gets fresh ports. `generation` counts restarts of the slot. */
  payload(index: number, generation: number): WorkerPayload;
  /** Lifecycle events for logs and metrics. */
  onEvent?(event: SupervisorEvent): void;
}

/** `WORKERS=auto` → the cores Node may use. */
export function resolveWorkerCount(workers: number | 'auto'): number {
  return workers === 'auto' ? availableParallelism() : workers;
}

/** A worker that lived this long is considered healthy again, so its crash backoff starts over. */
const STABLE_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 5_000;

interface Slot {
  worker: Worker | undefined;
  generation: number;
  startedAt: number;
  consecutiveCrashes: number;
  restartTimer: NodeJS.Timeout | undefined;
}

export class WorkerSupervisor {
  readonly #options: SupervisorOptions;
  readonly #slots: Slot[];
  #stopping = false;
  #restarts = 0;

  constructor(options: SupervisorOptions) {
    if (!Number.isInteger(options.count) || options.count < 1) throw new RangeError('Worker count must be a positive integer.');
    this.#options = options;
    this.#slots = Array.from({ length: options.count }, () => ({
      worker: undefined,
      generation: 0,
      startedAt: 0,
      consecutiveCrashes: 0,
      restartTimer: undefined,
    }));
  }

  /** Restarts so far (for a counter metric). */
  get restarts(): number {
    return this.#restarts;
  }

  /**
   * Starts every worker and resolves once all listen. If one fails to start (bad port, bad config), the others are
   * stopped and this rejects with its reason: a startup failure is not a crash, restarting would only loop.
   */
  async start(): Promise<void> {
    const started = this.#slots.map((_, index) => this.#launch(index));
    try {
      await Promise.all(started);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Asks every worker to drain: `/readyz` answers 503 and every answer closes its connection; they go on serving. */
  drain(): void {
    for (const slot of this.#slots) slot.worker?.postMessage({ type: 'drain' } satisfies ControlMessage);
  }

  /**
   * Asks every worker to stop (each closes its listen socket and drains within the server's own grace period) and
   * waits for their threads to end; never exits the process. There is deliberately no `worker.terminate()` fallback:
   * terminating a thread with a live uWS app aborts the whole process (uv_loop_close assertion, exit 134, measured).
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    const exits: Promise<void>[] = [];
    for (const slot of this.#slots) {
      clearTimeout(slot.restartTimer);
      const worker = slot.worker;
      if (worker === undefined) continue;
      exits.push(
        new Promise<void>((resolve) => {
          worker.once('exit', () => resolve());
          worker.postMessage({ type: 'shutdown' } satisfies ControlMessage);
        }),
      );
    }
    await Promise.all(exits);
  }

  #launch(index: number): Promise<void> {
    const slot = this.#slots[index]!;
    const { data, transferList = [] } = this.#options.payload(index, slot.generation);
    const worker = this.#options.spawn({ ...data, workerIndex: index }, transferList);
    const generation = slot.generation;
    slot.worker = worker;
    slot.startedAt = Date.now();
    let listening = false;
    let lastError: string | undefined;
    let lastStack: string | undefined;

    return new Promise<void>((resolve, reject) => {
      worker.on('message', (message: StatusMessage) => {
        if (message?.type === 'listening' && !listening) {
          listening = true;
          this.#options.onEvent?.({ type: 'listening', index, generation });
          resolve();
        } else if (message?.type === 'startup-failed' || message?.type === 'crashed') {
          lastError = message.message;
          lastStack = message.type === 'crashed' ? message.stack : undefined;
        }
      });
      worker.on('error', (error: Error) => {
        lastError = error.message;
        lastStack = error.stack;
      });
      worker.once('exit', (code: number) => {
        if (slot.worker === worker) slot.worker = undefined;
        this.#options.onEvent?.({ type: 'exited', index, generation, code });
        if (!listening) {
          reject(new Error(`Worker ${index} could not start: ${lastError ?? `it exited with code ${code}`}.`));
        } else if (!this.#stopping) {
          this.#scheduleRestart(index, lastError ?? `it exited with code ${code}`, lastStack);
        }
      });
    });
  }

  #scheduleRestart(index: number, reason: string, stack?: string): void {
    const slot = this.#slots[index]!;
    slot.consecutiveCrashes = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.consecutiveCrashes + 1;
    const restartInMs = Math.min(100 * 2 ** (slot.consecutiveCrashes - 1), MAX_RESTART_DELAY_MS);
    this.#options.onEvent?.({ type: 'crashed', index, generation: slot.generation, reason, stack, restartInMs });
    slot.generation++;
    this.#restarts++;
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (this.#stopping) return;
      // A failed restart is another crash of the slot: back off and try again rather than give up on the core.
      this.#launch(index).catch((error: unknown) => {
        if (!this.#stopping) this.#scheduleRestart(index, error instanceof Error ? error.message : String(error));
      });
    }, restartInMs);
  }
}

/**
 * Signals reach only the main thread: the first stop signal (signals.ts) starts a graceful `stop()`, repeats are ignored (Ctrl-C
 * under npm arrives twice; the servers' grace period bounds the drain). The process then ends by itself once the
 * workers are gone: no process.exit, which aborts Node while uWS apps are alive. Returns a function removing the handlers.
 */
export function stopOnSignals(
  supervisor: WorkerSupervisor,
  onStopped: () => void | Promise<void>,
  options: Pick<SignalHandlers, 'ignored' | 'inspector'> & { shutdownDelayMs?: number },
): () => void {
  let signalled = false;
  const handle = (): void => {
    if (signalled) return;
    signalled = true;
    // SHUTDOWN_DELAY_S: readiness fails first and the workers serve on, so a load balancer stops sending before they go.
    const delayMs = options.shutdownDelayMs ?? 0;
    if (delayMs > 0) supervisor.drain();
    void new Promise((resolve) => setTimeout(resolve, delayMs))
      .then(() => supervisor.stop())
      .then(() => onStopped())
      .finally(remove);
  };
  const remove = handleSignals({ stop: handle, ...options });
  return remove;
}

/** What a worker's server must offer: draining (readiness 503, answers close), and a graceful stop. */
export interface WorkerServer {
  drain(): void;
  stop(): Promise<void>;
}

/**
 * The worker-thread side: starts the server with this thread's workerData, reports 'listening' (or why it failed),
 * and stops it when the supervisor says so. Once stopped, the thread has no handles left and ends by itself.
 *
 * A crash (uncaught exception or rejection) also stops the server before the thread ends: a worker thread that dies
 * with a uWS app still open aborts the whole process (`uv_loop_close() while having open handles`, exit 134,
 * measured with uWS 20.30), so the supervisor could never restart it. For the same reason `start` must close
 * whatever it opened before it rejects.
 */
export function serveInWorker(start: (workerData: Record<string, unknown>) => Promise<WorkerServer>): void {
  const port = parentPort;
  if (port === null) throw new Error('serveInWorker() must run inside a worker thread.');
  let server: WorkerServer | undefined;
  let stopRequested = false;
  // Closing the port is the worker's last handle besides the server's: the thread then ends on its own.
  const finish = (): void => {
    port.removeAllListeners('message');
    port.close();
  };
  const stopOnce = (): void => {
    if (stopRequested) return;
    stopRequested = true;
    if (server !== undefined) void server.stop().catch(() => undefined).finally(finish);
  };
  const onCrash = (error: unknown): void => {
    if (stopRequested) return;
    port.postMessage({ type: 'crashed', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined } satisfies StatusMessage);
    stopOnce();
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // Listen before starting: a shutdown may arrive while the server is still starting (another worker failed).
  let drainRequested = false;
  port.on('message', (message: ControlMessage) => {
    if (message?.type === 'shutdown') stopOnce();
    else if (message?.type === 'drain') {
      drainRequested = true;
      server?.drain();
    }
  });
  start(workerData as Record<string, unknown>).then(
    (started) => {
      server = started;
      if (drainRequested) started.drain();
      if (stopRequested) void started.stop().catch(() => undefined).finally(finish);
      else port.postMessage({ type: 'listening' } satisfies StatusMessage);
    },
    (error: unknown) => {
      stopRequested = true;
      port.postMessage({ type: 'startup-failed', message: error instanceof Error ? error.message : String(error) } satisfies StatusMessage);
      finish();
    },
  );
}
