// Where drafts are validated and encoded, answered asynchronously: in a Web Worker (worker.ts) when the page can start one, else in the page itself.
import type { Encoded, EncodedOutcome } from './encode.js';
import type { Draft } from './tree.js';

/**
 * Validation and encoding of drafts with create's code, answered asynchronously. Each answer belongs to the draft it
 * was asked for (the planner compares drafts by identity, so an answer can never be taken for a newer draft's).
 */
export interface DraftEncoder {
  encode(draft: Draft): Promise<Encoded>;
  /** Stops the worker; later calls are answered in the page. */
  close(): void;
}

/** The page's own, synchronous encoding (host.ts), answered as a promise: the fallback and the Node tests' encoder. */
export function inPageEncoder(encode: (draft: Draft) => Encoded): DraftEncoder {
  return {
    encode: (draft) => new Promise((resolve) => resolve(encode(draft))),
    close() {},
  };
}

/** What the page sends the worker: the draft (structured clone) and the base URL of the links (the page's origin). */
export interface EncodeRequest {
  readonly id: number;
  readonly draft: Draft;
  readonly baseUrl: string;
}

/**
 * The worker's answer. A valid draft's normalized document is almost always the draft itself (drafts are kept in
 * canonical shape, and create's canonical check returns its input), so it is sent back only when it differs.
 */
export type WireOutcome =
  | { readonly ok: true; readonly link: string; readonly measures: EncodedOutcome['measures']; readonly session: Draft | null }
  | { readonly ok: false; readonly problems: Extract<Encoded, { ok: false }>['problems'] };

export type EncodeReply = { readonly id: number; readonly outcome: WireOutcome } | { readonly id: number; readonly failure: string };

/** An outcome as the worker sends it (`draft` is the worker's copy of the draft it encoded). */
export function toWire(outcome: Encoded, draft: Draft): WireOutcome {
  if (!outcome.ok) return outcome;
  return { ok: true, link: outcome.link, measures: outcome.measures, session: outcome.session === draft ? null : outcome.session };
}

/** The outcome for the page's draft it was asked for. */
export function fromWire(outcome: WireOutcome, draft: Draft): Encoded {
  if (!outcome.ok) return outcome;
  return { ok: true, link: outcome.link, measures: outcome.measures, session: outcome.session ?? draft };
}

interface Waiting {
  readonly draft: Draft;
  resolve(outcome: Encoded): void;
  reject(error: unknown): void;
}

/**
 * Encodes in a dedicated worker started from `url`. Should the worker fail to start, crash or be unable to answer,
 * what it was asked and everything after is encoded in the page with `fallback` (the same code, on the main thread).
 */
export function workerEncoder(url: URL, baseUrl: string, fallback: (draft: Draft) => Encoded): DraftEncoder {
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let worker: Worker | null = null;
  const inPage = (entry: Waiting) => {
    try {
      entry.resolve(fallback(entry.draft));
    } catch (error) {
      entry.reject(error);
    }
  };
  const giveUp = () => {
    worker?.terminate();
    worker = null;
    const entries = [...waiting.values()];
    waiting.clear();
    for (const entry of entries) inPage(entry);
  };
  try {
    worker = new Worker(url, { type: 'module', name: 'sessionplan-planner' });
    worker.addEventListener('message', (event: MessageEvent<EncodeReply>) => {
      const entry = waiting.get(event.data.id);
      if (entry === undefined) return;
      waiting.delete(event.data.id);
      if ('failure' in event.data) {
        // The worker could not load the codec or failed on this draft: the page answers this and everything after.
        inPage(entry);
        giveUp();
      } else entry.resolve(fromWire(event.data.outcome, entry.draft));
    });
    worker.addEventListener('error', giveUp);
    worker.addEventListener('messageerror', giveUp);
  } catch {
    worker = null;
  }
  return {
    encode(draft) {
      return new Promise<Encoded>((resolve, reject) => {
        const entry = { draft, resolve, reject };
        if (worker === null) return inPage(entry);
        const id = next++;
        try {
          worker.postMessage({ id, draft, baseUrl } satisfies EncodeRequest);
          waiting.set(id, entry);
        } catch {
          inPage(entry);
        }
      });
    },
    close() {
      worker?.terminate();
      worker = null;
      const entries = [...waiting.values()];
      waiting.clear();
      for (const entry of entries) inPage(entry);
    },
  };
}
