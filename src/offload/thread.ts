// Entry of one offload thread: answers heavy POSTs with the server's own endpoints and hands back their events.
import { parentPort, workerData } from 'node:worker_threads';
import { loadCodec } from '../codec/node.js';
import { createEndpoints } from '../endpoints/endpoints.js';
import type { AnalyticsEvent } from '../http/ports.js';
import { answerJobs } from './jobs.js';
import type { OffloadWorkerData } from './pool.js';

const { publicBaseUrl, appView, prompts } = workerData as OffloadWorkerData;
const events: AnalyticsEvent[] = [];
// Endpoints for large requests: long documents and answers are made in pieces and encoded piece by piece.
const endpoints = createEndpoints(publicBaseUrl, { recordEvent: (event) => events.push(event) }, { largeTexts: true, appView, prompts });
await loadCodec();
answerJobs(parentPort!, endpoints, events);
