// A/B of server CPU per small create between builds: `npx tsx bench/http/ab.ts before=/path/to/checkout:uws now=.:uws`.
// Each checkout must be built (`npm run build`); the servers run side by side, wrk visits them in alternating rounds.
// A third field sets LOG_LEVEL (default info): `log=.:uws:info quiet=.:uws:warn` prices the access log.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODERN_CREATE_HEADERS, modernCreateRequest, smallPlan } from '../../test/fixtures/requests.js';
import { cpuSeconds, pinning, requireWrk, startServer, wrk, type RunningServer } from './processes.js';

const SERVE = fileURLToPath(new URL('serve-ours.ts', import.meta.url));
const rounds = Number(process.env.ROUNDS ?? 6);
const durationS = Number(process.env.DURATION_S ?? 5);

const specs = process.argv.slice(2).map((arg) => {
  const match = /^([^=]+)=(.+):(uws|node)(?::(\w+))?$/.exec(arg);
  if (!match) throw new Error(`"${arg}" is not name=<checkout>:<uws|node>[:<log level>]`);
  return { name: match[1]!, root: path.resolve(match[2]!), transport: match[3]!, logLevel: match[4] ?? 'info' };
});
if (specs.length < 2) throw new Error('usage: npx tsx bench/http/ab.ts a=<checkout>:uws b=<checkout>:uws [more…]');
requireWrk();
const pin = pinning();
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ab-'));
const bodyFile = path.join(dir, 'small.json');
writeFileSync(bodyFile, JSON.stringify(modernCreateRequest(smallPlan())));

const servers: { name: string; server: RunningServer; cpuUs: number[] }[] = [];
try {
  for (const s of specs) {
    const env = { SERVE_ROOT: s.root, TRANSPORT: s.transport, RATE_LIMIT: '100000000', RATE_WINDOW_S: '1', WORKERS: '1', LOG_LEVEL: s.logLevel };
    servers.push({ name: s.name, server: await startServer(s.name, SERVE, env, pin.server), cpuUs: [] });
  }
  const run = (port: number, seconds: number) =>
    wrk({ url: `http://127.0.0.1:${port}/mcp`, bodyFile, headers: MODERN_CREATE_HEADERS, connections: 50, durationS: seconds, timeoutS: 10, pin: pin.load });
  for (const s of servers) await run(s.server.port, 3); // warm-up
  for (let round = 1; round <= rounds; round++) {
    for (const s of servers) {
      const before = cpuSeconds(s.server.child.pid!);
      const result = await run(s.server.port, durationS);
      const us = ((cpuSeconds(s.server.child.pid!) - before) * 1e6) / result.requests;
      s.cpuUs.push(us);
      console.log(`round ${round} ${s.name}: ${us.toFixed(1)} µs CPU per request, ${result.rps.toFixed(0)} req/s, non-2xx ${result.status_errors}`);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const base = median(servers[0]!.cpuUs);
  for (const s of servers) console.log(`${s.name}: median ${median(s.cpuUs).toFixed(1)} µs CPU per small create (${(median(s.cpuUs) / base).toFixed(2)}× ${servers[0]!.name})`);
} finally {
  await Promise.all(servers.map((s) => s.server.stop()));
  rmSync(dir, { recursive: true, force: true });
}
