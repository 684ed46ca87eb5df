// A POST body as received: small ones as text, large ones as bytes in a pooled buffer that can travel to a thread.
import { LIMITS } from '../limits/table.js';
import type { BufferPool } from './buffer-pool.js';

/**
 * Bodies from this many bytes on are assembled in one pooled buffer and decoded only where they are handled (an
 * offload thread takes the buffer as it is); smaller ones are decoded at once, which is cheaper than any hand-over.
 */
export const LARGE_BODY_BYTES = LIMITS.heavyBody.value;

/** Bodies must be UTF-8 (RFC 8259 §8.1): a malformed sequence refuses the body instead of becoming U+FFFD in a link. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const ENCODER = new TextEncoder();

/** Thrown by RequestBody.text() for a body that is not UTF-8 (MCP answers -32700, REST 400). */
export class BodyEncodingError extends Error {
  constructor() {
    super('the request body is not valid UTF-8');
    this.name = 'BodyEncodingError';
  }
}

/** The body's text, or undefined when it is not UTF-8 (for the endpoints, which refuse it with their own answer). */
export function textIfUtf8(body: RequestBody): string | undefined {
  try {
    return body.text();
  } catch (error) {
    if (error instanceof BodyEncodingError) return undefined;
    throw error;
  }
}

/** `bytes` as text, or BodyEncodingError. */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new BodyEncodingError();
  }
}

export interface RequestBody {
  /** Length in bytes. */
  readonly byteLength: number;
  /** The body decoded as UTF-8, once; throws BodyEncodingError when it is not UTF-8. */
  text(): string;
  /**
   * Hands the bytes over: a buffer holding the body in its first byteLength bytes, which the caller now owns (e.g. to
   * transfer it to a thread): the body's own pooled buffer, or one from `pool` with the body written into it. Call it
   * instead of text(), not after it.
   */
  takeBuffer(pool: BufferPool): ArrayBuffer;
  /** The request is answered: a buffer nobody took goes back to its pool. */
  release(): void;
}

/** `text` as UTF-8 in a buffer of `pool` (a text body handed to a thread: its answer may need the room). */
function pooledCopy(text: string, byteLength: number, pool: BufferPool): ArrayBuffer {
  const buffer = pool.take(byteLength);
  ENCODER.encodeInto(text, new Uint8Array(buffer));
  return buffer;
}

/** A body held as text (one object per request: small bodies are on every request's hot path). */
class TextBody implements RequestBody {
  readonly #text: string;
  #byteLength: number | undefined;

  constructor(text: string, byteLength: number | undefined) {
    this.#text = text;
    this.#byteLength = byteLength;
  }

  get byteLength(): number {
    return (this.#byteLength ??= ENCODER.encode(this.#text).byteLength);
  }

  text(): string {
    return this.#text;
  }

  takeBuffer(pool: BufferPool): ArrayBuffer {
    return pooledCopy(this.#text, this.byteLength, pool);
  }

  release(): void {}
}

/** A body already decoded (an offload thread's, tests'); `byteLength` when known, else measured when asked. */
export function textBody(text: string, byteLength?: number): RequestBody {
  return new TextBody(text, byteLength);
}

/** A body that is not UTF-8: its text() throws, and it is never handed on (it is small, or refused where it is). */
class UndecodableBody implements RequestBody {
  constructor(readonly byteLength: number) {}

  text(): string {
    throw new BodyEncodingError();
  }

  takeBuffer(): ArrayBuffer {
    throw new BodyEncodingError(); // never handed on: a body this small is answered where it is (offload/endpoints.ts)
  }

  release(): void {}
}

/** A small body decoded from its bytes now (they may be volatile: uWS reuses them once the callback returns). */
export function decodedBody(bytes: Uint8Array): RequestBody {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return new UndecodableBody(bytes.byteLength);
  }
  return new TextBody(text, bytes.byteLength);
}

/** A body held in a buffer of `pool`, bytes 0..byteLength, until it is decoded, handed over or released. */
class BufferedBody implements RequestBody {
  readonly byteLength: number;
  readonly #pool: BufferPool;
  #owned: ArrayBuffer | undefined;
  #text: string | undefined;

  constructor(buffer: ArrayBuffer, byteLength: number, pool: BufferPool) {
    this.#owned = buffer;
    this.byteLength = byteLength;
    this.#pool = pool;
  }

  text(): string {
    return (this.#text ??= utf8Text(new Uint8Array(this.#ownBuffer(), 0, this.byteLength)));
  }

  takeBuffer(): ArrayBuffer {
    const taken = this.#ownBuffer();
    this.#owned = undefined;
    return taken;
  }

  release(): void {
    if (this.#owned !== undefined) this.#pool.give(this.#owned);
    this.#owned = undefined;
  }

  #ownBuffer(): ArrayBuffer {
    if (this.#owned === undefined) throw new Error('the body was handed over');
    return this.#owned;
  }
}

export function bufferedBody(buffer: ArrayBuffer, byteLength: number, pool: BufferPool): RequestBody {
  return new BufferedBody(buffer, byteLength, pool);
}
