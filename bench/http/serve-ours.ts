// Starts our real server (src/server.ts, adapter from TRANSPORT) from the environment for the HTTP benches; port 0 by default.
// Prints "LISTENING <port>" on stderr (stdout carries the server's own pino request log).
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

const server = await startServer(loadConfig({ ...process.env, PORT: process.env.PORT ?? '0' }));
console.error(`LISTENING ${server.port}`);
const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
