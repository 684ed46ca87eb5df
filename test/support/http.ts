// Test support for the HTTP tests: a real server on port 0 and exact-control clients over node:http and node:net.
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { pino } from 'pino';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/start-server.js';
import type { ServerOptions, StartedServer } from '../../src/server/start-server.js';

export interface TestServer extends StartedServer {
  host: string;
}

/** Starts the real server (uWS, codec, MCP layer) on 127.0.0.1 and a free port; logs are discarded. */
export async function startTestServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env });
  const server = await startServer(config, { logger: pino({ level: 'silent' }), staticAssets: null, ...options });
  return { ...server, host: `127.0.0.1:${server.port}` };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed body (throws when the body is not JSON). */
  json(): any;
}

export interface Send {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The client's own address (127.0.0.x): another loopback address is another client to the rate limit and the queues. */
  localAddress?: string;
}

/** One request over node:http (own connection, any Host/Origin header allowed), full body collected. */
export function send(port: number, { method = 'GET', path = '/mcp', headers = {}, body, localAddress }: Send = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false, localAddress }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 20 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A JSON POST (legacy MCP without version header unless `headers` adds one). */
export function post(port: number, path: string, value: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(port, { method: 'POST', path, headers: { ...JSON_HEADERS, ...headers }, body: typeof value === 'string' ? value : JSON.stringify(value) });
}

/**
 * Writes raw bytes (the request exactly as given) and collects everything the server sends until it closes the
 * connection or `idleMs` pass without data.
 */
export function raw(port: number, chunks: (string | Buffer)[], idleMs = 1500): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(received).toString('latin1'));
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(finish, idleMs);
    };
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      arm();
    });
    socket.on('data', (d: Buffer) => {
      received.push(d);
      arm();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error) => (received.length > 0 ? finish() : reject(error)));
  });
}

/** Status code and lower-cased headers of the first response in a raw reply. */
export function parseRaw(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/** Security headers docs/http-api.md requires on every response. */
export function expectSecurityHeaders(headers: IncomingHttpHeaders | Record<string, string>, where: string): void {
  if (headers['cache-control'] !== 'no-store') throw new Error(`${where}: Cache-Control is ${String(headers['cache-control'])}`);
  if (headers['x-content-type-options'] !== 'nosniff') throw new Error(`${where}: X-Content-Type-Options is ${String(headers['x-content-type-options'])}`);
}

/** Both socket adapters; suites run once per adapter (`describe.each(TRANSPORTS)`). */
export const TRANSPORTS = ['uws', 'node'] as const;

/** startTestServer on one adapter: how a suite parameterized over TRANSPORTS starts its servers. */
export function startOn(transport: (typeof TRANSPORTS)[number]): (env?: Record<string, string>, options?: ServerOptions) => Promise<TestServer> {
  return (env = {}, options = {}) => startTestServer({ TRANSPORT: transport, ...env }, options);
}
