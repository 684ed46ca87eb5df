// Every last-resort catch reports through one port: a failure thrown in each layer leaves exactly one log line with its
// stack and the request's number (the access log line carries the same number), and the client sees only the generic answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { createRestHandlers } from '../../src/endpoints/rest.js';
import { textIfUtf8 } from '../../src/http/body.js';
import { BufferPool } from '../../src/http/buffer-pool.js';
import { createHttpCore } from '../../src/http/core.js';
import { createOriginPolicy } from '../../src/http/origins.js';
import { createRouteTable } from '../../src/http/routes.js';
import type { ListeningServer } from '../../src/http/server-lifecycle.js';
import { createMcpHandler, mcpHealth } from '../../src/mcp/handler.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { unexpectedReporter } from '../../src/metrics/failures.js';
import { createHttpObserver } from '../../src/metrics/request-observer.js';
import { offloadEndpoints } from '../../src/offload/endpoints.js';
import { OffloadPool } from '../../src/offload/pool.js';
import { createRateLimiter } from '../../src/rate-limit/limiter.js';
import { MemoryRateLimitStore } from '../../src/rate-limit/memory.js';
import type { SessionOperations } from '../../src/session/operations.js';
import { McpStreamServer } from '../../src/stdio/stream-server.js';
import { createNodeHttpTransport } from '../../src/transport/node-http.js';
import { LIMITS } from '../../src/limits/table.js';
import { MODERN_CREATE_HEADERS, modernCreateRequest, smallPlan } from '../fixtures/requests.js';
import { send, startTestServer } from '../support/http.js';

const identity = { name: 'sessionplan-mcp', title: 'Sessionplan', version: '0.0.0-test', iconUrl: 'https://sessionplan.de/icon.png' };

/** Operations that fail the way no rule covers, as a bug in them would. */
const failingOperations = {
  createSessionLink: () => {
    throw new TypeError('marker: create failed in the operations');
  },
  decodeSessionLink: () => Promise.reject(new RangeError('marker: decode failed in the operations')),
} as unknown as SessionOperations;

interface LogLine {
  readonly msg: string;
  readonly requestId?: number;
  readonly route?: string;
  readonly status?: number;
  readonly path?: string;
  readonly err?: { readonly type: string; readonly message: string; readonly stack: string };
}

