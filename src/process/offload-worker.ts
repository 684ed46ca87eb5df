// Entry of one offload thread: answers heavy POSTs with the server's own endpoints and hands back their events.
import { parentPort, workerData } from 'node:worker_threads';
import { loadCodec } from '../codec/node.js';
import { createEndpoints } from '../endpoints.js';
import type { AnalyticsEvent } from '../http/ports.js';
import type { OffloadJob, OffloadMessage, OffloadReply, OffloadWorkerData } from './offload.js';

const port = parentPort!;
const { publicBaseUrl } = workerData as OffloadWorkerData;
let events: AnalyticsEvent[] = [];
let internalError = false;
const endpoints = createEndpoints(publicBaseUrl, {
  recordEvent: (event) => events.push(event),
  onInternalError: () => {
    internalError = true;
  },
});
await loadCodec();

// The pool hands over at most two jobs at a time (it keeps the queue, so it can drop jobs of clients that went away).
// They run one after another, so each answer carries exactly the events its own request produced.
let previous: Promise<void> = Promise.resolve();
port.on('message', (job: OffloadJob) => {
  previous = previous.then(async () => {
    let reply: OffloadReply;
    try {
      const answer = job.kind === 'mcp' ? await endpoints.mcp({ headers: job.headers, body: job.body }) : await endpoints.rest[job.kind](job.body);
      const body = answer.body;
      reply = { id: job.id, status: answer.status, body: typeof body === 'string' || body === null ? body : Buffer.from(body).toString(), events, internalError };
    } catch {
      // The endpoints catch what they can; anything else becomes the generic internal error on the main thread.
      reply = { id: job.id, status: 0, body: null, events, internalError: true, failed: true };
    }
    events = [];
    internalError = false;
    port.postMessage(reply satisfies OffloadMessage);
  });
});
port.postMessage({ ready: true } satisfies OffloadMessage);
