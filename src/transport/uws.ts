// The only file that imports uWebSockets.js: copies each request out of uWS, streams the body under the cap, writes corked.
import { STATUS_CODES } from 'node:http';
import uWS from 'uWebSockets.js';
import type { HttpResponse as UwsResponse, HttpRequest as UwsRequest, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { clientIp } from './client-ip.js';
import { JSON_CONTENT_TYPE, SECURITY_HEADERS } from './http-rules.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import type { RouteLabel } from './metrics.js';
import type { Router } from './router.js';

/** What the access log and the request metrics get for every request (never bodies, never addresses). */
export interface RequestRecord {
  method: string;
  path: string;
  route: RouteLabel;
  /** 0 when the client went away before an answer. */
  status: number;
  bytesIn: number;
  bytesOut: number;
  durationMs: number;
  aborted: boolean;
}

export interface UwsListenOptions {
  host: string;
  port: number;
  router: Router;
  maxBodyBytes: number;
  trustProxy: number;
  onComplete?: (record: RequestRecord) => void;
  /**
   * Worker threads of one process listen on the same port (SO_REUSEPORT, research/http.md §2.5). Only for workers
   * started after the main thread has checked the port with probeExclusivePort(); default: exclusive.
   */
  sharedPort?: boolean;
}

export interface UwsServer {
  /** The real port (useful after listening on port 0). */
  readonly port: number;
  /** Requests between arrival and answer (or abort). */
  inFlight(): number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/** Thrown when uWS cannot be used: the JS fallback was loaded, or the address cannot be bound. */
export class UwsStartupError extends Error {
  override readonly name = 'UwsStartupError';
}

/**
 * The npm package silently falls back to a node:http reimplementation when its binary does not load; that
 * fallback lacks APIs we rely on (remote address, corking semantics), so refuse to run on it (research/http.md §1.4).
 */
export function assertNativeUws(): void {
  const native = /\[native code\]/.test(Function.prototype.toString.call(uWS.App)) && typeof uWS.SSLApp === 'function';
  if (!native) {
    throw new UwsStartupError(
      `uWebSockets.js native binary not loaded (node ABI ${process.versions.modules}, ${process.platform}-${process.arch}); refusing to start on the JS fallback.`,
    );
  }
}

/** uWS writes the status verbatim after "HTTP/1.1 ", so it needs the reason phrase. */
const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    statusLines.set(status, line);
  }
  return line;
}

/** Time between the last in-flight answer and closing every connection during shutdown. */
const FLUSH_LINGER_MS = 250;

/** Runtime constant of the binary (the typings only declare it as an enum member). */
const EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

/** Last guard if the router itself fails (it answers its own errors; this should never be sent). */
const INTERNAL_ERROR: HttpResponse = {
  status: 500,
  headers: { ...SECURITY_HEADERS, 'content-type': JSON_CONTENT_TYPE },
  body: JSON.stringify({ error: 'Internal server error' }),
  closeConnection: true,
};

/** uSockets' default listen options: SO_REUSEPORT on Linux, so several worker threads can bind one port. */
const SHARED_PORT = 0;

type ListenCallback = (token: us_listen_socket | false) => void;

/** `listen(host, port, flags, cb)` exists at runtime in 20.30; the typings only declare `listen(port, flags, cb)` (#118). */
function listenWithFlags(app: TemplatedApp, host: string, port: number, flags: number, cb: ListenCallback): void {
  (app.listen as unknown as (host: string, port: number, flags: number, cb: ListenCallback) => void).call(app, host, port, flags, cb);
}

/**
 * For the main thread before it starts workers that share a port: binds `host:port` exclusively once and releases it,
 * so a busy port (e.g. a stale old process, which SO_REUSEPORT would let the workers share silently) stops startup
 * with a clear message, and port 0 becomes the real port every worker then binds.
 */
export function probeExclusivePort(host: string, port: number): Promise<number> {
  assertNativeUws();
  const app = uWS.App();
  return new Promise((resolve, reject) => {
    listenWithFlags(app, host, port, EXCLUSIVE_PORT, (token) => {
      if (token === false) {
        (app as TemplatedApp & { close?: () => void }).close?.();
        reject(new UwsStartupError(`Cannot listen on ${host}:${port} (address in use or not available).`));
        return;
      }
      const bound = uWS.us_socket_local_port(token);
      uWS.us_listen_socket_close(token);
      (app as TemplatedApp & { close?: () => void }).close?.();
      resolve(bound);
    });
  });
}

