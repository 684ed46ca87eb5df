// Soak: sustained mixed load on the built server as it starts by default (node:http, WORKERS=1): 0 errors and RSS drift under 10 %.
// CI runs SCALE_SOAK_S=90 (the default); by hand, e.g. `SCALE_SOAK_S=600 npx vitest run test/scale/soak.test.ts`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERN_CREATE_HEADERS, modernCreateRequest, smallPlan } from '../fixtures/requests.js';
import { JSON_HEADERS, post } from '../support/http.js';
import type { LoadReply, LoadRequest } from '../support/load.js';
import { runLoad } from '../support/load.js';
import { memoryOf, startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';

const SOAK_S = Number(process.env.SCALE_SOAK_S ?? '90');
/** Part of the run that only warms up (JIT, heap sizing, pools) before RSS is compared. */
const WARM_UP_S = Math.min(40, SOAK_S * 0.4);
const MAX_DRIFT = 0.1;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

let server: MainProcess;
beforeAll(async () => {
  if (!(SOAK_S >= 8)) throw new Error(`SCALE_SOAK_S must be a number of seconds ≥ 8 (got ${process.env.SCALE_SOAK_S}).`);
  server = await startMainProcess({ RATE_LIMIT: '1000000000', LOG_LEVEL: 'info' }, { built: true });
});
afterAll(async () => {
  await server?.stop();
});

describe('soak', () => {
  it(`serves ${SOAK_S} s of mixed creates, decodes, REST and health checks with 0 errors and RSS drift < 10 %`, { timeout: (SOAK_S + 60) * 1000 }, async () => {
    const plan = smallPlan();
    const created = await post(server.port, '/mcp', modernCreateRequest(plan), MODERN_CREATE_HEADERS);
    const link = created.json().result.structuredContent.link as string;
    const mix: LoadRequest[] = [
      { method: 'POST', path: '/mcp', headers: MODERN_CREATE_HEADERS, body: JSON.stringify(modernCreateRequest(plan)) },
      {
        method: 'POST',
        path: '/mcp',
        headers: JSON_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link } } }),
      },
      { method: 'POST', path: '/api/session-links', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: plan }) },
      { method: 'POST', path: '/api/session-links/decode', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link }) },
      { method: 'GET', path: '/mcp', headers: {} },
    ];
    const errors: string[] = [];
    const check = (request: LoadRequest, reply: LoadReply | Error): void => {
      if (reply instanceof Error) errors.push(`${request.path}: ${reply.message}`);
      else if (reply.status !== 200) errors.push(`${request.path}: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
      else if (reply.body.includes('"isError":true')) errors.push(`${request.path}: tool error ${reply.body.slice(0, 200)}`);
    };

    const started = performance.now();
    const elapsedS = (): number => (performance.now() - started) / 1000;
    const rss: { at: number; mb: number }[] = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        rss.push({ at: elapsedS(), mb: memoryOf(server.pid).rssMb });
        await sleep(500);
      }
    })();
    const sent = await runLoad({ port: server.port, concurrency: 16, next: (i) => mix[i % mix.length]!, check, until: () => elapsedS() < SOAK_S });
    running = false;
    await sampler;

    const measured = rss.filter((s) => s.at >= WARM_UP_S);
    const window = Math.max(3, Math.floor(measured.length / 5));
    const start = median(measured.slice(0, window).map((s) => s.mb));
    const end = median(measured.slice(-window).map((s) => s.mb));
    const drift = (end - start) / start;
    console.log(
      `soak ${SOAK_S} s: ${sent} requests (${(sent / SOAK_S).toFixed(0)}/s), ${errors.length} errors; RSS after warm-up ${start.toFixed(0)} MB → end ${end.toFixed(0)} MB ` +
        `(drift ${(drift * 100).toFixed(1)} %), max ${Math.max(...rss.map((s) => s.mb)).toFixed(0)} MB; ` +
        `RSS by tenth of the run: ${Array.from({ length: 10 }, (_, i) => rss[Math.floor(((i + 1) * rss.length) / 10) - 1]?.mb.toFixed(0)).join(' ')}`,
    );
    expect(errors.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThan(SOAK_S * 50); // it really was under load
    expect(drift).toBeLessThan(MAX_DRIFT);
  });
});
