// Runtime-neutral HTTP shapes: what the router sees of a request and what it answers (no uWS types here).

/** One request, copied out of the socket layer before any await. */
export interface HttpRequest {
  /** Upper-case method, e.g. 'POST'. */
  readonly method: string;
  /** URL path without the query string, e.g. '/mcp'. */
  readonly path: string;
  /** Raw query string without '?', or ''. */
  readonly query: string;
  /** Header names lower-case; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  /** Normalised client address used for rate limiting (see client-ip.ts). */
  readonly remoteIp: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** null → no body at all (204, 202). */
  body: string | Uint8Array | null;
  /** Ask the socket layer to close the connection after this answer (e.g. the client may still be uploading). */
  closeConnection?: boolean;
}
