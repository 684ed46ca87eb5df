// Requests whose bodies complete in one event-loop turn start together, so that their answers leave in one burst.
//
// Why: an answer written on its own wakes its reader (the client, or a reverse proxy on the same host) once per
// answer, and the sender pays for the wake-up (`sock_def_readable`, the cross-CPU interrupt), a large share of a
// small create's CPU over loopback. Under load, uWS and node:http hand over nearly every readable socket of one poll
// in one turn. Started together, their handlers interleave at their awaits and finish within one drain of the
// microtask queue, so their answers go out back to back while the reader is still awake (docs/architecture.md,
// "The request path").
//
// The first request of a turn starts at once: a lone request waits for nothing. The others of that turn wait until
// its end (setImmediate, after the poll), at most MAX_TURN_BATCH at a time, which bounds how long an answer waits for
// its batch-mates.

/** A request ready to be handled. `begin` answers its own failures and must not throw; `failed` answers what it threw. */
export interface TurnJob {
  begin(): void;
  failed(error: unknown): void;
}

/** Requests started together at the end of a turn; more wait for the next turn's end. */
export const MAX_TURN_BATCH = 32;

export class TurnBatch {
  /** True from a turn's first request until its end (the setImmediate below has run). */
  #open = false;
  #waiting: TurnJob[] = [];
  readonly #end = (): void => this.#endTurn();

  /** Starts `job` now if it is the first of this turn, else with the others of this turn at its end. */
  add(job: TurnJob): void {
    if (this.#open) {
      this.#waiting.push(job);
      return;
    }
    this.#open = true;
    setImmediate(this.#end);
    start(job);
  }

  /** Requests waiting for the end of the turn (read by tests). */
  get waiting(): number {
    return this.#waiting.length;
  }

  #endTurn(): void {
    let batch = this.#waiting;
    if (batch.length <= MAX_TURN_BATCH) this.#waiting = [];
    else batch = batch.splice(0, MAX_TURN_BATCH);
    // With requests left over the turn stays open: they start at the next turn's end, ahead of that turn's arrivals.
    if (this.#waiting.length > 0) setImmediate(this.#end);
    else this.#open = false;
    for (const job of batch) start(job);
  }
}

/** begin() answers its own failures (RequestCycle); this keeps one broken job from stranding the rest, and says so. */
function start(job: TurnJob): void {
  try {
    job.begin();
  } catch (error) {
    job.failed(error);
  }
}
