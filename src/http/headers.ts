// Response header sets, merged once: security headers on every answer, then CORS for an allowed origin, then the route's.
import type { CorsGrant } from './origins.js';
import type { HeaderMap } from './types.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sent on every response, whatever the route or status. */
export const SECURITY_HEADERS: HeaderMap = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** Layers merged case-insensitively, later ones winning, so no header is ever sent twice; names come out lower-case. */
export function mergeHeaders(...layers: (HeaderMap | undefined)[]): HeaderMap {
  const merged: Record<string, string> = {};
  for (const layer of layers) if (layer !== undefined) for (const name in layer) merged[name.toLowerCase()] = layer[name] as string;
  return Object.freeze(merged);
}

/**
 * One answer's headers without CORS (`base`), and with the CORS headers of each allowed origin, built the first time
 * that origin is seen and then reused: a request never merges header maps on the hot path.
 */
export class HeaderSet {
  readonly base: HeaderMap;
  readonly #route: HeaderMap;
  readonly #withCors = new WeakMap<CorsGrant, HeaderMap>();

  constructor(route: HeaderMap) {
    this.#route = route;
    this.base = mergeHeaders(SECURITY_HEADERS, route);
  }

  /** With `grant`: the actual-request CORS headers of that origin (route headers still win, e.g. a file's caching). */
  for(grant: CorsGrant | undefined): HeaderMap {
    if (grant === undefined) return this.base;
    let headers = this.#withCors.get(grant);
    if (headers === undefined) {
      headers = mergeHeaders(SECURITY_HEADERS, grant.actual, this.#route);
      this.#withCors.set(grant, headers);
    }
    return headers;
  }
}

/** Headers of JSON answers and of answers without a body, shared by every route. */
export const JSON_HEADERS = new HeaderSet({ 'content-type': JSON_CONTENT_TYPE });
export const EMPTY_HEADERS = new HeaderSet({});
