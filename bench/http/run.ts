// HTTP benchmark driver (`npm run bench:http`): our server on both adapters vs the SDK v2 anchor vs a bare uWS echo,
// side by side in one run, plus the MCP handler's own time in-process (what is left when sockets are taken away).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { largePlan, MODERN_CREATE_HEADERS, modernCreateRequest, smallPlan } from '../../test/fixtures/requests.js';
import { cpuSeconds, measureHandlerInChild, pinning, requireWrk, startServer, wrk, type RunningServer, type WrkResult } from './processes.js';
import { verifyBig, verifySmall, type Outcome } from './verify.js';
import { writeResults } from '../results.js';
import { median } from '../stats.js';

const MAX_BODY = 2_000_000;

function flag(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  const n = hit ? Number(hit.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}
const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

type Measured = WrkResult & { cpu_s: number; cpu_us_per_request: number };

/** Our two adapters, the anchor and the ceiling; `big` servers also get the ~2 MB create. */
const SERVERS = [
  { name: 'ours-uws', script: 'bench/http/serve-ours.ts', transport: 'uws', big: true },
  { name: 'ours-node', script: 'bench/http/serve-ours.ts', transport: 'node', big: true },
  { name: 'anchor', script: 'bench/http/anchor-sdk.ts', transport: undefined, big: true },
  { name: 'echo', script: 'bench/http/echo-uws.ts', transport: undefined, big: false },
] as const;
type Name = (typeof SERVERS)[number]['name'];

async function main(): Promise<void> {
  const rounds = flag('rounds', 3);
  const durationS = flag('duration', 6);
  const bigDurationS = flag('big-duration', 10);
  const connections = flag('connections', 100);
  const wrkVersion = requireWrk();
  const loadavgAtStart = os.loadavg().map((x) => round(x, 2));
  const pin = pinning();

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-http-'));
  const smallBody = JSON.stringify(modernCreateRequest(smallPlan()));
  const bigBody = JSON.stringify(modernCreateRequest(largePlan(MAX_BODY - 10_000)));
  const smallFile = path.join(dir, 'small.json');
  const bigFile = path.join(dir, 'big.json');
  writeFileSync(smallFile, smallBody);
  writeFileSync(bigFile, bigBody);

  const started: RunningServer[] = [];
  try {
    // Our server: production defaults except a rate limit no benchmark can reach (one client IP sends everything).
    const oursEnv = { RATE_LIMIT: '1000000', RATE_WINDOW_S: '1', WORKERS: '1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' };
    const servers = {} as Record<Name, RunningServer>;
    for (const s of SERVERS) {
      servers[s.name] = await startServer(s.name, s.script, s.transport === undefined ? {} : { ...oursEnv, TRANSPORT: s.transport }, pin.server);
      started.push(servers[s.name]);
    }
    const url = (s: RunningServer): string => `http://127.0.0.1:${s.port}/mcp`;

    console.log(`bodies: small ${smallBody.length} B, big ${Buffer.byteLength(bigBody)} B; ${pin.note}; ${wrkVersion}`);
    const check = {
      small: await verifySmall([url(servers['ours-uws']), url(servers['ours-node'])], url(servers.anchor), url(servers.echo), smallBody),
      big: Object.fromEntries(await Promise.all(SERVERS.filter((s) => s.big).map(async (s) => [s.name, await verifyBig(url(servers[s.name]), bigBody)] as const))),
    };
    console.log(`check: small links identical: ${check.small.identicalLinks}`);
    for (const [name, outcome] of Object.entries(check.big)) console.log(`check: big → ${name}: ${describe(outcome)}`);

    // Each run also records the server's CPU seconds, so cost per request can be compared independent of machine load.
    const measured = async (s: RunningServer, run: Promise<WrkResult>): Promise<Measured> => {
      const cpu0 = cpuSeconds(s.child.pid!);
      const res = await run;
      const cpu_s = cpuSeconds(s.child.pid!) - cpu0;
      return { ...res, cpu_s, cpu_us_per_request: (cpu_s * 1e6) / Math.max(1, res.requests) };
    };
    const small = (s: RunningServer, d: number): Promise<Measured> =>
      measured(s, wrk({ url: url(s), bodyFile: smallFile, headers: MODERN_CREATE_HEADERS, connections, durationS: d, timeoutS: 10, pin: pin.load }));
    const big = (s: RunningServer, d: number): Promise<Measured> =>
      measured(s, wrk({ url: url(s), bodyFile: bigFile, headers: MODERN_CREATE_HEADERS, connections: 1, durationS: d, timeoutS: 30, pin: pin.load }));

    for (const s of SERVERS) await small(servers[s.name], 3); // warm-up (JIT, heap)
    const smallRuns = Object.fromEntries(SERVERS.map((s) => [s.name, [] as Measured[]])) as Record<Name, Measured[]>;
    const bigRuns = Object.fromEntries(SERVERS.filter((s) => s.big).map((s) => [s.name, [] as Measured[]])) as Partial<Record<Name, Measured[]>>;
    const handlerRuns: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const s of SERVERS) {
        const res = await small(servers[s.name], durationS);
        smallRuns[s.name].push(res);
        console.log(`round ${r + 1} small ${s.name}: ${round(res.rps, 0)} req/s, p50 ${round(res.p50_us / 1000, 2)} ms, ${round(res.cpu_us_per_request, 1)} CPU µs/req, non-2xx ${res.status_errors}, timeouts ${res.timeouts}`);
      }
      handlerRuns.push(measureHandlerInChild(smallFile, MODERN_CREATE_HEADERS, pin.server));
      console.log(`round ${r + 1} in-process MCP handler: ${round(handlerRuns.at(-1)!, 1)} CPU µs per small create`);
      for (const s of SERVERS.filter((x) => x.big)) {
        const res = await big(servers[s.name], bigDurationS);
        bigRuns[s.name]!.push(res);
        console.log(`round ${r + 1} big ${s.name}: ${res.requests} requests, p50 ${round(res.p50_us / 1000, 2)} ms, ${round(res.cpu_us_per_request / 1000, 1)} CPU ms/req`);
      }
    }

    const cpuUs = (runs: Measured[]): number => median(runs.map((x) => x.cpu_us_per_request));
    const small50 = Object.fromEntries(SERVERS.map((s) => [s.name, { rps: median(smallRuns[s.name].map((x) => x.rps)), cpuUs: cpuUs(smallRuns[s.name]) }])) as Record<Name, { rps: number; cpuUs: number }>;
    const big50 = Object.fromEntries(Object.entries(bigRuns).map(([n, runs]) => [n, { p50Ms: median(runs!.map((x) => x.p50_us)) / 1000, cpuMs: cpuUs(runs!) / 1000 }]));
    const anchorCpu = small50.anchor.cpuUs;
    const ratios = {
      uwsCpuVsAnchor: round(anchorCpu / small50['ours-uws'].cpuUs, 1),
      nodeCpuVsAnchor: round(anchorCpu / small50['ours-node'].cpuUs, 1),
      uwsCpuVsEcho: round(small50.echo.cpuUs / small50['ours-uws'].cpuUs, 3),
      bigP50AnchorOverUws: round(big50.anchor!.p50Ms / big50['ours-uws']!.p50Ms, 1),
      bigP50AnchorOverNode: round(big50.anchor!.p50Ms / big50['ours-node']!.p50Ms, 1),
    };
    const handlerUs = median(handlerRuns);

    console.log(`\n${'server'.padEnd(12)}${'req/s'.padStart(10)}${'CPU µs/req'.padStart(13)}${'2 MB p50 ms'.padStart(14)}${'2 MB CPU ms'.padStart(14)}`);
    for (const s of SERVERS) {
      const b = big50[s.name];
      console.log(`${s.name.padEnd(12)}${String(round(small50[s.name].rps, 0)).padStart(10)}${String(round(small50[s.name].cpuUs, 1)).padStart(13)}${(b ? String(round(b.p50Ms, 1)) : '-').padStart(14)}${(b ? String(round(b.cpuMs, 1)) : '-').padStart(14)}`);
    }
    console.log(`in-process MCP handler, small create: ${round(handlerUs, 1)} CPU µs (median of ${rounds} rounds)`);
    console.log(
      `\nserver CPU per small create vs the anchor: uWS ${ratios.uwsCpuVsAnchor}× (goal ≥ 25×), node:http ${ratios.nodeCpuVsAnchor}× (goal ≥ 5×); ` +
        `uWS ${round(small50['ours-uws'].cpuUs, 1)} µs (goal ≤ 80 µs; the echo costs ${round(ratios.uwsCpuVsEcho * 100, 1)} % of it); ` +
        `2 MB refused create: uWS ${round(big50['ours-uws']!.cpuMs, 1)} ms, node:http ${round(big50['ours-node']!.cpuMs, 1)} ms of CPU (goal ≤ 20 ms); ` +
        `2 MB p50 anchor ÷ ours: uWS ${ratios.bigP50AnchorOverUws}×, node:http ${ratios.bigP50AnchorOverNode}×; load average now ${os.loadavg().map((x) => round(x, 2)).join(' ')}`,
    );

    const date = new Date().toISOString();
    const result = {
      date,
      command: `npm run bench:http -- --rounds=${rounds} --duration=${durationS} --big-duration=${bigDurationS} --connections=${connections}`,
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        memoryGiB: round(os.totalmem() / 2 ** 30, 1),
        os: `${os.type()} ${os.release()}`,
        node: process.version,
        loadavgAtStart,
        loadavgAtEnd: os.loadavg().map((x) => round(x, 2)),
      },
      loadGenerator: { tool: wrkVersion, threads: 1, connections, bigConnections: 1, pinning: pin.note },
      bodies: { smallBytes: smallBody.length, bigBytes: Buffer.byteLength(bigBody), headers: MODERN_CREATE_HEADERS },
      oursEnv,
      check,
      medians: { small: small50, big: big50, inProcessHandlerUs: handlerUs },
      ratios,
      goals: { uwsCpuVsAnchor: 25, nodeCpuVsAnchor: 5, uwsCpuUs: 80, bigRefusedCpuMs: 20 },
      runs: { small: smallRuns, big: bigRuns, inProcessHandlerUs: handlerRuns },
    };
    // Every run keeps its own file in local/ (runs are compared with each other); --save replaces the committed one.
    console.log(`saved ${writeResults('http.json', result, { localName: `http-${date.slice(0, 16).replace(':', '-')}.json` }).join(' and ')}`);
  } finally {
    for (const s of started) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function describe(o: Outcome): string {
  return `HTTP ${o.status}, ${o.isError ? 'tool error' : 'link'} in ${o.ms} ms${o.text ? `: ${o.text}` : ''}`;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
