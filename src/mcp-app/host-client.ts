// The view's side of the MCP Apps host protocol: JSON-RPC 2.0 over postMessage with the host window (spec 2026-01-26).
// Hand-written: the package's App class bundles the MCP SDK and zod's full schema set (~660 KB minified), which would
// not fit the resource's 200 KiB; this is the handful of messages the view uses.

type Params = Record<string, unknown>;
type RequestHandler = (params: Params) => unknown;
type NotificationHandler = (params: Params) => void;

interface Pending {
  resolve(result: Params): void;
  reject(error: HostError): void;
}

/** A JSON-RPC error answer from the host (e.g. a refused `ui/open-link`). */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** The performance mark set as each host message arrives. */
export const MESSAGE_MARK = 'sessionplan-view:message';

const isObject = (value: unknown): value is Params => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One connection to the host. Only messages whose source is `host` are read (any other window may post to this one);
 * messages go to the host with target origin `*`, as the spec's sandbox has an opaque origin on one side or the other.
 */
export class HostClient {
  readonly #host: Window;
  readonly #pending = new Map<number, Pending>();
  readonly #requests = new Map<string, RequestHandler>();
  readonly #notifications = new Map<string, NotificationHandler>();
  #nextId = 1;

  constructor(host: Window, receiver: Window) {
    this.#host = host;
    receiver.addEventListener('message', (event: MessageEvent) => {
      if (event.source !== host) return;
      // Before `event.data` is read, which is when the browser deserializes the message: a large plan's figure
      // (bench/app-view.bench.ts) starts here. Only the latest such mark is kept.
      performance.clearMarks(MESSAGE_MARK);
      performance.mark(MESSAGE_MARK);
      this.#receive(event.data);
    });
  }

  /** Sends a request; resolves with its result, rejects with HostError on an error answer. */
  request(method: string, params: Params): Promise<Params> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: Params): void {
    this.#send({ jsonrpc: '2.0', method, params });
  }

  /** Answers the host's requests of `method` with the handler's value (`{}` when it returns nothing). */
  onRequest(method: string, handler: RequestHandler): void {
    this.#requests.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler): void {
    this.#notifications.set(method, handler);
  }

  #send(message: Params): void {
    this.#host.postMessage(message, '*');
  }

  #receive(message: unknown): void {
    if (!isObject(message) || message.jsonrpc !== '2.0') return;
    const { id, method } = message;
    const params = isObject(message.params) ? message.params : {};
    if (typeof method !== 'string') {
      // An answer to one of our requests.
      const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
      if (pending === undefined) return;
      this.#pending.delete(id as number);
      const error = message.error;
      if (isObject(error)) pending.reject(new HostError(typeof error.code === 'number' ? error.code : -32603, String(error.message ?? 'the host refused the request')));
      else pending.resolve(isObject(message.result) ? message.result : {});
      return;
    }
    if (id === undefined) {
      this.#notifications.get(method)?.(params);
      return;
    }
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const handler = this.#requests.get(method);
    if (handler === undefined) {
      this.#send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
      return;
    }
    Promise.resolve()
      .then(() => handler(params))
      .then(
        (result) => this.#send({ jsonrpc: '2.0', id, result: isObject(result) ? result : {} }),
        (error: unknown) => this.#send({ jsonrpc: '2.0', id, error: { code: -32603, message: error instanceof Error ? error.message : 'Internal error' } }),
      );
  }
}
