// stdio against HTTP, side by side in one run: the round trip of a small create (the ~3 KB plan of bench/http) from a
// client to `sessionplan-mcp stdio` and to `sessionplan-mcp serve` on loopback, each server its own process.
// Run (built first): npx tsx bench/stdio.bench.ts [--rounds N] [--requests N]; writes bench/results/local/stdio.json.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MODERN_CREATE_HEADERS, modernCreateRequest, smallPlan } from '../test/fixtures/requests.js';
import { writeResults } from './results.js';
import { option, quantile } from './stats.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** stdio's goal: its p50 at most this many times HTTP's. */
const GOAL_RATIO = 1.5;
const ROUNDS = option('rounds', 10);
const REQUESTS = option('requests', 300);
const WARMUP = 500;
const PLAN = smallPlan();
/** The request with a given id, as one line of JSON (the same bytes over both transports but for the id). */
const body = (id: number): string => JSON.stringify(modernCreateRequest(PLAN, id));
const ENV = { ...process.env, LOG_LEVEL: 'warn', PUBLIC_BASE_URL: 'https://sessionplan.de/' };

interface Transport {
  name: 'stdio' | 'http';
  /** One request, answered: its round trip in microseconds. */
  roundTrip(id: number): Promise<number>;
  close(): Promise<void>;
}

function startStdio(): Transport {
  const child = spawn(process.execPath, [CLI, 'stdio'], { env: ENV, stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  let waiting: { id: number; resolve: (line: string) => void } | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (waiting !== undefined && line.startsWith(`{"jsonrpc":"2.0","id":${waiting.id},`)) {
        const { resolve } = waiting;
        waiting = undefined;
        resolve(line);
      }
      newline = buffer.indexOf('\n');
    }
  });
  return {
    name: 'stdio',
    roundTrip(id) {
      const text = `${body(id)}\n`;
      return new Promise((resolve, reject) => {
        const started = performance.now();
        waiting = {
          id,
          resolve: (line) => {
            if (!line.includes('"structuredContent"')) reject(new Error(`stdio: not a create result: ${line.slice(0, 200)}`));
            else resolve((performance.now() - started) * 1000);
          },
        };
        child.stdin.write(text);
      });
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startHttp(): Promise<Transport> {
  // Quiet like the stdio server (no access-log line per request); the ready line is not logged at warn, so the bench
  // picks the port and waits for the health answer.
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...ENV, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT: '1000000000' }, stdio: ['ignore', 'inherit', 'inherit'] });
  const deadline = performance.now() + 20_000;
  for (;;) {
    const healthy = await new Promise<boolean>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (healthy) break;
    if (performance.now() > deadline || child.exitCode !== null) throw new Error('the HTTP server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // One kept-alive connection, one request at a time: what an MCP client does.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    name: 'http',
    roundTrip(id) {
      const text = body(id);
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...MODERN_CREATE_HEADERS, 'Content-Length': Buffer.byteLength(text) } }, (res) => {
          let answer = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
          res.on('end', () => {
            if (res.statusCode !== 200 || !answer.includes('"structuredContent"')) reject(new Error(`http: ${res.statusCode} ${answer.slice(0, 200)}`));
            else resolve((performance.now() - started) * 1000);
          });
        });
        req.on('error', reject);
        req.end(text);
      });
    },
    async close() {
      agent.destroy();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

async function series(transport: Transport, count: number, firstId: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await transport.roundTrip(firstId + i));
  return times;
}

async function main(): Promise<void> {
  const stdio = startStdio();
  const http = await startHttp();
  const transports = [stdio, http];
  let id = 1;
  try {
    for (const transport of transports) {
      await series(transport, WARMUP, id);
      id += WARMUP;
    }
    const all: Record<'stdio' | 'http', number[]> = { stdio: [], http: [] };
    const rounds: { stdioP50: number; httpP50: number; ratio: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which goes first, so a slow minute of the machine falls on both.
      const order = r % 2 === 0 ? transports : [...transports].reverse();
      const p50: Record<string, number> = {};
      for (const transport of order) {
        const times = await series(transport, REQUESTS, id);
        id += REQUESTS;
        all[transport.name].push(...times);
        p50[transport.name] = quantile(times, 0.5);
      }
      const ratio = p50.stdio! / p50.http!;
      rounds.push({ stdioP50: round1(p50.stdio!), httpP50: round1(p50.http!), ratio: Math.round(ratio * 1000) / 1000 });
      console.log(`round ${r + 1}: small create p50 stdio ${round1(p50.stdio!)} µs, HTTP ${round1(p50.http!)} µs, ratio ${ratio.toFixed(3)}`);
    }
    const stdioP50 = quantile(all.stdio, 0.5);
    const httpP50 = quantile(all.http, 0.5);
    const ratios = rounds.map((row) => row.ratio);
    const summary = {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((value) => Math.round(value * 100) / 100), node: process.version },
      requestsPerRound: REQUESTS,
      rounds,
      stdio: { p50: round1(stdioP50), p90: round1(quantile(all.stdio, 0.9)), p99: round1(quantile(all.stdio, 0.99)) },
      http: { p50: round1(httpP50), p90: round1(quantile(all.http, 0.9)), p99: round1(quantile(all.http, 0.99)) },
      ratioP50: Math.round((stdioP50 / httpP50) * 1000) / 1000,
      ratioPerRound: { min: Math.min(...ratios), median: quantile(ratios, 0.5), max: Math.max(...ratios) },
      goal: GOAL_RATIO,
    };
    console.log(
      `\nsmall create round trip, ${ROUNDS} × ${REQUESTS} each: stdio p50 ${summary.stdio.p50} µs (p90 ${summary.stdio.p90}), ` +
        `HTTP p50 ${summary.http.p50} µs (p90 ${summary.http.p90}); stdio/HTTP ${summary.ratioP50}× ` +
        `(per round ${summary.ratioPerRound.min}–${summary.ratioPerRound.max}, median ${summary.ratioPerRound.median}); goal ≤ ${GOAL_RATIO}×: ${summary.ratioP50 <= GOAL_RATIO ? 'met' : 'NOT met'}`,
    );
    console.log(`written: ${writeResults('stdio.json', summary, { save: false }).join(', ')}`);
  } finally {
    await Promise.all(transports.map((transport) => transport.close()));
  }
}

await main();
