// The reference deployment under faults (npm run test:cluster): nginx from deploy/ in front of three built instances,
// each on a host of its own, sharing a Redis primary, a replica and three Sentinels; steady load from many loopback
// clients while instances restart, die, and Redis fails over or hangs. Prints each figure for docs/deployment.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallPlan } from '../fixtures/requests.js';
import { postFrom } from '../support/attacks.js';
import { createNetwork, Part, startNginx, startRedisSet, temporaryDirectory, type Network, type RedisSet } from '../support/cluster.js';
import { ROOT } from '../support/main-process.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const INSTANCE_PORT = 8080;
const SHUTDOWN_DELAY_S = 2;
const CREATE = { path: '/api/session-links', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: smallPlan() }) };

interface Outcome {
  readonly at: number;
  readonly status: number;
}

/** Small creates through nginx from 200 client addresses in turn (each far inside its limit), `perSecond` of them. */
class SteadyLoad {
  readonly outcomes: Outcome[] = [];
  readonly #pending = new Set<Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #next = 0;
  readonly #clients = Array.from({ length: 200 }, (_, i) => `127.0.${3 + (i >> 7)}.${10 + (i & 127)}`);

  constructor(private readonly port: number, private readonly perSecond: number) {}

  start(): void {
    this.#timer = setInterval(() => {
      const client = this.#clients[this.#next++ % this.#clients.length]!;
      const request = postFrom(this.port, client, CREATE, 15_000).then((reply) => void this.outcomes.push({ at: performance.now(), status: reply.status }));
      this.#pending.add(request);
      void request.finally(() => this.#pending.delete(request));
    }, 1000 / this.perSecond);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#pending);
  }

  /** Outcomes answered in [from, to), by status. */
  between(from: number, to = Number.POSITIVE_INFINITY): Map<number, number> {
    const counts = new Map<number, number>();
    for (const o of this.outcomes) if (o.at >= from && o.at < to) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    return counts;
  }
}

const describeCounts = (counts: Map<number, number>): string => [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${n} × ${s}`).join(', ') || 'none';
const failed = (counts: Map<number, number>): number => [...counts].filter(([status]) => status !== 200).reduce((sum, [, n]) => sum + n, 0);

let network: Network;
let dir: { path: string; remove(): void };
let redis: RedisSet;
let instances: Part[];
let nginx: { part: Part; port: number };
let load: SteadyLoad;

function instanceEnv(index: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOST: '0.0.0.0',
    PORT: String(INSTANCE_PORT),
    TRUST_PROXY: '1',
    SHUTDOWN_DELAY_S: String(SHUTDOWN_DELAY_S),
    REDIS_URL: redis.url,
    LOG_LEVEL: 'warn',
    INSTANCE: String(index),
    ...extra,
  };
}

async function ready(index: number, timeoutMs = 20_000): Promise<void> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    const ok = await fetch(`http://${network.address(index)}:${INSTANCE_PORT}/readyz`, { signal: AbortSignal.timeout(1_000) }).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`instance ${index} not ready in ${timeoutMs} ms: ${instances[index]!.output}`);
}

async function restartInstance(index: number, extra: Record<string, string> = {}): Promise<void> {
  instances[index]!.launch(extra);
  await ready(index);
}

beforeAll(async () => {
  dir = temporaryDirectory('sp-cluster-');
  network = createNetwork(3);
  redis = await startRedisSet(dir.path, network.gateway);
  instances = [0, 1, 2].map((i) => new Part(`instance ${i}`, () => {
    const [command, args] = network.command(i, [process.execPath, `${ROOT}dist/process/main.js`]);
    return [command, args, instanceEnv(i)];
  }));
  // Without namespaces the instances share the machine: each on its own loopback address, the same port.
  for (const [i, part] of instances.entries()) part.launch(network.isolated ? {} : { HOST: network.address(i) });
  await Promise.all([0, 1, 2].map((i) => ready(i)));
  nginx = await startNginx(dir.path, [0, 1, 2].map((i) => `${network.address(i)}:${INSTANCE_PORT}`));
  load = new SteadyLoad(nginx.port, 40);
  load.start();
  await sleep(1_000);
  console.log(`cluster: ${network.isolated ? 'three network namespaces behind a bridge' : 'loopback addresses (no network namespaces here)'}; Redis ${redis.url}`);
}, 120_000);

afterAll(async () => {
  await load?.stop();
  for (const part of [nginx?.part, ...(instances ?? []), ...(redis?.sentinels ?? []), ...(redis?.servers ?? [])]) await part?.stop();
  network?.remove();
  dir?.remove();
}, 60_000);

