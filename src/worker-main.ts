// Entry of one server worker thread (WORKERS>1): runs the server on the shared port until the main thread says stop.
import { startWorkerServer } from './server.js';
import { serveInWorker } from './transport/workers.js';

serveInWorker(startWorkerServer);
