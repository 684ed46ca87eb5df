// An offload thread's side of the pool: answers each job with the endpoints it is given and posts back answer and events.
import type { MessagePort } from 'node:worker_threads';
import type { Endpoints } from '../endpoints/endpoints.js';
import { decodedBody } from '../http/body.js';
import type { AnalyticsEvent, AnswerBody } from '../http/ports.js';
import { threadFailure } from './failure.js';
import { BYTES_ANSWER_MIN_CHARS } from './pool.js';
import type { OffloadJob, OffloadMessage, OffloadReply } from './pool.js';

const UTF8 = new TextDecoder();
const ENCODER = new TextEncoder();

/**
 * Text pieces as UTF-8 from the start of `buffer`, each encoded where it is, or in a new buffer of the exact size when
 * they do not fit (it goes to the main thread's pool afterwards, so the pool grows to the answers it sees).
 */
function encodePieces(pieces: readonly string[], buffer: ArrayBuffer): { buffer: ArrayBuffer; length: number } {
  let bytes = 0;
  for (const piece of pieces) bytes += Buffer.byteLength(piece);
  const target = buffer.byteLength >= bytes ? buffer : new ArrayBuffer(bytes);
  let length = 0;
  for (const piece of pieces) length += ENCODER.encodeInto(piece, new Uint8Array(target, length)).written;
  return { buffer: target, length };
}

/** The reply for an answer: a long one as bytes in the job's buffer (no string copy between threads), else as text. */
function replyFor(job: OffloadJob, status: number, body: AnswerBody, events: readonly AnalyticsEvent[], unexpected: unknown): { reply: OffloadReply; transfer: ArrayBuffer[] } {
  const common = { id: job.id, status, events, unexpected: unexpected === undefined ? undefined : threadFailure(unexpected) };
  const text = body instanceof Uint8Array ? UTF8.decode(body) : body;
  if (text === null || (typeof text === 'string' && text.length < BYTES_ANSWER_MIN_CHARS)) {
    return { reply: { ...common, body: text, buffer: job.buffer }, transfer: [job.buffer] };
  }
  const encoded = encodePieces(typeof text === 'string' ? [text] : text, job.buffer);
  return { reply: { ...common, body: null, buffer: encoded.buffer, answerBytes: encoded.length }, transfer: [encoded.buffer] };
}

/**
 * Answers the pool's jobs on `port` with `endpoints`, whose analytics events go to `events` (drained per job). The pool
 * hands over at most two jobs at a time (it keeps the queue, so it can drop jobs of clients that went away); they run
 * one after another, so each answer carries exactly the events its own request produced.
 */
export function answerJobs(port: MessagePort, endpoints: Endpoints, events: AnalyticsEvent[]): void {
  let previous: Promise<void> = Promise.resolve();
  port.on('message', (job: OffloadJob) => {
    previous = previous.then(async () => {
      let message: { reply: OffloadReply; transfer: ArrayBuffer[] };
      try {
        const body = decodedBody(new Uint8Array(job.buffer, 0, job.length));
        const answer = job.kind === 'mcp' ? await endpoints.mcp({ headers: job.headers, body }) : await endpoints.rest[job.kind](body);
        message = replyFor(job, answer.status, answer.body, events.splice(0), answer.unexpected);
      } catch (error) {
        // The endpoints answer what they can; anything else goes back as the failure, answered generically over there.
        message = { reply: { id: job.id, status: 0, body: null, events: events.splice(0), failed: threadFailure(error) }, transfer: [] };
      }
      port.postMessage(message.reply satisfies OffloadMessage, message.transfer);
    });
  });
  port.postMessage({ ready: true } satisfies OffloadMessage);
}