describe('a failure no rule covers, thrown in each layer', () => {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  let listening: ListeningServer;
  let pool: OffloadPool;
  let port: number;

  beforeAll(async () => {
    await loadCodec();
    const metrics = createMetrics({ defaultMetrics: false });
    const observer = createHttpObserver(metrics, logger);
    const handleMcp = createMcpHandler({ operations: failingOperations, identity });
    const hooks = { recordEvent: () => {} };
    // The real offload threads' protocol with a thread that fails on request (test/fixtures/offload-thread.ts).
    pool = new OffloadPool(1, { publicBaseUrl: 'https://sessionplan.de/' }, { onThreadFailure: () => {}, entry: new URL('../fixtures/offload-thread.ts', import.meta.url) });
    await pool.start();
    const local = {
      mcp: (request: { headers: Readonly<Record<string, string>>; body: Parameters<typeof textIfUtf8>[0] }) => {
        if (request.headers['x-fixture'] === 'endpoint-throws') throw new EvalError('marker: the endpoint threw');
        return handleMcp({ headers: request.headers, body: textIfUtf8(request.body) ?? '' });
      },
      rest: createRestHandlers(failingOperations, observer),
    };
    const routes = createRouteTable({
      mcp: offloadEndpoints(local, pool, hooks, new BufferPool()).mcp,
      healthJson: () => {
        throw new URIError('marker: the health answer failed');
      },
      ready: () => true,
      rest: local.rest,
      schemaJson: JSON.stringify(mcpHealth(identity)),
      iconPng: new Uint8Array([1]),
    });
    const core = createHttpCore({
      routes,
      rateLimiter: createRateLimiter(new MemoryRateLimitStore(), { limit: 1_000, windowS: 60 }),
      observer,
      origins: createOriginPolicy({ allowed: [], development: false }),
      hostGuard: false,
      trustProxy: 0,
      ipv6PrefixBits: 64,
      maxBodyBytes: LIMITS.requestBody.value,
    });
    listening = await createNodeHttpTransport().listen({ host: '127.0.0.1', port: 0, core, limits: { idleTimeoutS: 10, maxConnections: 0, maxConnectionsPerClient: 0 } });
    port = listening.port;
  }, 60_000);

  afterAll(async () => {
    await listening?.close(1_000);
    await pool?.close();
  });

  /** The one failure line the request to `path` left, after checking its access line carries the same number. */
  function failureOf(requestPath: string, status: number): LogLine {
    const access = lines.filter((line) => line.msg === 'request' && line.path === requestPath).at(-1)!;
    expect(access.status).toBe(status);
    const failures = lines.filter((line) => line.msg.startsWith('unexpected failure') && line.requestId === access.requestId);
    expect(failures).toHaveLength(1);
    return failures[0]!;
  }

  const mcpCall = (headers: Record<string, string> = {}, padding = 0): Promise<{ status: number; text: string }> => {
    const request = modernCreateRequest(smallPlan()) as { params: Record<string, unknown> };
    const body = JSON.stringify({ ...request, params: { ...request.params, pad: ' '.repeat(padding) } });
    return send(port, { method: 'POST', path: '/mcp', headers: { ...MODERN_CREATE_HEADERS, ...headers }, body });
  };

  it('in the HTTP core, answering a GET: 500 with the generic body', async () => {
    const reply = await send(port, { path: '/mcp' });
    expect([reply.status, reply.text]).toEqual([500, '{"error":"Internal server error"}']);
    const failure = failureOf('/mcp', 500);
    expect(failure.route).toBe('mcp');
    expect(failure.err?.stack).toMatch(/^URIError: marker: the health answer failed\n\s+at /);
  });

  it('in an endpoint that throws instead of answering: 500, one line', async () => {
    const reply = await mcpCall({ 'x-fixture': 'endpoint-throws' });
    expect(reply.status).toBe(500);
    expect(reply.text).not.toContain('marker');
    expect(failureOf('/mcp', 500).err?.stack).toMatch(/^EvalError: marker: the endpoint threw\n\s+at /);
  });

  it('in the MCP handler: -32603 with the request id, one line', async () => {
    const reply = await mcpCall();
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).error).toEqual({ code: -32603, message: 'Internal error' });
    expect(reply.text).not.toContain('marker');
    expect(failureOf('/mcp', 200).err?.stack).toMatch(/^TypeError: marker: create failed in the operations\n\s+at /);
  });

  it('in the REST endpoints: the generic 500, one line', async () => {
    const reply = await send(port, { method: 'POST', path: '/api/session-links/decode', headers: { 'content-type': 'application/json' }, body: '{"link":"v2:x"}' });
    expect(reply.status).toBe(500);
    expect(reply.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Unexpected processing failure' } });
    const failure = failureOf('/api/session-links/decode', 500);
    expect(failure.route).toBe('rest_decode');
    expect(failure.err?.stack).toMatch(/^RangeError: marker: decode failed in the operations\n\s+at /);
  });

  it('in an offload thread that throws: the thread posts the error back, logged as the cause with its stack', async () => {
    const reply = await mcpCall({ 'x-fixture': 'throw' }, LIMITS.heavyBody.value);
    expect(JSON.parse(reply.text).error.code).toBe(-32603);
    const failure = failureOf('/mcp', 200);
    expect(failure.err?.message).toBe('a request in an offload thread failed: fixture: thrown in an offload thread');
    expect(failure.err?.stack).toMatch(/caused by: RangeError: fixture: thrown in an offload thread\n\s+at .*offload-thread\.ts/);
  });

  it('in an offload thread that answers generically: the failure behind the answer crosses with it', async () => {
    const reply = await mcpCall({ 'x-fixture': 'answer-generically' }, LIMITS.heavyBody.value);
    expect(JSON.parse(reply.text).error.code).toBe(-32603);
    expect(failureOf('/mcp', 200).err?.stack).toMatch(/caused by: SyntaxError: fixture: answered generically in an offload thread\n\s+at .*offload-thread\.ts/);
  });

  it('on stdio: the message number instead of a request id, the same line', async () => {
    const written: string[] = [];
    const failures: LogLine[] = [];
    const stdioLogger = pino({ level: 'info', base: undefined }, { write: (line: string) => void failures.push(JSON.parse(line) as LogLine) });
    const server = new McpStreamServer({
      handle: createMcpHandler({ operations: failingOperations, identity, transport: 'stream' }),
      write: (line) => void written.push(line),
      maxMessageBytes: LIMITS.requestBody.value,
      onUnexpected: unexpectedReporter(stdioLogger),
    });
    const call = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'create_session_link', arguments: { session: smallPlan() } } });
    server.push(Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping"}\n${call(2)}\n`));
    await server.end();
    expect(JSON.parse(written[1]!).error.code).toBe(-32603);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ route: 'stdio', requestId: 2 });
    expect(failures[0]!.err?.stack).toMatch(/^TypeError: marker: create failed in the operations\n/);
  });

  it('never writes a failure line without a request: every line above belongs to one request', () => {
    const unattached = lines.filter((line) => line.msg.startsWith('unexpected failure') && !lines.some((access) => access.msg === 'request' && access.requestId === line.requestId));
    expect(unattached).toEqual([]);
  });
});

