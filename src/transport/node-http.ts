// The node:http adapter: runs wherever Node does; copies each request out, streams its body, bounds every connection.
import { STATUS_CODES, createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RequestCycle } from '../http/request-cycle.js';
import type { CloseMode, CycleOptions, ResponseWriter } from '../http/request-cycle.js';
import type { HttpCore } from '../http/core.js';
import type { BacklogConnection } from '../http/answer-backlog.js';
import type { PlainRefusal } from '../http/refusals.js';
import { ServerLifecycle } from '../http/server-lifecycle.js';
import type { ListeningServer } from '../http/server-lifecycle.js';
import type { HttpResponse } from '../http/types.js';
import { LIMITS } from '../limits/table.js';
import { ConnectionGuard } from './connection-guard.js';
import { TransportError } from './types.js';
import type { ListenOptions, Transport } from './types.js';

/** How often node checks the head and request deadlines (its default, 30 s, would let a slow head live 40 s). */
const DEADLINE_CHECK_MS = 1_000;
/** Answers from this size on count against the answer backlog (smaller ones fit the kernel's socket buffer at once). */
const BACKLOG_MIN_BYTES = 16 * 1024;

/** The request a socket is serving, for the idle timeout and parser errors (set on 'request', cleared when answered). */
const ACTIVE = Symbol('sessionplan.activeCycle');
/** …and its message, whose `complete` says whether the parser read all of it before an error in what followed. */
const ACTIVE_MESSAGE = Symbol('sessionplan.activeMessage');
type ServedSocket = Socket & { [ACTIVE]?: RequestCycle | undefined; [ACTIVE_MESSAGE]?: IncomingMessage | undefined };

/** Destroys a socket CLOSE_LINGER_MS from now unless it closes first. */
function destroyAfterLinger(socket: Socket): void {
  const timer = setTimeout(() => socket.destroy(), LIMITS.closeLinger.value);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Ends a socket with `text` (an answer written raw) and destroys it after the linger. */
function endAndLinger(socket: Socket, text: string): void {
  socket.end(text);
  destroyAfterLinger(socket);
}

/** The answer backlog's view of a socket: bytes sent so far, and how to cut it. */
function backlogConnection(socket: Socket): BacklogConnection {
  return { sentBytes: () => socket.bytesWritten, cut: () => socket.destroy() };
}

function bodyLength(body: string | Uint8Array | null): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** Header names lower-case, repeats joined with ', ' (what the uWS adapter hands over too). */
function copyHeaders(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

const CLOSE: Readonly<Record<string, string>> = { connection: 'close' };
const NO_EXTRA: Readonly<Record<string, string>> = {};

/** The head as node's flat [name, value, …] list, not a spread of the headers (docs/architecture.md, "The request path"). */
function headLines(headers: Readonly<Record<string, string>>, contentLength: number | undefined, extra: Readonly<Record<string, string>>): string[] {
  const lines: string[] = [];
  for (const name in headers) lines.push(name, headers[name]!);
  if (contentLength !== undefined) lines.push('content-length', String(contentLength));
  for (const name in extra) lines.push(name, extra[name]!);
  return lines;
}

function writerFor(req: IncomingMessage, res: ServerResponse, core: HttpCore): ResponseWriter {
  const head = req.method === 'HEAD';
  const send = (response: HttpResponse, extra: Readonly<Record<string, string>>, finish: boolean): number => {
    const length = bodyLength(response.body);
    const noBody = response.body === null && (response.status === 204 || response.status === 304);
    res.writeHead(response.status, headLines(response.headers, noBody ? undefined : length, extra));
    const body = head || response.body === null ? undefined : response.body;
    // node keeps a reference to bytes until the socket took them: a pooled buffer is released once they are flushed
    // ('finish' for end, the write callback for write); if the socket dies first, the buffer is left to the GC.
    const release = response.release;
    // A large answer waits in node's buffers until its reader takes it: it counts against the backlog until then.
    const waiting = body !== undefined && length >= BACKLOG_MIN_BYTES ? trackBacklog(core, res, length) : undefined;
    const flushed = waiting === undefined ? release : (): void => (waiting(), release?.());
    // end(body) sends head and body in one write; write(body) keeps the response open for a drain.
    if (finish) res.end(body, flushed);
    else if (body !== undefined) res.write(body, flushed);
    else release?.();
    return head ? 0 : length;
  };
  return {
    write(response, mode: CloseMode) {
      if (mode === 'keep') return send(response, NO_EXTRA, true);
      if (mode === 'close') return send(response, CLOSE, true);
      // The answer goes out now, complete, but the response stays open (so node does not close the socket under the
      // client's upload) until closeAfterBody(): the rest of the body is read and discarded meanwhile.
      return send(response, CLOSE, false);
    },
    closeAfterBody: () => res.end(),
    destroy: () => res.destroy(),
    continue: () => res.writeContinue(),
  };
}

/** Counts `bytes` of `res`'s answer in the backlog until they are flushed (the returned settle) or the socket closes. */
function trackBacklog(core: HttpCore, res: ServerResponse, bytes: number): () => void {
  const socket = res.socket as Socket | null;
  if (socket === null) return () => {};
  const connection = backlogOf(socket);
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    core.backlog.settle(connection, bytes);
  };
  res.once('close', () => {
    settle();
    if (socket.destroyed) core.backlog.closed(connection);
  });
  core.backlog.add(connection, bytes);
  return settle;
}

const BACKLOG = Symbol('sessionplan.backlogConnection');
function backlogOf(socket: Socket & { [BACKLOG]?: BacklogConnection }): BacklogConnection {
  return (socket[BACKLOG] ??= backlogConnection(socket));
}

function serve(core: HttpCore, cycleOptions: CycleOptions, guard: ConnectionGuard) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    guard.served(req.socket);
    const request = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: pathOf(req.url ?? '/'),
      headers: copyHeaders(req.rawHeaders),
      socketAddress: req.socket.remoteAddress ?? '',
      httpVersion: req.httpVersion,
      headerLines: req.rawHeaders.length / 2,
    };
    const cycle = new RequestCycle(core, request, writerFor(req, res, core), cycleOptions);
    const socket = req.socket as ServedSocket;
    socket[ACTIVE] = cycle;
    socket[ACTIVE_MESSAGE] = req;
    req.on('data', (chunk: Buffer) => cycle.data(chunk, false, false));
    req.on('end', () => cycle.data(EMPTY, true, false));
    // 'close' of the response before it finished: the client went away (or the socket was cut).
    res.on('close', () => {
      if (socket[ACTIVE] === cycle) socket[ACTIVE] = socket[ACTIVE_MESSAGE] = undefined;
      if (!res.writableFinished) cycle.abort();
    });
    cycle.start();
  };
}

