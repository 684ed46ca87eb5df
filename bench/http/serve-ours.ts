// Starts our real server as deployed (the built dist/, adapter from TRANSPORT) for the HTTP benches; port 0 by default.
// Prints "LISTENING <port>" on stderr (stdout carries the server's own pino request log). Needs `npm run build`.
// SERVE_ROOT=<checkout> serves another checkout's dist/ (bench/http/ab.ts compares two builds that way).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const dist = process.env.SERVE_ROOT ? pathToFileURL(`${process.env.SERVE_ROOT.replace(/\/$/, '')}/dist/`) : new URL('../../dist/', import.meta.url);
// Builds from before the server got its folder had dist/server.js and dist/config.js; A/B runs may compare with them.
const folder = existsSync(new URL('server/start-server.js', dist)) ? 'server/' : '';
const entry = folder === '' ? 'server.js' : 'server/start-server.js';
if (!existsSync(new URL(entry, dist))) throw new Error(`${dist.pathname}server/start-server.js is missing: run \`npm run build\` in that checkout before the HTTP benches.`);
// Built JavaScript, not src/ through tsx: tsx's transform adds work per closure that production never does.
const { loadConfig } = (await import(new URL(`${folder}config.js`, dist).href)) as typeof import('../../src/server/config.js');
const { startServer } = (await import(new URL(entry, dist).href)) as typeof import('../../src/server/start-server.js');

const server = await startServer(loadConfig({ ...process.env, PORT: process.env.PORT ?? '0' }));
console.error(`LISTENING ${server.port}`);
const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
