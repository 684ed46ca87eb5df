// Protocol fuzz against the built server process (node:http, and uWS with WORKERS=2): ≥ 20,000 random/mutated envelopes and headers per run;
// never a 5xx but the defined 503, never a crash, JSON-RPC bodies exactly where the errors table of docs/http-api.md says so.
// SCALE_FUZZ_N (default 20000) and SCALE_FUZZ_SEED (default: time-based, printed) reproduce or lengthen a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRaw, raw, send, startTestServer } from '../support/http.js';
import { createFuzzer } from '../support/fuzz-requests.js';
import type { LoadReply, LoadRequest } from '../support/load.js';
import { runLoad } from '../support/load.js';
import { startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';

const COUNT = Number(process.env.SCALE_FUZZ_N ?? '20000');
const SEED = Number(process.env.SCALE_FUZZ_SEED ?? String(Date.now() % 2 ** 31));

/** HTTP status → the JSON-RPC error codes the errors table allows for it on /mcp (200 may also carry a result). */
const MCP_CODES_BY_STATUS: Record<number, number[]> = {
  200: [-32700, -32600, -32601, -32602],
  400: [-32022, -32020],
  // Not in the errors table: an Accept header that excludes JSON; the server answers {"error": …} (checked below).
  403: [-32600],
  404: [-32601],
  413: [-32600],
  429: [-32000],
  503: [-32603],
};

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Why `reply` breaks the contract for `request`, or undefined when it is fine. */
function violation(request: LoadRequest, reply: LoadReply): string | undefined {
  if (reply.status >= 500 && reply.status !== 503) return `HTTP ${reply.status}`;
  if (reply.headers['cache-control'] !== 'no-store' || reply.headers['x-content-type-options'] !== 'nosniff') return 'security headers missing';
  const path = request.path.split('?')[0];
  if (request.method === 'HEAD' || request.method === 'OPTIONS') return reply.status < 500 ? undefined : `HTTP ${reply.status}`;
  const body = parse(reply.body) as Record<string, unknown> | undefined;
  if (reply.status === 405) return reply.body === '{"error":"Method not allowed"}' || path !== '/mcp' ? undefined : `405 body ${reply.body}`;
  if (reply.status === 406) return reply.body === '{"error":"Accept must allow application/json"}' ? undefined : `406 body ${reply.body}`;
  if (reply.status === 415) return path !== '/mcp' && path !== '/mcp/' ? undefined : reply.body === '{"error":"Content-Type must be application/json"}' ? undefined : `415 body ${reply.body}`;
  if ((path === '/mcp' || path === '/mcp/') && request.method === 'POST') {
    if (reply.status === 202) return reply.body === '' ? undefined : '202 with a body';
    const allowed = MCP_CODES_BY_STATUS[reply.status];
    if (allowed === undefined) return `unexpected HTTP ${reply.status} on /mcp`;
    if (body === undefined || typeof body !== 'object' || Array.isArray(body)) return `not JSON: ${reply.body.slice(0, 100)}`;
    if (body['jsonrpc'] !== '2.0') return 'jsonrpc is not "2.0"';
    if ('id' in body && !(typeof body['id'] === 'string' || typeof body['id'] === 'number' || body['id'] === null)) return 'bad id';
    const sent = parse(typeof request.body === 'string' ? request.body : '') as Record<string, unknown> | undefined;
    const sentId = sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? sent['id'] : undefined;
    if ((typeof sentId === 'string' || typeof sentId === 'number') && body['id'] !== undefined && body['id'] !== null && body['id'] !== sentId) return 'id not echoed';
    const hasResult = 'result' in body;
    const error = body['error'] as { code?: unknown; message?: unknown } | undefined;
    if (hasResult === (error !== undefined)) return 'needs exactly one of result and error';
    if (hasResult) return reply.status === 200 ? undefined : `result with HTTP ${reply.status}`;
    if (!Number.isInteger(error!.code) || typeof error!.message !== 'string') return 'error needs an integer code and a message';
    return allowed.includes(error!.code as number) ? undefined : `code ${String(error!.code)} with HTTP ${reply.status}`;
  }
  // REST and the other routes: JSON bodies parse whenever they say they are JSON.
  const type = String(reply.headers['content-type'] ?? '');
  if (type.startsWith('application/json') && body === undefined) return `JSON content type, body not JSON: ${reply.body.slice(0, 100)}`;
  return undefined;
}

// node:http (the default) as one process; uWS with two workers, as it runs in a multi-core deployment.
describe.each([
  { transport: 'node', workers: '1' },
  { transport: 'uws', workers: '2' },
] as const)('protocol fuzz, $transport adapter, WORKERS=$workers', ({ transport, workers }) => {
  let server: MainProcess;
  beforeAll(async () => {
    if (!(COUNT >= 1)) throw new Error(`SCALE_FUZZ_N must be a positive number (got ${process.env.SCALE_FUZZ_N}).`);
    server = await startMainProcess({ TRANSPORT: transport, WORKERS: workers, RATE_LIMIT: '1000000000', LOG_LEVEL: 'info' }, { built: true });
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) await server.stop();
  });

  it(`answers ${COUNT} random and mutated requests within the error table (seed from SCALE_FUZZ_SEED or printed)`, { timeout: 240_000 }, async () => {
    const fuzzer = createFuzzer(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let transportErrors = 0;
    let droppedByUws = 0;
    let done = 0;
    const sent = await runLoad({
      port: server.port,
      concurrency: 16,
      // One connection per request: each answer is judged on its own. (Keep-alive reuse after some non-POST requests
      // with bodies is a separate uWS 20.30 limit, see docs/deployment.md.)
      keepAlive: false,
      next: () => fuzzer.next(),
      until: () => done < COUNT,
      check: (request, reply) => {
        done++;
        if (reply instanceof Error) {
          transportErrors++;
          // uWS 20.30 drops some requests without an answer before our code sees them: unknown methods (FOO) and
          // non-POST requests carrying a body. Counted and printed, not judged; every POST and GET must be answered.
          if (transport === 'uws' && request.method !== 'POST' && request.method !== 'GET' && /socket hang up|ECONNRESET/.test(reply.message)) {
            droppedByUws++;
            return;
          }
          if (failures.length < 5) failures.push(`${request.method} ${request.path}: ${reply.message}`);
          return;
        }
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const problem = violation(request, reply);
        if (problem !== undefined && failures.length < 10) {
          failures.push(`${problem} ← ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${String(request.body).slice(0, 300)}`);
        }
      },
    });
    console.log(`fuzz seed ${SEED} (${transport}): ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; transport errors ${transportErrors} (of which non-POST/GET dropped by uWS: ${droppedByUws})`);
    expect(sent).toBeGreaterThanOrEqual(COUNT);
    // node:http answers every request, unknown methods included (405 with the table's body).
    if (transport === 'node') expect(transportErrors).toBe(0);
    expect(failures, `seed ${SEED}`).toEqual([]);
    // Still alive and well, and it stops cleanly: no crash, no stack trace on stderr.
    expect((await send(server.port)).json().status).toBe('ok');
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe('');
  });
});

describe('regressions the fuzz found', () => {
  it('uWS: closes the connection after a HEAD answer (uWS 20.30 left it unusable for the next request)', async () => {
    const local = await startTestServer({ TRANSPORT: 'uws' });
    try {
      const reply = await raw(local.port, [`HEAD /mcp HTTP/1.1\r\nHost: ${local.host}\r\n\r\n`], 1000);
      const head = parseRaw(reply);
      expect(head.status).toBe(200);
      expect(head.headers['connection']).toBe('close');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify((await send(local.port)).json()))));
    } finally {
      await local.close();
    }
  });
});
