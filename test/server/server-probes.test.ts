// Probes and drain for load balancers: /livez and /readyz, and SHUTDOWN_DELAY_S after a stop signal (readiness 503 at
// once, answers with Connection: close, then the graceful stop), on one process and with worker threads.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRaw, send } from '../support/http.js';
import { startMainProcess, type MainProcess } from '../support/main-process.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
let server: MainProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Two requests on one keep-alive connection, the second `gapMs` after the first answer: both raw answers. */
async function twoOnOneConnection(port: number, gapMs: number, between: () => void): Promise<[string, string]> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  for (let waited = 0; !text.includes('}') && waited < 2_000; waited += 10) await sleep(10);
  const first = text;
  between();
  await sleep(gapMs);
  text = '';
  socket.write('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const closed = new Promise((r) => socket.once('close', r));
  await Promise.race([closed, sleep(3_000)]);
  socket.destroy();
  return [first, text];
}

describe('probes', () => {
  it('/livez and /readyz answer 200 with a small JSON body, to GET and HEAD; POST is 405', async () => {
    server = await startMainProcess({ LOG_LEVEL: 'info' }, { built: true });
    expect(await send(server.port, { path: '/livez' })).toMatchObject({ status: 200, text: '{"status":"alive"}' });
    expect(await send(server.port, { path: '/readyz' })).toMatchObject({ status: 200, text: '{"status":"ready"}' });
    expect((await send(server.port, { method: 'HEAD', path: '/readyz' })).status).toBe(200);
    expect((await send(server.port, { method: 'POST', path: '/livez', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(405);
  });
});

describe.each([
  ['one process', {}],
  ['two worker threads (uWS)', { WORKERS: '2', TRANSPORT: 'uws' }],
] as const)('SHUTDOWN_DELAY_S=2, %s', (_name, env) => {
  it('a stop signal turns /readyz 503 at once; it serves on with Connection: close, then stops and exits 0', { timeout: 30_000 }, async () => {
    server = await startMainProcess({ LOG_LEVEL: 'info', SHUTDOWN_DELAY_S: '2', ...env }, { built: true });
    const port = server.port;
    let signalledAt = 0;
    const [before, during] = await twoOnOneConnection(port, 300, () => {
      signalledAt = performance.now();
      server!.child.kill('SIGTERM');
    });
    expect(parseRaw(before).status).toBe(200);
    expect(parseRaw(before).headers['connection']).not.toBe('close');
    // The keep-alive connection's next answer says it closes.
    expect(parseRaw(during).status).toBe(200);
    expect(parseRaw(during).headers['connection']).toBe('close');
    // New connections are still accepted and answered during the delay; readiness says draining.
    const ready = await send(port, { path: '/readyz' });
    expect(ready).toMatchObject({ status: 503, text: '{"status":"draining"}' });
    expect((await send(port, { path: '/mcp' })).status).toBe(200);
    const exit = await server.exited;
    const stoppedAfter = performance.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stoppedAfter).toBeGreaterThan(1_900);
    expect(stoppedAfter).toBeLessThan(6_000);
  });
});
