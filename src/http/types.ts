// Runtime-neutral HTTP shapes: what the core sees of a request and what it answers (no uWS or node:http types here).

/** One request head, copied out of the socket layer before any await. */
export interface HttpRequest {
  /** Upper-case method, e.g. 'POST'. */
  readonly method: string;
  /** URL path without the query string, e.g. '/mcp'. */
  readonly path: string;
  /** Header names lower-case; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  /** The peer's address as the socket reports it (IPv4, IPv6, or IPv4-mapped IPv6); the core normalises it. */
  readonly socketAddress: string;
  /** The version of the request line, e.g. '1.1'. */
  readonly httpVersion: string;
  /** Header lines as they arrived (a repeated header counts once per line). */
  readonly headerLines: number;
}

export interface HttpResponse {
  status: number;
  /** Final header names, lower-case, each once (the core merges security, CORS and route headers). */
  headers: Readonly<Record<string, string>>;
  /** null → no body at all (204, 202). */
  body: string | Uint8Array | null;
  /** Ask the socket layer to close the connection after this answer. */
  closeConnection?: boolean;
  /** Called by the socket layer once it no longer needs the body's bytes (a pooled buffer goes back to its pool). */
  release?: (() => void) | undefined;
}

/** Header maps built by the core are never mutated after start-up or after their response left. */
export type HeaderMap = Readonly<Record<string, string>>;