function byteLength(body: string | Uint8Array | null): number {
  if (body === null) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

export function listenUws(options: UwsListenOptions): Promise<UwsServer> {
  assertNativeUws();
  const { router, maxBodyBytes, trustProxy, onComplete } = options;
  const app: TemplatedApp = uWS.App();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;

  function settle(): void {
    inFlight--;
    if (inFlight === 0 && drained !== undefined) drained();
  }

  app.any('/*', (res: UwsResponse, req: UwsRequest) => {
    // 1. uWS's HttpRequest lives on the C++ stack: copy everything before any await.
    const started = performance.now();
    const headers: Record<string, string> = {};
    req.forEach((name, value) => {
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    });
    const socketAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
    const query = req.getQuery();
    const request: HttpRequest = {
      method: req.getMethod().toUpperCase(),
      path: req.getUrl(),
      query: query ?? '',
      headers,
      remoteIp: clientIp(socketAddress, headers['x-forwarded-for'], trustProxy),
    };
    // 2. onAborted before anything can return or await; after it fires `res` must never be touched.
    let aborted = false;
    let responded = false;
    // A request that declares no body is complete now (uWS reports its empty last chunk only after the microtasks).
    const length = headers['content-length'];
    let bodyComplete = headers['transfer-encoding'] === undefined && (length === undefined || length.trim() === '0');
    let mayReadBody = false;
    let handling = false;
    let bytesIn = 0;
    const chunks: Buffer[] = [];
    inFlight++;

    const record = (status: number, bytesOut: number): void => {
      onComplete?.({
        method: request.method,
        path: request.path,
        route: router.routeLabel(request.path),
        status,
        bytesIn,
        bytesOut,
        durationMs: performance.now() - started,
        aborted: status === 0,
      });
    };

    res.onAborted(() => {
      aborted = true;
      chunks.length = 0; // a client gone mid-upload: free its partial body now, not when this closure is collected
      if (responded) return;
      responded = true;
      settle();
      record(0, 0);
    });

    const respond = (response: HttpResponse): void => {
      if (aborted || responded) return;
      responded = true;
      // Close when the client may still be uploading (so the rest is not parsed as a request) or we are shutting down.
      const close = response.closeConnection === true || !bodyComplete || closing;
      res.cork(() => {
        res.writeStatus(statusLine(response.status));
        for (const name in response.headers) res.writeHeader(name, response.headers[name] as string);
        if (response.body === null && (response.status === 204 || response.status === 304)) res.endWithoutBody();
        // uWS 20.30 leaves a keep-alive connection unusable after endWithoutBody(length): the next request on it gets
        // no answer (found by the protocol fuzz, test/scale-fuzz.test.ts). Close it, so clients open a fresh one.
        else if (request.method === 'HEAD') res.endWithoutBody(byteLength(response.body), true);
        else res.end(response.body ?? '', close);
      });
      settle();
      record(response.status, byteLength(response.body));
    };

    /** `lastChunk`: the final chunk, still valid because we are inside its onData callback (decoded without a copy). */
    const runHandler = (lastChunk?: ArrayBuffer): void => {
      if (!mayReadBody || !bodyComplete || handling || responded || aborted) return;
      handling = true;
      let body: string;
      if (chunks.length === 0) body = lastChunk === undefined ? '' : Buffer.from(lastChunk).toString('utf8');
      else {
        if (lastChunk !== undefined && lastChunk.byteLength > 0) chunks.push(Buffer.from(lastChunk));
        body = chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, bytesIn).toString('utf8');
      }
      chunks.length = 0;
      router.handle(request, body).then(respond, () => respond(INTERNAL_ERROR));
    };

    // 3. Stream the body with the cap enforced per chunk (chunked or lying clients), copying each chunk.
    res.onData((chunk, isLast) => {
      if (responded || aborted) return;
      bytesIn += chunk.byteLength;
      if (bytesIn > maxBodyBytes) {
        chunks.length = 0;
        respond(router.bodyTooLarge(request));
        return;
      }
      if (!isLast) {
        if (chunk.byteLength > 0) chunks.push(Buffer.from(chunk.slice(0))); // the ArrayBuffer is detached on return
        return;
      }
      bodyComplete = true;
      if (mayReadBody) return runHandler(chunk);
      if (chunk.byteLength > 0) chunks.push(Buffer.from(chunk.slice(0))); // head() still deciding: keep a copy
    });

    // 4. Refusals that need no body (host, origin, method, media type, length, rate limit) and GET answers.
    router.head(request).then(
      (decision) => {
        if (decision !== 'read-body') return respond(decision);
        mayReadBody = true;
        runHandler();
      },
      () => respond(INTERNAL_ERROR),
    );
  });

  return new Promise((resolve, reject) => {
    // Exclusive unless asked: without it SO_REUSEPORT lets a second server silently share a busy port (research/http.md §2.5).
    listenWithFlags(app, options.host, options.port, options.sharedPort === true ? SHARED_PORT : EXCLUSIVE_PORT, (token) => {
      if (token === false) {
        reject(new UwsStartupError(`Cannot listen on ${options.host}:${options.port} (address in use or not available).`));
        return;
      }
      const port = uWS.us_socket_local_port(token);
      resolve({
        port,
        inFlight: () => inFlight,
        async close(graceMs = 10_000) {
          if (closing) return;
          closing = true;
          uWS.us_listen_socket_close(token);
          if (inFlight > 0) {
            await new Promise<void>((done) => {
              const timer = setTimeout(done, graceMs);
              drained = () => {
                clearTimeout(timer);
                done();
              };
            });
          }
          // The last answers are still in uWS's cork/backpressure buffers; give them a moment to reach the clients
          // (those connections close themselves after the answer), then drop idle keep-alive connections, which
          // would otherwise hold the event loop for up to uWS's 10 s idle timeout.
          await new Promise((done) => setTimeout(done, FLUSH_LINGER_MS));
          (app as TemplatedApp & { close?: () => void }).close?.();
        },
      });
    });
  });
}
