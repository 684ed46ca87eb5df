// HTTP benchmark driver (`npm run bench:http`): our server vs the SDK v2 anchor vs a bare uWS echo, side by side in one run.
// Figures (issue 4): create rps ≥ 25× anchor and ≥ 40 % of the echo ceiling; ~2 MB create p50 ≥ 20× lower than the anchor.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { largePlan, MODERN_CREATE_HEADERS, modernCreateRequest, smallPlan } from './bodies.js';
import { cpuSeconds, pinning, requireWrk, startServer, wrk, type RunningServer, type WrkResult } from './processes.js';
import { verifyBig, verifySmall, type Outcome } from './verify.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_BODY = 2_000_000;

function flag(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  const n = hit ? Number(hit.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

type Measured = WrkResult & { cpu_s: number; cpu_ms_per_request: number };

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

  const servers: RunningServer[] = [];
  try {
    // Our server: production defaults except a rate limit no benchmark can reach (one client IP sends everything).
    const oursEnv = { RATE_LIMIT: '1000000', RATE_WINDOW_S: '1', WORKERS: '1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' };
    servers.push(await startServer('ours', 'bench/http/serve-ours.ts', oursEnv, pin.server));
    servers.push(await startServer('anchor', 'bench/http/anchor-sdk.ts', {}, pin.server));
    servers.push(await startServer('echo', 'bench/http/echo-uws.ts', {}, pin.server));
    const [ours, anchor, echo] = servers as [RunningServer, RunningServer, RunningServer];
    const url = (s: RunningServer): string => `http://127.0.0.1:${s.port}/mcp`;

    console.log(`bodies: small ${smallBody.length} B, big ${Buffer.byteLength(bigBody)} B; ${pin.note}; ${wrkVersion}`);
    const check = {
      small: await verifySmall(url(ours), url(anchor), url(echo), smallBody),
      big: { ours: await verifyBig(url(ours), bigBody), anchor: await verifyBig(url(anchor), bigBody) },
    };
    console.log(`check: small links identical: ${check.small.identicalLinks}; big → ours: ${describe(check.big.ours)}`);
    console.log(`check: big → anchor: ${describe(check.big.anchor)}`);

    // Each run also records the server's CPU seconds, so cost per request can be compared independent of machine load.
    const measured = async (s: RunningServer, run: Promise<WrkResult>): Promise<Measured> => {
      const cpu0 = cpuSeconds(s.child.pid!);
      const res = await run;
      const cpu_s = cpuSeconds(s.child.pid!) - cpu0;
      return { ...res, cpu_s, cpu_ms_per_request: (cpu_s * 1000) / Math.max(1, res.requests) };
    };
    const small = (s: RunningServer, d: number): Promise<Measured> =>
      measured(s, wrk({ url: url(s), bodyFile: smallFile, headers: MODERN_CREATE_HEADERS, connections, durationS: d, timeoutS: 10, pin: pin.load }));
    const big = (s: RunningServer, d: number): Promise<Measured> =>
      measured(s, wrk({ url: url(s), bodyFile: bigFile, headers: MODERN_CREATE_HEADERS, connections: 1, durationS: d, timeoutS: 30, pin: pin.load }));

    for (const s of [ours, anchor, echo]) await small(s, 3); // warm-up (JIT, heap)
    const smallRuns: Record<string, Measured[]> = { ours: [], anchor: [], echo: [] };
    const bigRuns: Record<string, Measured[]> = { ours: [], anchor: [] };
    for (let r = 0; r < rounds; r++) {
      for (const s of [ours, anchor, echo]) {
        const res = await small(s, durationS);
        smallRuns[s.name]!.push(res);
        console.log(`round ${r + 1} small ${s.name}: ${round(res.rps, 0)} req/s, p50 ${round(res.p50_us / 1000, 2)} ms, ${round(res.cpu_ms_per_request, 3)} CPU ms/req, non-2xx ${res.status_errors}, timeouts ${res.timeouts}`);
      }
      for (const s of [ours, anchor]) {
        const res = await big(s, bigDurationS);
        bigRuns[s.name]!.push(res);
        console.log(`round ${r + 1} big ${s.name}: ${res.requests} requests, p50 ${round(res.p50_us / 1000, 2)} ms, ${round(res.cpu_ms_per_request, 1)} CPU ms/req`);
      }
    }

    const rps = (n: string): number => median(smallRuns[n]!.map((x) => x.rps));
    const p50 = (n: string): number => median(bigRuns[n]!.map((x) => x.p50_us)) / 1000;
    // Other work on a shared machine drifts between rounds; each round visits every server back to back, so the median
    // of per-round ratios is the headline figure (the ratio of medians is kept beside it).
    const perRound = (f: (r: number) => number): number[] => Array.from({ length: rounds }, (_, r) => f(r));
    const at = (runs: Record<string, Measured[]>, n: string, r: number): Measured => runs[n]![r]!;
    const roundRatios = {
      rpsVsAnchor: perRound((r) => at(smallRuns, 'ours', r).rps / at(smallRuns, 'anchor', r).rps),
      rpsVsEcho: perRound((r) => at(smallRuns, 'ours', r).rps / at(smallRuns, 'echo', r).rps),
      bigP50AnchorOverOurs: perRound((r) => at(bigRuns, 'anchor', r).p50_us / at(bigRuns, 'ours', r).p50_us),
    };
    const ratios = {
      rpsVsAnchor: round(median(roundRatios.rpsVsAnchor), 2),
      rpsVsEcho: round(median(roundRatios.rpsVsEcho), 3),
      bigP50AnchorOverOurs: round(median(roundRatios.bigP50AnchorOverOurs), 2),
    };
    const cpuMs = (runs: Record<string, Measured[]>, n: string): number => median(runs[n]!.map((x) => x.cpu_ms_per_request));
    const cpuRatios = {
      rpsVsAnchor: round(cpuMs(smallRuns, 'anchor') / cpuMs(smallRuns, 'ours'), 2),
      rpsVsEcho: round(cpuMs(smallRuns, 'echo') / cpuMs(smallRuns, 'ours'), 3),
      bigAnchorOverOurs: round(cpuMs(bigRuns, 'anchor') / cpuMs(bigRuns, 'ours'), 2),
    };
    const ratiosOfMedians = {
      rpsVsAnchor: round(rps('ours') / rps('anchor'), 2),
      rpsVsEcho: round(rps('ours') / rps('echo'), 3),
      bigP50AnchorOverOurs: round(p50('anchor') / p50('ours'), 2),
    };
    const table = [
      ['server', 'create 3 KB req/s (median)', 'p50 ms', '2 MB create p50 ms (c=1)'],
      ['ours (uWS)', round(rps('ours'), 0), round(median(smallRuns.ours!.map((x) => x.p50_us)) / 1000, 2), round(p50('ours'), 2)],
      ['anchor (SDK v2)', round(rps('anchor'), 0), round(median(smallRuns.anchor!.map((x) => x.p50_us)) / 1000, 2), round(p50('anchor'), 2)],
      ['echo (bare uWS)', round(rps('echo'), 0), round(median(smallRuns.echo!.map((x) => x.p50_us)) / 1000, 2), '-'],
    ];
    console.log('\n' + table.map((row) => row.map((c) => String(c).padEnd(28)).join('')).join('\n'));
    console.log(
      `\nours/anchor req/s = ${ratios.rpsVsAnchor}× (goal ≥ 25×); ours/echo = ${round(ratios.rpsVsEcho * 100, 1)} % (goal ≥ 40 %); ` +
        `2 MB p50 anchor/ours = ${ratios.bigP50AnchorOverOurs}× (goal ≥ 20×) — medians of per-round ratios`,
    );
    console.log(
      `server CPU per request (load-independent): ours ${round(cpuMs(smallRuns, 'ours'), 3)} ms, anchor ${round(cpuMs(smallRuns, 'anchor'), 3)} ms, ` +
        `echo ${round(cpuMs(smallRuns, 'echo'), 3)} ms → ${cpuRatios.rpsVsAnchor}× anchor, ${round(cpuRatios.rpsVsEcho * 100, 1)} % of echo; ` +
        `2 MB: ours ${round(cpuMs(bigRuns, 'ours'), 1)} ms, anchor ${round(cpuMs(bigRuns, 'anchor'), 1)} ms → ${cpuRatios.bigAnchorOverOurs}×`,
    );
    console.log(
      `ratios of medians: ${ratiosOfMedians.rpsVsAnchor}×, ${round(ratiosOfMedians.rpsVsEcho * 100, 1)} %, ${ratiosOfMedians.bigP50AnchorOverOurs}×; ` +
        `load average now ${os.loadavg().map((x) => round(x, 2)).join(' ')}`,
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
      medians: { rps: { ours: rps('ours'), anchor: rps('anchor'), echo: rps('echo') }, bigP50Ms: { ours: p50('ours'), anchor: p50('anchor') } },
      ratios,
      ratiosOfMedians,
      roundRatios,
      cpuMsPerRequest: {
        small: { ours: cpuMs(smallRuns, 'ours'), anchor: cpuMs(smallRuns, 'anchor'), echo: cpuMs(smallRuns, 'echo') },
        big: { ours: cpuMs(bigRuns, 'ours'), anchor: cpuMs(bigRuns, 'anchor') },
      },
      cpuRatios,
      goals: { rpsVsAnchor: 25, rpsVsEcho: 0.4, bigP50AnchorOverOurs: 20 },
      runs: { small: smallRuns, big: bigRuns },
    };
    const outDir = path.join(ROOT, 'bench', 'results');
    mkdirSync(outDir, { recursive: true });
    const out = path.join(outDir, `http-${date.slice(0, 16).replace(':', '-')}.json`);
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(`saved ${path.relative(ROOT, out)}`);
  } finally {
    for (const s of servers) await s.stop();
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