describe('the offload pool when its threads fail', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'offload-fixture-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a thread that died, tries again after a replacement that fails to start, and is not ready meanwhile', { timeout: 60_000 }, async () => {
    const countdown = path.join(dir, 'failed-starts');
    writeFileSync(countdown, '0');
    process.env.OFFLOAD_FIXTURE_FAILED_STARTS = countdown;
    const failures: string[] = [];
    const pool = new OffloadPool(1, { publicBaseUrl: 'https://sessionplan.de/' }, { onThreadFailure: (error) => failures.push(error.message), entry: new URL('../fixtures/offload-thread.ts', import.meta.url) });
    try {
      await pool.start();
      expect(pool.hasThreads).toBe(true);
      const job = (headers: Record<string, string>): Promise<unknown> => {
        const bytes = new TextEncoder().encode(JSON.stringify(modernCreateRequest(smallPlan())));
        const lowerCase = Object.fromEntries(Object.entries(MODERN_CREATE_HEADERS).map(([name, value]) => [name.toLowerCase(), value]));
        return pool.run('mcp', { ...lowerCase, ...headers }, bytes.buffer, bytes.byteLength);
      };
      // The next start fails once; then the thread is told to exit under a job.
      writeFileSync(countdown, '1');
      await expect(job({ 'x-fixture': 'exit' })).rejects.toThrow(/exited with 3/);
      expect(pool.hasThreads).toBe(false);
      // A job sent while there is no thread waits for the replacement that starts after the failed one.
      const served = job({}) as Promise<{ status: number }>;
      await expect.poll(() => failures.length, { timeout: 20_000 }).toBe(2);
      expect(failures[1]).toMatch(/fixture: this offload thread fails to start/);
      expect((await served).status).toBe(200);
      expect(pool.hasThreads).toBe(true);
    } finally {
      delete process.env.OFFLOAD_FIXTURE_FAILED_STARTS;
      await pool.close();
    }
  });

  it('GET /readyz answers 503 while the server has no offload thread, and 200 once a replacement runs', { timeout: 60_000 }, async () => {
    const countdown = path.join(dir, 'failed-starts-server');
    writeFileSync(countdown, '0');
    process.env.OFFLOAD_FIXTURE_FAILED_STARTS = countdown;
    const server = await startTestServer({ OFFLOAD_THREADS: '1' }, { offloadEntry: new URL('../fixtures/offload-thread.ts', import.meta.url) });
    try {
      expect((await send(server.port, { path: '/readyz' })).status).toBe(200);
      // Three failed starts: the replacement comes after 100 + 200 + 400 ms of backoff and four starts.
      writeFileSync(countdown, '3');
      const body = JSON.stringify({ ...modernCreateRequest(smallPlan()), pad: ' '.repeat(LIMITS.heavyBody.value) });
      const killed = send(server.port, { method: 'POST', path: '/mcp', headers: { ...MODERN_CREATE_HEADERS, 'x-fixture': 'exit' }, body });
      const readiness: number[] = [];
      const t0 = performance.now();
      while (performance.now() - t0 < 30_000) {
        readiness.push((await send(server.port, { path: '/readyz' })).status);
        if (readiness.includes(503) && readiness.at(-1) === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(JSON.parse((await killed).text).error.code).toBe(-32603);
      expect(readiness).toContain(503);
      expect(readiness.at(-1)).toBe(200);
      // Served again by the replacement.
      const again = await send(server.port, { method: 'POST', path: '/mcp', headers: MODERN_CREATE_HEADERS, body: JSON.stringify(modernCreateRequest(smallPlan())) });
      expect(JSON.parse(again.text).result.structuredContent.link).toMatch(/#data=v2:/);
    } finally {
      delete process.env.OFFLOAD_FIXTURE_FAILED_STARTS;
      await server.close();
    }
  });
});