/**
 * The idle timeout: a connection with no request in progress is closed after IDLE_TIMEOUT_S without activity. One whose
 * request waits for its answer (queued for an offload thread, say) is not idle, however long it is quiet: node's default
 * would close it with no answer at all.
 */
function onSocketTimeout(socket: Socket): void {
  if ((socket as ServedSocket)[ACTIVE]?.pending === true) return;
  socket.destroy();
}

const EMPTY = new Uint8Array(0);

/** The path of an origin-form target, or of an absolute-form one (`GET http://host/mcp`), without the query. */
function pathOf(target: string): string {
  let path = target;
  if (!path.startsWith('/')) {
    const scheme = path.indexOf('://');
    const slash = scheme < 0 ? -1 : path.indexOf('/', scheme + 3);
    path = scheme < 0 ? path : slash < 0 ? '/' : path.slice(slash);
  }
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/** node's parser errors (llhttp codes) and the answer each gets; anything else is a plain 400. */
const PARSER_REFUSALS: Readonly<Record<string, PlainRefusal>> = {
  HPE_HEADER_OVERFLOW: 'headers-too-large',
  HPE_INVALID_METHOD: 'method-not-allowed',
  HPE_INVALID_VERSION: 'http-version',
  ERR_HTTP_REQUEST_TIMEOUT: 'request-timeout',
};

/**
 * Requests the parser refuses before there is a request object get the same kind of answer as every other refusal
 * (security headers, a JSON body), written raw because there is no response object; built once per listener.
 */
function parserRefusals(core: HttpCore): (code: string | undefined) => string {
  const raw = new Map<string, string>();
  return (code) => {
    const refusal = PARSER_REFUSALS[code ?? ''] ?? 'bad-request';
    let text = raw.get(refusal);
    if (text === undefined) {
      const response = core.plainRefusal(refusal);
      const body = typeof response.body === 'string' ? response.body : '';
      const headers = Object.entries(response.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      text = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
      raw.set(refusal, text);
    }
    return text;
  };
}

export function createNodeHttpTransport(): Transport {
  return {
    name: 'node',
    version: `node:http ${process.version}`,
    honours: { idleTimeoutS: 'any', maxConnections: 'any', maxConnectionsPerClient: 'any' },
    probeExclusivePort(host, port) {
      const probe = createServer();
      return new Promise((resolve, reject) => {
        probe.once('error', () => reject(new TransportError(`Cannot listen on ${host}:${port} (address in use or not available).`)));
        probe.listen({ host, port, exclusive: true }, () => {
          const bound = (probe.address() as { port: number }).port;
          probe.close(() => resolve(bound));
        });
      });
    },

    listen(options: ListenOptions): Promise<ListeningServer> {
      const { core, limits } = options;
      const lifecycle = new ServerLifecycle();
      const guard = new ConnectionGuard({ maxConnections: limits.maxConnections, maxPerClient: limits.maxConnectionsPerClient, ipv6PrefixBits: options.ipv6PrefixBits ?? 64 });
      const handler = serve(core, lifecycle.cycleOptions, guard);
      const server: Server = createServer(
        {
          keepAliveTimeout: limits.idleTimeoutS * 1000,
          headersTimeout: LIMITS.headDeadline.value,
          requestTimeout: LIMITS.requestDeadline.value,
          connectionsCheckingInterval: DEADLINE_CHECK_MS,
          maxHeaderSize: LIMITS.headBytes.value,
          // Answered by the core with a body (http/head.ts), instead of node's bare 400.
          requireHostHeader: false,
          // Header names and values exactly as RFC 9110 allows, not node's lenient parser.
          insecureHTTPParser: false,
        },
        handler,
      );
      if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
      // Runs after node's own connection listener: a client past its share is closed before it sends anything.
      server.on('connection', (socket: Socket) => {
        if (!guard.admit(socket)) socket.destroy();
      });
      // A client that ends its side after sending a request still reads the answer, also one that takes an offload thread
      // a while (node's default aborts the request on the client's FIN; small answers went out before it was read).
      (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
      // node keeps this many header lines and drops the rest silently; one more than allowed is how too many shows.
      server.maxHeadersCount = LIMITS.headLines.value + 1;
      // A connection that sends nothing at all (no head, so no head deadline) is closed after the idle timeout too.
      server.setTimeout(limits.idleTimeoutS * 1000, onSocketTimeout);
      const refusalFor = parserRefusals(core);
      server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
        // A reset leaves nothing to say: just let the socket go.
        if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
        // Malformed bytes inside a request in progress (a bad chunk size, a bad Transfer-Encoding, an early end): that
        // request is answered 400 and the connection closed, unless it is already being answered.
        const active = (socket as ServedSocket)[ACTIVE];
        if (active !== undefined) {
          // The request before the bad bytes was read whole (garbage after a valid POST in one write): it is answered,
          // and its connection closes after the answer.
          if ((socket as ServedSocket)[ACTIVE_MESSAGE]?.complete === true && active.pending) return active.closeAfterAnswer();
          active.interrupt();
          return destroyAfterLinger(socket);
        }
        // A half-written answer of another kind leaves nothing to say either.
        if ((socket as Socket & { _httpMessage?: unknown })._httpMessage != null) return void socket.destroy();
        endAndLinger(socket, refusalFor(error.code));
      });
      // CONNECT is a method this server does not answer (node hands it over here, and closes the socket silently if
      // nobody takes it): 405 like any other method it does not serve.
      const connectRefusal = refusalFor('HPE_INVALID_METHOD');
      server.on('connect', (_req: IncomingMessage, socket: Socket) => endAndLinger(socket, connectRefusal));
      // Expect: 100-continue: the head decisions come first (413 for an oversized length, 415, 429…), and 100 only for
      // a request that may send its body (RequestCycle calls the writer's continue()); node would send 100 at once.
      server.on('checkContinue', handler);
      return new Promise((resolve, reject) => {
        const refuse = (): void => reject(new TransportError(`Cannot listen on ${options.host}:${options.port} (address in use or not available).`));
        server.once('error', refuse);
        // exclusive: false lets worker threads share the port (each has its own server; the kernel spreads connections).
        server.listen({ host: options.host, port: options.port, exclusive: options.sharedPort !== true, reusePort: options.sharedPort === true } as Parameters<Server['listen']>[0], () => {
          server.off('error', refuse);
          // Once listening, an error is a failed accept (no file descriptor left: EMFILE, ENFILE): libuv has closed that
          // connection and goes on listening, so it is counted and the server serves on.
          server.on('error', (error: NodeJS.ErrnoException) => core.observer.recordAcceptError(error.code ?? 'unknown'));
          resolve(
            lifecycle.listening((server.address() as { port: number }).port, {
              stopAccepting() {
                guard.stop();
                server.close();
                server.closeIdleConnections();
              },
              closeAll: () => server.closeAllConnections(),
            }),
          );
        });
      });
    },
  };
}
