// Denial-of-service attacks as reusable pieces, for the tests (sized to prove a bound) and bench:hostile (full size):
// clients on several loopback addresses, raw sockets that never read or stall, health probed on fresh connections.
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/** Loopback addresses 127.0.0.<first>…: each is its own client to the rate limit and to the heavy-job queue. */
export function loopbackClients(count: number, first = 10): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.0.${first + i}`);
}

export interface RawRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

/** The request as bytes on the wire (Host and Content-Length added). */
export function wire(r: RawRequest, bodyBytes = Buffer.byteLength(r.body)): string {
  const lines = Object.entries(r.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `POST ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}Content-Length: ${bodyBytes}\r\n\r\n`;
}

/** A socket from `localAddress` that sends `head` and `body` and then never reads a byte (errors are swallowed). */
export function neverReading(port: number, localAddress: string, bytes: Buffer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.pause();
      socket.write(bytes, () => resolve(socket));
    });
    socket.once('error', reject);
  });
}

/** Whether a socket the server may have closed is still open: resolves true once it sees the close (or after `ms`). */
export function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed || socket.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.resume();
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * One GET /mcp on a fresh connection (a pooled keep-alive socket would hide a pinned connection cap), from
 * `localAddress` when given: status and ms.
 */
export function healthOnce(port: number, timeoutMs = 10_000, localAddress?: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', agent: false, localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end();
  });
}

/** Health probes on fresh connections, one every `intervalMs`, until stopped; resolves with every result. */
export function probeHealth(port: number, intervalMs = 20): { stop(): Promise<{ status: number; ms: number }[]> } {
  const results: { status: number; ms: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      results.push(await healthOnce(port));
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return results;
    },
  };
}

/** A POST from `localAddress` with its answer read whole: status, bytes and wall time. */
export function postFrom(port: number, localAddress: string, r: RawRequest, timeoutMs = 60_000): Promise<{ status: number; bytes: number; ms: number; error?: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: r.path, agent: false, localAddress, headers: { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) } }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
      res.on('error', (error) => resolve({ status: 0, bytes, ms: performance.now() - t0, error: error.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, bytes: 0, ms: performance.now() - t0, error: error.code ?? error.message }));
    req.end(r.body);
  });
}

const CLOCK_TICKS_PER_S = 100;
/** CPU milliseconds one thread of a process has used (/proc/PID/task/TID/stat; the main thread's TID is the PID). */
export function threadCpuMs(pid: number, tid = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/** The threads of a process with their names (/proc/PID/task/TID/comm) and CPU milliseconds so far. */
export function threads(pid: number): { tid: number; name: string; cpuMs: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => ({ tid: Number(tid), name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(), cpuMs: threadCpuMs(pid, Number(tid)) }));
}

/** Resident set size now (VmRSS), in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

/** The peak RSS (MB) of a process while `work` runs, sampled every 50 ms. */
export async function peakRssWhile(pid: number, work: Promise<unknown>): Promise<number> {
  let peak = rssMb(pid);
  let done = false;
  void work.finally(() => (done = true));
  while (!done) {
    peak = Math.max(peak, rssMb(pid));
    await new Promise((r) => setTimeout(r, 50));
  }
  return Math.max(peak, rssMb(pid));
}

/** A counter's value in Prometheus text (summed over its label sets; 0 when absent). */
export function counterValue(metrics: string, name: string, labels = ''): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{') && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** A statistics of answers: how many of each status (0: no answer, the connection failed). */
export type StatusCounts = Map<number, number>;
const count = (counts: StatusCounts, status: number): void => void counts.set(status, (counts.get(status) ?? 0) + 1);
/** Share of `counts` with status `status`. */
export const shareOf = (counts: StatusCounts, status: number): number => {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return total === 0 ? 0 : (counts.get(status) ?? 0) / total;
};
export const describeCounts = (counts: StatusCounts): string => [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${n} × ${s}`).join(', ');

/**
 * Sockets from `localAddress` that each hold `bytes` open by sending one of its bytes every `everyMs`, and open again
 * whenever the server closes them, until stopped: the re-opening slow client. Returns how often a socket was (re)opened
 * and the status lines the server sent (0 when it closed without one).
 */
export function tricklingSockets(port: number, localAddress: string, options: { sockets: number; bytes: Buffer; everyMs: number; first?: number }): { stop(): Promise<{ opened: number; statuses: StatusCounts }> } {
  const statuses: StatusCounts = new Map();
  const live = new Set<Socket>();
  let opened = 0;
  let running = true;
  const open = (): void => {
    if (!running) return;
    opened++;
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    live.add(socket);
    let sent = 0;
    let head = '';
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => (head += d.toString('latin1', 0, Math.min(d.length, 64))));
    socket.once('connect', () => {
      const first = options.first ?? 1;
      socket.write(options.bytes.subarray(0, first));
      sent = first;
      timer = setInterval(() => {
        if (sent < options.bytes.length) socket.write(options.bytes.subarray(sent, ++sent));
      }, options.everyMs);
    });
    socket.once('close', () => {
      clearInterval(timer);
      live.delete(socket);
      count(statuses, Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0));
      // A client that re-opens at once: a short pause keeps a refused connect from spinning.
      if (running) setTimeout(open, 20);
    });
  };
  for (let i = 0; i < options.sockets; i++) open();
  return {
    async stop() {
      running = false;
      for (const socket of live) socket.destroy();
      await new Promise((r) => setTimeout(r, 50));
      return { opened, statuses };
    },
  };
}

/** POSTs of `request` from `clients` in turn, one every `intervalMs`, each on a fresh connection, until stopped. */
export function steadyPosts(port: number, clients: readonly string[], request: RawRequest, intervalMs: number): { stop(): Promise<StatusCounts> } {
  const statuses: StatusCounts = new Map();
  const pending: Promise<void>[] = [];
  let i = 0;
  const timer = setInterval(() => {
    pending.push(postFrom(port, clients[i++ % clients.length]!, request, 20_000).then((r) => count(statuses, r.status)));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return statuses;
    },
  };
}
