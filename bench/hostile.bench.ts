// bench:hostile — each crafted request of test/fixtures/hostile-cases.ts against a real server: size, CPU, answer, health.
// Writes bench/results/local/hostile.json, with --save also bench/results/ (HOSTILE_OUT overrides the file name and HOSTILE_NOTE adds a note, e.g. for older code).
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadCodec } from '../src/codec/node.js';
import { SessionError } from '../src/session/errors.js';
import { createSessionOperations } from '../src/session/operations.js';
import { argumentOf, hostileCases, type HostileCase } from '../test/fixtures/hostile-cases.js';
import { MODERN_CREATE_HEADERS, MODERN_VERSION } from './http/bodies.js';
import { cpuSeconds } from './http/processes.js';
import { writeResults } from './results.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Requests per case and surface: at least this many, and at least MIN_SECONDS of them (CPU ticks are 10 ms). */
const MIN_REQUESTS = Number(process.env.HOSTILE_MIN_REQUESTS ?? '10');
const MIN_SECONDS = Number(process.env.HOSTILE_MIN_SECONDS ?? '1');
const PROBE_INTERVAL_MS = 5;
const round = (x: number, digits = 2): number => Number(x.toFixed(digits));
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The built `dist/process/main.js` as bench/check-http.ts starts it (PORT=0, one worker), resolved once the ready line names the port. */
function startServer(): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['dist/process/main.js'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', WORKERS: '1', RATE_LIMIT: '1000000000', RATE_WINDOW_S: '1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s: ${out.slice(-1000)}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      out = '';
      resolve({ port: Number(match[1]), child });
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out.slice(-1000)}`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function send(port: number, method: string, path: string, body: string | null, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: body === null ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

interface Surface {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The REST and the MCP form of a case, built around the argument's JSON text (some cannot be re-serialized). */
function surfaces(hostile: HostileCase): Record<'rest' | 'mcp', Surface> {
  const create = hostile.operation === 'create';
  const name = create ? 'create_session_link' : 'decode_session_link';
  const argument = `{"${create ? 'session' : 'link'}":${hostile.argumentJson}}`;
  const meta = `{"io.modelcontextprotocol/protocolVersion":"${MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{}}`;
  return {
    rest: { path: create ? '/api/session-links' : '/api/session-links/decode', headers: { 'Content-Type': 'application/json' }, body: argument },
    mcp: {
      path: '/mcp',
      headers: { ...MODERN_CREATE_HEADERS, 'Mcp-Name': name },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${argument},"_meta":${meta}}}`,
    },
  };
}

/** Sequential requests of one surface while a second connection probes GET /mcp; server CPU from /proc. */
async function measure(port: number, pid: number, surface: Surface) {
  const probes: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      await send(port, 'GET', '/mcp', null, { Accept: 'application/json' });
      probes.push(performance.now() - started);
      await sleep(PROBE_INTERVAL_MS);
    }
  })();
  await sleep(50); // the probe loop is running before the first hostile request
  const cpu0 = cpuSeconds(pid);
  const started = performance.now();
  const walls: number[] = [];
  let answer = { status: 0, bytes: 0 };
  // A connection reset or a dead server is a result too (older code could take a server down); it ends the case.
  let failure: string | null = null;
  while (walls.length < MIN_REQUESTS || performance.now() - started < MIN_SECONDS * 1000) {
    const t = performance.now();
    try {
      answer = await send(port, 'POST', surface.path, surface.body, surface.headers);
    } catch (error) {
      failure = (error as NodeJS.ErrnoException).code ?? String(error);
      break;
    }
    walls.push(performance.now() - t);
    if (walls.length >= 1000) break;
  }
  let cpuMs = Number.NaN;
  try {
    cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / Math.max(1, walls.length);
  } catch {
    failure ??= 'server gone';
  }
  probing = false;
  await probe.catch(() => undefined);
  return {
    requestBytes: Buffer.byteLength(surface.body),
    failure,
    status: answer.status,
    answerBytes: answer.bytes,
    requests: walls.length,
    serverCpuMsPerRequest: round(cpuMs),
    wallMsMedian: round(quantile(walls, 0.5)),
    healthProbeMs: { p50: round(quantile(probes, 0.5)), p99: round(quantile(probes, 0.99)), max: round(Math.max(...probes)), probes: probes.length },
  };
}

const operations = createSessionOperations(loadCodec);
const codec = await loadCodec();

/** In-process: CPU of the operation alone (argument already parsed), cheapest of 5, and the decoded text's length. */
async function inProcess(hostile: HostileCase) {
  const link = hostile.operation === 'decode' ? (argumentOf(hostile) as string) : '';
  const documentChars = link ? codec.decompress(link.slice(link.indexOf('#data=v2:') + 9)).length : hostile.argumentJson.length;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const argument = argumentOf(hostile);
    const started = process.cpuUsage();
    try {
      if (hostile.operation === 'create') await operations.createSessionLink(argument);
      else await operations.decodeSessionLink(argument);
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
    }
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return { cpuMs: round(best), documentChars };
}

type Measured = Awaited<ReturnType<typeof measure>> & { answerRatio: number; answerExcessBytes: number };
interface Entry {
  name: string;
  operation: string;
  expected: string;
  documentChars: number;
  inProcessCpuMs: number;
  rest: Measured;
  mcp: Measured;
}

let server = await startServer();
const results: Entry[] = [];
/** The server, started again when a case took it down. */
async function running(): Promise<{ port: number; child: ChildProcess }> {
  if (server.child.exitCode === null && server.child.signalCode === null) return server;
  console.log(`server exited (${server.child.exitCode ?? server.child.signalCode}); starting a new one`);
  agent.destroy();
  server = await startServer();
  return server;
}
try {
  for (const hostile of hostileCases()) {
    const forms = surfaces(hostile);
    const local = await inProcess(hostile);
    let { port, child } = await running();
    const rest = await measure(port, child.pid!, forms.rest);
    ({ port, child } = await running());
    const mcp = await measure(port, child.pid!, forms.mcp);
    // The answer bound: answer ≤ 1.5 × (request + decoded document). An MCP success carries the document twice, as the
    // protocol asks (structuredContent and the same JSON as the first text block), so it counts twice there; the
    // excess is what an answer holds beyond its request and those copies (messages, warnings, envelope).
    const copies = (surface: 'rest' | 'mcp'): number => (hostile.operation !== 'decode' ? 0 : surface === 'rest' ? 1 : 2);
    const budget = (form: { requestBytes: number }, surface: 'rest' | 'mcp') => form.requestBytes + copies(surface) * local.documentChars;
    const excess = (form: { requestBytes: number; answerBytes: number }, surface: 'rest' | 'mcp') => form.answerBytes - budget(form, surface);
    const entry: Entry = {
      name: hostile.name,
      operation: hostile.operation,
      expected: hostile.succeeds ? 'success' : 'error',
      documentChars: local.documentChars,
      inProcessCpuMs: local.cpuMs,
      rest: { ...rest, answerRatio: round(rest.answerBytes / budget(rest, 'rest'), 3), answerExcessBytes: excess(rest, 'rest') },
      mcp: { ...mcp, answerRatio: round(mcp.answerBytes / budget(mcp, 'mcp'), 3), answerExcessBytes: excess(mcp, 'mcp') },
    };
    results.push(entry);
    console.log(
      `${hostile.name.padEnd(68)} in-process ${String(local.cpuMs).padStart(8)} ms | REST ${String(rest.serverCpuMsPerRequest).padStart(8)} ms ${String(rest.answerBytes).padStart(8)} B | ` +
        `MCP ${String(mcp.serverCpuMsPerRequest).padStart(8)} ms ${String(mcp.answerBytes).padStart(8)} B | probe p99 ${rest.healthProbeMs.p99}/${mcp.healthProbeMs.p99} ms`,
    );
  }
} finally {
  server.child.kill('SIGTERM');
  agent.destroy();
}

const worst = (pick: (r: Entry) => number): number => Math.max(...results.map(pick).filter((x) => !Number.isNaN(x)));
const figures = {
  benchmark: 'hostile requests (test/fixtures/hostile-cases.ts)',
  date: new Date().toISOString(),
  ...(process.env.HOSTILE_NOTE ? { note: process.env.HOSTILE_NOTE } : {}),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: process.platform, loadAverage: loadavg().map((x) => round(x)) },
  method: {
    server: 'node dist/process/main.js (node:http, the default), PORT=0, WORKERS=1; server CPU = utime+stime from /proc/<pid>/stat over the run ÷ requests (10 ms ticks)',
    requests: `sequential, keep-alive; per case and surface at least ${MIN_REQUESTS} requests and ${MIN_SECONDS} s`,
    probe: `GET /mcp on a second connection every ${PROBE_INTERVAL_MS} ms while the hostile requests run`,
    inProcess: 'createSessionOperations with the WASM codec, argument parsed beforehand, cheapest of 5 (process.cpuUsage)',
    answerRatio: 'answer bytes ÷ (request bytes + decoded document characters for decode, counted twice for MCP: structuredContent and its JSON text)',
    answerExcessBytes: 'answer bytes − (request bytes + those copies of the document)',
  },
  worst: {
    serverCpuMsPerRequest: round(worst((r) => Math.max(r.rest.serverCpuMsPerRequest, r.mcp.serverCpuMsPerRequest))),
    inProcessCpuMs: round(worst((r) => r.inProcessCpuMs)),
    restAnswerRatio: round(worst((r) => r.rest.answerRatio), 3),
    mcpAnswerRatio: round(worst((r) => r.mcp.answerRatio), 3),
    answerExcessBytes: worst((r) => Math.max(r.rest.answerExcessBytes, r.mcp.answerExcessBytes)),
    healthProbeP99Ms: round(worst((r) => Math.max(r.rest.healthProbeMs.p99, r.mcp.healthProbeMs.p99))),
  },
  cases: results,
};
console.log(`saved ${writeResults(process.env.HOSTILE_OUT ?? 'hostile.json', figures).join(' and ')}`);
console.log(JSON.stringify(figures.worst, null, 2));
