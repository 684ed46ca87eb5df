// Where drafts are validated and encoded, answered asynchronously: the page's own code behind a promise (a worker may take its place).
import type { Encoded } from './encode.js';
import type { Draft } from './tree.js';

/**
 * Validation and encoding of drafts with create's code, answered asynchronously. Each answer belongs to the draft it
 * was asked for (the planner compares drafts by identity, so an answer can never be taken for a newer draft's).
 */
export interface DraftEncoder {
  encode(draft: Draft): Promise<Encoded>;
  /** Stops whatever answers (a worker); later calls are answered in the page. */
  close(): void;
}

/** The page's own, synchronous encoding (host.ts), answered as a promise: the fallback and the Node tests' encoder. */
export function inPageEncoder(encode: (draft: Draft) => Encoded): DraftEncoder {
  return {
    encode: (draft) => new Promise((resolve) => resolve(encode(draft))),
    close() {},
  };
}
