// Test helper: keep-alive HTTP load from this process (N concurrent loops over a pooled agent), every answer collected.
import { Agent, request } from 'node:http';

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface LoadReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A pool of `connections` keep-alive connections to 127.0.0.1:port. */
export function keepAliveAgent(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections });
}

/** One request; a connection error or a 20 s silence rejects. */
export function fire(agent: Agent | false, port: number, r: LoadRequest): Promise<LoadReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${r.method} ${r.path} within 20 s`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/**
 * Runs `concurrency` loops until `until()` is false; each loop takes its next request from `next(i)` and hands every
 * reply (or error) to `check`. Resolves with the number of requests sent.
 */
export async function runLoad(options: {
  port: number;
  concurrency: number;
  next: (i: number) => LoadRequest;
  check: (request: LoadRequest, reply: LoadReply | Error) => void;
  until: () => boolean;
  /** false: a fresh connection per request, so each answer is judged on its own (default: keep-alive pool). */
  keepAlive?: boolean;
}): Promise<number> {
  const agent = options.keepAlive === false ? false : keepAliveAgent(options.concurrency);
  let sent = 0;
  const loop = async (): Promise<void> => {
    while (options.until()) {
      const req = options.next(sent++);
      const reply = await fire(agent, options.port, req).catch((error: Error) => error);
      options.check(req, reply);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, loop));
  } finally {
    if (agent !== false) agent.destroy();
  }
  return sent;
}
