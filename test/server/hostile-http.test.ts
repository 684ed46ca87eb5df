// The hostile cases over real HTTP against the built server as it starts by default: bounded server CPU per request,
// bounded answers, and a health probe that keeps being answered while they run (also ten at once, and nested bodies).
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileCases } from '../fixtures/hostile-cases.js';
import type { HostileCase } from '../fixtures/hostile-cases.js';
import { cpuOf, startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';
import { LIMITS } from '../../src/limits/table.js';

/**
 * Server CPU per request, whatever the case. The worst case measures ~30–75 ms here (bench:hostile prints each);
 * before the early-stop validation the worst took 3,800–11,000 ms, so a tenfold regression of any case breaks this.
 */
const CPU_CEILING_MS = 400;
/** Health answers while the cases run (measured 2–20 ms between them; a blocked loop waited seconds before). */
const HEALTH_CEILING_MS = 500;
const ROUNDS = 3;

interface Reply {
  status: number;
  body: string;
}

function post(port: number, path: string, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${path} within 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Health GETs on fresh connections, one every 10 ms, until stopped; resolves with every latency. */
function probeHealth(port: number): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/mcp', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', reject).end();
      });
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

const restBody = (hostile: HostileCase): string => (hostile.operation === 'create' ? `{"session":${hostile.argumentJson}}` : `{"link":${hostile.argumentJson}}`);
const restPath = (hostile: HostileCase): string => (hostile.operation === 'create' ? '/api/session-links' : '/api/session-links/decode');

let server: MainProcess;
beforeAll(async () => {
  server = await startMainProcess({ LOG_LEVEL: 'info', RATE_LIMIT: '1000000' }, { built: true });
});
afterAll(async () => {
  await server?.stop();
});

describe('hostile requests over REST (node:http, the default setup)', () => {
  const cases = hostileCases();

  it(`answers every case within ${CPU_CEILING_MS} ms of server CPU and about its size, while health stays answered`, { timeout: 240_000 }, async () => {
    // Every body is built before the probe starts: building one takes this process seconds, which the probe would
    // count against the server.
    const bodies = cases.map(restBody);
    const probe = probeHealth(server.port);
    const rows: string[] = [];
    const failures: string[] = [];
    for (const [index, hostile] of cases.entries()) {
      const body = bodies[index]!;
      const before = cpuOf(server.pid);
      let reply: Reply | undefined;
      for (let i = 0; i < ROUNDS; i++) reply = await post(server.port, restPath(hostile), body);
      const cpuMs = (cpuOf(server.pid) - before) / ROUNDS;
      const ok = reply!.status === 200;
      // The answer holds at most the decoded document (decode) plus a small constant: never a multiple of the request.
      const decoded = hostile.operation === 'decode' && ok ? (JSON.parse(reply!.body) as { session: unknown }).session : undefined;
      const documentBytes = decoded === undefined ? 0 : Buffer.byteLength(JSON.stringify(decoded));
      const ratio = Buffer.byteLength(reply!.body) / (Buffer.byteLength(body) + documentBytes);
      rows.push(`${hostile.name}: HTTP ${reply!.status}, ${cpuMs.toFixed(1)} ms CPU, answer ${ratio.toFixed(2)}× (request + document)`);
      if (ok !== hostile.succeeds) failures.push(`${hostile.name}: HTTP ${reply!.status} ${reply!.body.slice(0, 200)}`);
      if (!(cpuMs <= CPU_CEILING_MS)) failures.push(`${hostile.name}: ${cpuMs.toFixed(0)} ms of server CPU per request`);
      if (!(ratio <= 1.5)) failures.push(`${hostile.name}: answer ${ratio.toFixed(2)}× request + document`);
    }
    const latencies = await probe.stop();
    console.log(`${rows.join('\n')}\nhealth during the cases: ${latencies.length} probes, max ${Math.max(...latencies).toFixed(0)} ms`);
    expect(failures).toEqual([]);
    expect(Math.max(...latencies)).toBeLessThan(HEALTH_CEILING_MS);
  });

  it('stays responsive while ten of the costliest decodes run at once', { timeout: 120_000 }, async () => {
    const costly = cases.find((c) => c.name.startsWith('decode: 450 blocks'))!;
    const body = restBody(costly);
    const probe = probeHealth(server.port);
    const replies = await Promise.all(Array.from({ length: 10 }, () => post(server.port, restPath(costly), body)));
    const latencies = await probe.stop();
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(422));
    expect(Math.max(...latencies), `health latencies ${latencies.map((l) => l.toFixed(0)).join(' ')}`).toBeLessThan(HEALTH_CEILING_MS);
  });
  it('bounds what clients that leave mid-request cost: health answers soon after three aborted costly decodes', { timeout: 60_000 }, async () => {
    // Nothing is cut short when a client leaves: an aborted request leaves one bounded request's worth of work, done
    // in an offload thread (before the early-stop validation, three of these delayed health by 13 s).
    const costly = cases.find((c) => c.name.startsWith('decode: 450 blocks'))!;
    const body = restBody(costly);
    const head = `POST ${restPath(costly)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const delays: number[] = [];
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 3 }, () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(server.port, '127.0.0.1', () => socket.end(head + body, () => (socket.destroy(), resolve())));
            socket.on('error', reject);
          }),
        ),
      );
      const t0 = performance.now();
      const health = await new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: server.port, path: '/mcp', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        }).on('error', reject).end();
      });
      delays.push(performance.now() - t0);
      expect(health).toBe(200);
    }
    console.log(`health right after 3 aborted costly decodes: ${delays.map((d) => d.toFixed(0)).join(', ')} ms`);
    expect(Math.max(...delays)).toBeLessThan(HEALTH_CEILING_MS);
    // The decodes themselves still run (in the offload thread, in order): the next one is answered after them, so the
    // CPU of later tests does not include them.
    expect((await post(server.port, restPath(costly), body)).status).toBe(422);
  });
});

describe('bodies nested deeper than any request needs', () => {
  const nested = (depth: number): string => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_session_link","arguments":{"session":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;

  it(`refuses a 1.8 MB body nested 900,000 levels before parsing it (MCP -32600, REST 400), in a few ms of CPU`, async () => {
    const before = cpuOf(server.pid);
    const mcp = await post(server.port, '/mcp', nested(900_000));
    const rest = await post(server.port, '/api/session-links', `{"session":${'['.repeat(900_000)}${']'.repeat(900_000)}}`);
    const cpuMs = (cpuOf(server.pid) - before) / 2;
    expect(mcp.status).toBe(200);
    expect(JSON.parse(mcp.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: the request body nests deeper than ${LIMITS.requestDepth.value} levels` } });
    expect([rest.status, JSON.parse(rest.body).error.code]).toEqual([400, 'INVALID_REQUEST_BODY']);
    // Parsing it took V8 ~400 ms; the bracket scan a few ms per MB.
    expect(cpuMs).toBeLessThan(100);
  });

  it('still parses a body that merely has many brackets, and one nested as deep as allowed', async () => {
    const wide = `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":[${Array(30_000).fill('[]').join(',')}]}}`;
    expect(JSON.parse((await post(server.port, '/mcp', wide)).body)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    const deepOk = `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":${'['.repeat(LIMITS.requestDepth.value - 3)}${']'.repeat(LIMITS.requestDepth.value - 3)},"wide":[${Array(25_000).fill('{}').join(',')}]}}`;
    expect(JSON.parse((await post(server.port, '/mcp', deepOk)).body)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });
});
