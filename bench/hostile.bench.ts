// bench:hostile — each crafted request of test/fixtures/hostile-cases.ts against a real server: size, CPU, answer, health;
// then the attacks of test/support/attacks.ts at full size (bench/hostile-attacks.ts; HOSTILE_ATTACKS=0 skips them, HOSTILE_ATTACKS_ONLY=<text> picks). HOSTILE_BASE=<checkout>
// measures an older build side by side in the same run (each case and attack on both, one after the other).
// Writes bench/results/local/hostile.json, with --save also bench/results/ (HOSTILE_OUT overrides the file name and HOSTILE_NOTE adds a note).
import { Agent, request } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadCodec } from '../src/codec/node.js';
import { SessionError } from '../src/session/errors.js';
import { createSessionOperations } from '../src/session/operations.js';
import { argumentOf, hostileCases, type HostileCase } from '../test/fixtures/hostile-cases.js';
import { MODERN_CREATE_HEADERS, MODERN_VERSION } from '../test/fixtures/requests.js';
import { cpuSeconds } from './http/processes.js';
import { startMainProcess, type MainProcess } from '../test/support/main-process.js';
import { writeResults } from './results.js';
import { attacks } from './hostile-attacks.js';
import { quantile } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BASE = process.env.HOSTILE_BASE;
/** Requests up to this size are held to 50 ms of server CPU (docs/benchmarks.md, "Hostile requests"; a link that fits a chat message). */
const SMALL_REQUEST_BYTES = 10 * 1024;
/** Requests per case and surface: at least this many, and at least MIN_SECONDS of them (CPU ticks are 10 ms). */
const MIN_REQUESTS = Number(process.env.HOSTILE_MIN_REQUESTS ?? '10');
const MIN_SECONDS = Number(process.env.HOSTILE_MIN_SECONDS ?? '1');
const PROBE_INTERVAL_MS = 5;
const round = (x: number, digits = 2): number => Number(x.toFixed(digits));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The built server of `root` (PORT=0, one worker), its rate limit out of the way. */
const startServer = (root = ROOT): Promise<MainProcess> => startMainProcess({ WORKERS: '1', RATE_LIMIT: '1000000000', RATE_WINDOW_S: '1', LOG_LEVEL: 'info' }, { built: true, root });

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

/**
 * In-process: CPU of the operation alone (argument already parsed), cheapest of 5; the decoded text's length, and the
 * decoded document as it is written back (UTF-8 bytes of its JSON, escapes included; 0 when the decode is refused).
 */
