// A server out of file descriptors keeps running and answers again once clients let go of their sockets (the real built
// server, its descriptor limit lowered with prlimit as it runs).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { logLines, startMainProcess, type MainProcess } from '../support/main-process.js';

const SPARE_FILES = 30;
const SOCKETS = 120;

/** Opens a socket; resolves once it connected and either stays open for 300 ms or is closed by the server. */
function openSocket(port: number): Promise<{ socket: Socket; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('close', () => resolve({ socket, closedByServer: true }));
    socket.once('connect', () => setTimeout(() => resolve({ socket, closedByServer: socket.destroyed }), 300));
  });
}

/** Sets the running process's soft descriptor limit (ulimit -n), which it may raise again, with util-linux's prlimit. */
function limitOpenFiles(pid: number, limit: number): void {
  execFileSync('prlimit', [`--pid=${pid}`, `--nofile=${limit}:`]);
}

const descriptors = (pid: number): string[] => readdirSync(`/proc/${pid}/fd`);
/** A limit below every descriptor but stdin, stdout and stderr: no new one can be opened at all. */
const NONE_LEFT = 3;

/** A health check that gives up after a second (an unaccepted connection waits in the kernel's backlog). */
function status(port: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    let text = '';
    const timer = setTimeout(() => socket.destroy(), 1_000);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    });
  });
}

describe.each(['node', 'uws'] as const)('%s adapter: out of file descriptors', (transport) => {
  let server: MainProcess | undefined;
  afterEach(async () => {
    await server?.stop();
  });

  it(`keeps running while ${SOCKETS} sockets exhaust its descriptors, and answers again once they close`, { timeout: 60_000 }, async () => {
    server = await startMainProcess({ TRANSPORT: transport, LOG_LEVEL: 'info' }, { built: true });
    const { pid, port } = server;
    const limit = descriptors(pid).length + SPARE_FILES;
    limitOpenFiles(pid, limit);
    const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => openSocket(port)));
    const held = sockets.filter((s) => !s.closedByServer).length;
    expect(held).toBeGreaterThan(0);
    expect(await status(port)).toBe(0);
    // No descriptor left even for the one libuv keeps in reserve to shed connections it cannot accept: an accept then
    // fails all the way to the listener (EMFILE), which once made node:http's listener throw and the process exit.
    limitOpenFiles(pid, NONE_LEFT);
    expect(await Promise.all([status(port), status(port), status(port)])).toEqual([0, 0, 0]);
    // The limit as it was, and the clients let go: served again, by the same process.
    limitOpenFiles(pid, limit);
    for (const { socket } of sockets) socket.destroy();
    await expect.poll(() => status(port), { timeout: 10_000 }).toBe(200);
    expect(server.child.exitCode).toBeNull();
    console.log(`${transport}: ${held} of ${SOCKETS} sockets held before the descriptors ran out; served again once they closed`);
    expect(logLines(server.stdout()).filter((line) => (line.level as number) >= 50)).toEqual([]);
  });
});