describe('nginx, three instances, Redis with Sentinel', () => {
  it('one client over all instances gets exactly RATE_LIMIT (60) successes of 80', async () => {
    const replies = await Promise.all(Array.from({ length: 80 }, () => postFrom(nginx.port, '127.0.2.1', CREATE)));
    const ok = replies.filter((r) => r.status === 200).length;
    console.log(`one client, 80 POSTs over three instances: ${ok} × 200, ${replies.filter((r) => r.status === 429).length} × 429`);
    expect(ok).toBe(60);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(20);
  });

  it('a rolling restart of every instance (SIGTERM, start, wait for /readyz) fails no request', { timeout: 120_000 }, async () => {
    const t0 = performance.now();
    for (const [i, part] of instances.entries()) {
      part.signal('SIGTERM');
      expect(await part.exited).toBe(0);
      await restartInstance(i, network.isolated ? {} : { HOST: network.address(i) });
    }
    await sleep(1_000);
    const counts = load.between(t0);
    console.log(`rolling restart of three instances (SHUTDOWN_DELAY_S=${SHUTDOWN_DELAY_S}) in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${describeCounts(counts)}`);
    expect(failed(counts)).toBe(0);
  });

  it('SIGKILL of one instance fails no request: nginx sends what that instance did not answer to another', { timeout: 60_000 }, async () => {
    const t0 = performance.now();
    instances[1]!.signal('SIGKILL');
    await instances[1]!.exited;
    await sleep(3_000);
    const counts = load.between(t0);
    console.log(`SIGKILL of one instance under load: ${describeCounts(counts)} in the next 3 s`);
    expect(failed(counts)).toBe(0);
    await restartInstance(1, network.isolated ? {} : { HOST: network.address(1) });
  });

  it.each([
    ['killed (SIGKILL)', 'SIGKILL'],
    ['hung (SIGSTOP)', 'SIGSTOP'],
  ] as const)('the Redis primary %s: only 200 or 503, and all 200 again within 5 s of Sentinel\'s switch', { timeout: 90_000 }, async (_what, signal) => {
    const port = redis.primaryPort()!;
    const server = redis.servers[redis.ports.indexOf(port)]!;
    const t0 = performance.now();
    server.signal(signal);
    const switchedAt = await redis.switchedFrom(port, 30_000);
    // Back to all 200: the first second after which every answer was 200.
    await sleep(6_000);
    const during = load.between(t0);
    const lastFailure = Math.max(t0, ...load.outcomes.filter((o) => o.at >= t0 && o.status !== 200).map((o) => o.at));
    console.log(`Redis primary ${signal}: Sentinel switched after ${((switchedAt - t0) / 1000).toFixed(1)} s; answers ${describeCounts(during)}; all 200 again ${Math.max(0, (lastFailure - switchedAt) / 1000).toFixed(1)} s after the switch`);
    expect([...during.keys()].every((status) => status === 200 || status === 503)).toBe(true);
    expect(lastFailure - switchedAt).toBeLessThan(5_000);
    // The old primary comes back as a replica (Sentinel reconfigures it): READONLY answers must not stick.
    if (signal === 'SIGSTOP') server.signal('SIGCONT');
    else server.launch();
    await sleep(4_000);
    const back = performance.now();
    await sleep(3_000);
    const after = load.between(back);
    console.log(`old primary back as a replica: ${describeCounts(after)} over the next 3 s`);
    expect(failed(after)).toBe(0);
  });

  it('one instance cut off from Redis for 15 s: its POSTs get 503 meanwhile, and it serves again within 5 s of the network healing', { timeout: 90_000 }, async () => {
    if (!network.isolated) return expect(network.isolated).toBe(false); // needs a host of its own to cut off
    const ports = [...redis.ports, ...redis.sentinelPorts];
    const t0 = performance.now();
    network.cutOff(2, ports, true);
    await sleep(15_000);
    network.cutOff(2, ports, false);
    const healed = performance.now();
    await sleep(6_000);
    const lastFailure = Math.max(healed, ...load.outcomes.filter((o) => o.at >= t0 && o.status !== 200).map((o) => o.at));
    console.log(`one instance cut off from Redis 15 s: ${describeCounts(load.between(t0, healed))} during; all 200 again ${((lastFailure - healed) / 1000).toFixed(1)} s after the network healed`);
    expect([...load.between(t0).keys()].every((status) => status === 200 || status === 503)).toBe(true);
    expect(lastFailure - healed).toBeLessThan(5_000);
  });

  it('with RATE_LIMIT_STORE_FAILURE=local and every Redis down: POSTs are answered 200 and health says degraded', { timeout: 120_000 }, async () => {
    for (const [i, part] of instances.entries()) {
      part.signal('SIGTERM');
      await part.exited;
      await restartInstance(i, { RATE_LIMIT_STORE_FAILURE: 'local', ...(network.isolated ? {} : { HOST: network.address(i) }) });
    }
    for (const part of [...redis.servers, ...redis.sentinels]) await part.stop();
    await sleep(1_000);
    const t0 = performance.now();
    await sleep(4_000);
    const counts = load.between(t0);
    const health = (await (await fetch(`http://127.0.0.1:${nginx.port}/mcp`)).json()) as { status: string };
    console.log(`RATE_LIMIT_STORE_FAILURE=local, Redis and Sentinels down: ${describeCounts(counts)}; health ${health.status}`);
    expect(failed(counts)).toBe(0);
    expect(health.status).toBe('degraded');
  });
});