async function inProcess(hostile: HostileCase) {
  const link = hostile.operation === 'decode' ? (argumentOf(hostile) as string) : '';
  const documentChars = link ? codec.decompress(link.slice(link.indexOf('#data=v2:') + 9)).length : hostile.argumentJson.length;
  let best = Number.POSITIVE_INFINITY;
  let documentBytes = 0;
  for (let i = 0; i < 5; i++) {
    const argument = argumentOf(hostile);
    const started = process.cpuUsage();
    try {
      if (hostile.operation === 'create') await operations.createSessionLink(argument);
      else documentBytes = Buffer.byteLength(JSON.stringify((await operations.decodeSessionLink(argument)).session));
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
    }
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return { cpuMs: round(best), documentChars, documentBytes };
}

type Measured = Awaited<ReturnType<typeof measure>> & { answerRatio: number; answerExcessBytes: number };
interface Entry {
  name: string;
  operation: string;
  expected: string;
  documentChars: number;
  documentBytes: number;
  inProcessCpuMs: number;
  rest: Measured;
  mcp: Measured;
  base?: { rest: Measured; mcp: Measured };
}

/** One server per build (this checkout, and HOSTILE_BASE when set), each started again when a case took it down. */
const servers = new Map<string, MainProcess>([[ROOT, await startServer(ROOT)]]);
if (BASE !== undefined) servers.set(BASE, await startServer(BASE));
async function running(root: string): Promise<MainProcess> {
  const server = servers.get(root)!;
  if (server.child.exitCode === null && server.child.signalCode === null) return server;
  console.log(`server of ${root} exited (${server.child.exitCode ?? server.child.signalCode}); starting a new one`);
  agent.destroy();
  servers.set(root, await startServer(root));
  return servers.get(root)!;
}
const results: Entry[] = [];
try {
  for (const hostile of hostileCases()) {
    const forms = surfaces(hostile);
    const local = await inProcess(hostile);
    // The answer bound (docs/http-api.md, "Bounds"): answer ÷ (request + the decoded document as it is written back). An MCP success carries
    // the document twice, as the protocol asks (structuredContent and its JSON as the first text block, escaped once
    // more); the excess is what an answer holds beyond its request and those copies (messages, warnings, envelope).
    const copies = (surface: 'rest' | 'mcp'): number => (surface === 'rest' ? 1 : 2);
    const ratio = (form: { requestBytes: number; answerBytes: number }) => round(form.answerBytes / (form.requestBytes + local.documentBytes), 3);
    const excess = (form: { requestBytes: number; answerBytes: number }, surface: 'rest' | 'mcp') => form.answerBytes - form.requestBytes - copies(surface) * local.documentBytes;
    const both = async (root: string): Promise<{ rest: Measured; mcp: Measured }> => {
      let { port, child } = await running(root);
      const rest = await measure(port, child.pid!, forms.rest);
      ({ port, child } = await running(root));
      const mcp = await measure(port, child.pid!, forms.mcp);
      return { rest: { ...rest, answerRatio: ratio(rest), answerExcessBytes: excess(rest, 'rest') }, mcp: { ...mcp, answerRatio: ratio(mcp), answerExcessBytes: excess(mcp, 'mcp') } };
    };
    const now = await both(ROOT);
    const base = BASE === undefined ? undefined : await both(BASE);
    results.push({ name: hostile.name, operation: hostile.operation, expected: hostile.succeeds ? 'success' : 'error', documentChars: local.documentChars, documentBytes: local.documentBytes, inProcessCpuMs: local.cpuMs, ...now, ...(base === undefined ? {} : { base }) });
    const line = (m: { rest: Measured; mcp: Measured }): string =>
      `REST ${String(m.rest.serverCpuMsPerRequest).padStart(7)} ms ${String(m.rest.answerBytes).padStart(9)} B ×${String(m.rest.answerRatio).padEnd(6)} | MCP ${String(m.mcp.serverCpuMsPerRequest).padStart(7)} ms ${String(m.mcp.answerBytes).padStart(9)} B ×${String(m.mcp.answerRatio).padEnd(6)} | probe p99 ${m.rest.healthProbeMs.p99}/${m.mcp.healthProbeMs.p99} ms`;
    console.log(`${hostile.name.padEnd(78)} ${String(now.rest.requestBytes).padStart(8)} B req | in-process ${String(local.cpuMs).padStart(6)} ms | now ${line(now)}`);
    if (base !== undefined) console.log(`${''.padEnd(78)} ${''.padStart(8)}         | ${''.padStart(20)}   | base ${line(base)}`);
  }
} finally {
  for (const server of servers.values()) server.child.kill('SIGTERM');
  agent.destroy();
}

const worst = (pick: (r: Entry) => number, entries = results): number => Math.max(...entries.map(pick).filter((x) => !Number.isNaN(x)));
const small = results.filter((r) => r.rest.requestBytes <= SMALL_REQUEST_BYTES);
/** Answers that carry a decoded document of 64 KB or more, where the envelope and capped warnings no longer count. */
const documents = results.filter((r) => r.documentBytes >= 65_536);
const attackResults: Record<string, unknown> = {};
if (process.env.HOSTILE_ATTACKS !== '0') {
  for (const [name, root] of [['now', ROOT], ...(BASE === undefined ? [] : [['base', BASE]])] as const) {
    console.log(`attacks on ${name} (${root}):`);
    attackResults[name] = await attacks(root);
  }
}
const figures = {
  benchmark: 'hostile requests (test/fixtures/hostile-cases.ts)',
  date: new Date().toISOString(),
  ...(process.env.HOSTILE_NOTE ? { note: process.env.HOSTILE_NOTE } : {}),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: process.platform, loadAverage: loadavg().map((x) => round(x)) },
  ...(BASE === undefined ? {} : { base: BASE }),
  method: {
    server: 'node dist/process/main.js (node:http, the default), PORT=0, WORKERS=1; server CPU = utime+stime from /proc/<pid>/stat over the run ÷ requests (10 ms ticks)',
    requests: `sequential, keep-alive; per case and surface at least ${MIN_REQUESTS} requests and ${MIN_SECONDS} s`,
    probe: `GET /mcp on a second connection every ${PROBE_INTERVAL_MS} ms while the hostile requests run`,
    inProcess: 'createSessionOperations with the WASM codec, argument parsed beforehand, cheapest of 5 (process.cpuUsage)',
    answerRatio: 'answer bytes ÷ (request bytes + the decoded document as it is written back: UTF-8 bytes of its JSON, escapes included; 0 for a refused decode or a create); worst.*AnswerRatio over the cases whose document is 64 KB or more',
    answerExcessBytes: 'answer bytes − (request bytes + the document once for REST, twice for MCP)',
    attacks: 'bench/hostile-attacks.ts: a fresh server per attack, defaults (rate limit 60 per minute), clients on several loopback addresses, RSS from /proc, health on fresh connections from this process',
  },
  worst: {
    serverCpuMsPerRequest: round(worst((r) => Math.max(r.rest.serverCpuMsPerRequest, r.mcp.serverCpuMsPerRequest))),
    smallRequestServerCpuMs: round(worst((r) => Math.max(r.rest.serverCpuMsPerRequest, r.mcp.serverCpuMsPerRequest), small)),
    inProcessCpuMs: round(worst((r) => r.inProcessCpuMs)),
    restAnswerRatio: round(worst((r) => r.rest.answerRatio, documents), 3),
    mcpAnswerRatio: round(worst((r) => r.mcp.answerRatio, documents), 3),
    answerExcessBytes: worst((r) => Math.max(r.rest.answerExcessBytes, r.mcp.answerExcessBytes)),
    healthProbeP99Ms: round(worst((r) => Math.max(r.rest.healthProbeMs.p99, r.mcp.healthProbeMs.p99))),
    ...(BASE === undefined
      ? {}
      : {
          base: {
            serverCpuMsPerRequest: round(worst((r) => Math.max(r.base!.rest.serverCpuMsPerRequest, r.base!.mcp.serverCpuMsPerRequest))),
            smallRequestServerCpuMs: round(worst((r) => Math.max(r.base!.rest.serverCpuMsPerRequest, r.base!.mcp.serverCpuMsPerRequest), small)),
            restAnswerRatio: round(worst((r) => r.base!.rest.answerRatio), 3),
            mcpAnswerRatio: round(worst((r) => r.base!.mcp.answerRatio), 3),
            note: 'ratios of the base over every case, with the document as this checkout decodes it (0 where it refuses)',
          },
        }),
  },
  attacks: attackResults,
  cases: results,
};
console.log(`saved ${writeResults(process.env.HOSTILE_OUT ?? 'hostile.json', figures).join(' and ')}`);
console.log(JSON.stringify(figures.worst, null, 2));
