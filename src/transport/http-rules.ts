// The HTTP rules of SPEC §6 as plain functions: headers, origins/CORS, Host guard, media types, Accept.
import type { HttpResponse } from './http-types.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sent on every response, whatever the route or status. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** Request headers a browser may send cross-origin (answered in the preflight). */
export const CORS_ALLOWED_HEADERS = 'Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
export const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';

/**
 * A pure string → boolean rule that remembers its answer for the last value: clients send the same Host, Content-Type
 * and Accept on every request, and parsing them costs up to a microsecond each.
 */
function rememberingLast(rule: (value: string) => boolean): (value: string) => boolean {
  let lastValue: string | undefined;
  let lastAnswer = false;
  return (value) => {
    if (value !== lastValue) {
      lastAnswer = rule(value);
      lastValue = value;
    }
    return lastAnswer;
  };
}

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body: JSON.stringify(value) };
}

// ---------------------------------------------------------------- origins and CORS

export interface OriginPolicy {
  /** Exact origins, lower-case, without trailing slash. */
  readonly allowed: ReadonlySet<string>;
  /** SP_ENV=development: also http(s)://localhost and 127.0.0.1 with any port. */
  readonly development: boolean;
}

const DEV_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

/**
 * 'none': no Origin header (CLI clients) · 'allowed': listed origin, answer with CORS headers ·
 * 'same-origin': a GET/HEAD from a page this server served itself (Origin equals its own Host; the
 * Host guard has already vetted that Host) · 'forbidden': 403.
 */
export type OriginVerdict = 'none' | 'allowed' | 'same-origin' | 'forbidden';

export function checkOrigin(method: string, headers: Readonly<Record<string, string>>, policy: OriginPolicy): OriginVerdict {
  const origin = headers['origin'];
  if (origin === undefined) return 'none';
  const normalised = origin.trim().toLowerCase();
  if (policy.allowed.has(normalised)) return 'allowed';
  if (policy.development && DEV_ORIGIN.test(normalised)) return 'allowed';
  const host = headers['host']?.trim().toLowerCase();
  if ((method === 'GET' || method === 'HEAD') && host !== undefined && (normalised === `http://${host}` || normalised === `https://${host}`)) {
    return 'same-origin';
  }
  return 'forbidden';
}

/** Headers for an actual (non-preflight) response to an allowed cross-origin request. */
export function corsHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'Retry-After', Vary: 'Origin' };
}

/** Headers for the 204 answer to a preflight from an allowed origin. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  };
}

// ---------------------------------------------------------------- DNS-rebinding guard

/** True when the configured listen address only accepts local connections. */
export function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

const LOOPBACK_HOST_HEADER = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** Host guard for a loopback listener: only localhost, 127.0.0.1 or [::1] (any port) may be named. */
export function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && namesLoopback(hostHeader);
}

const namesLoopback = rememberingLast((hostHeader) => LOOPBACK_HOST_HEADER.test(hostHeader.trim().toLowerCase()));

// ---------------------------------------------------------------- media types

export interface MediaType {
  /** 'type/subtype', lower-case. */
  readonly essence: string;
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** Parses one media type (RFC 9110 §8.3.1); undefined when it is not a well-formed type/subtype. */
export function parseMediaType(value: string): MediaType | undefined {
  const [head = '', ...rest] = value.split(';');
  const slash = head.indexOf('/');
  const type = head.slice(0, slash).trim().toLowerCase();
  const subtype = head.slice(slash + 1).trim().toLowerCase();
  if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    const raw = part.slice(eq + 1).trim();
    params[name] = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
  }
  return { essence: `${type}/${subtype}`, params };
}

/** Content-Type must be application/json (parameters such as charset=utf-8 allowed; not a substring match). */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && namesJson(value);
}

const namesJson = rememberingLast((value) => {
  const media = parseMediaType(value);
  if (media === undefined || media.essence !== 'application/json') return false;
  const charset = media.params['charset'];
  return charset === undefined || charset.toLowerCase() === 'utf-8' || charset.toLowerCase() === 'utf8';
});

/** Accept entries as lower-case essences with their weight; an unparsable entry is skipped (lenient reading). */
function acceptEntries(accept: string): { essence: string; q: number }[] {
  const out: { essence: string; q: number }[] = [];
  for (const entry of accept.split(',')) {
    const media = parseMediaType(entry);
    if (media === undefined) continue;
    const q = media.params['q'] === undefined ? 1 : Number(media.params['q']);
    out.push({ essence: media.essence, q: Number.isNaN(q) ? 1 : q });
  }
  return out;
}

const JSON_ACCEPTING = new Set(['application/json', 'application/*', '*/*']);

/** Lenient Accept: absent, empty, unreadable, *\/*, application/* or application/json all allow a JSON answer. */
export function acceptsJson(accept: string | undefined): boolean {
  return accept === undefined || acceptsJsonValue(accept);
}

const acceptsJsonValue = rememberingLast((accept) => {
  const entries = acceptEntries(accept);
  if (entries.length === 0) return true; // nothing readable: do not punish the client for it
  return entries.some((e) => e.q > 0 && JSON_ACCEPTING.has(e.essence));
});

/** A GET asking for an SSE stream (this server never opens one → 405). */
export function asksForEventStream(accept: string | undefined): boolean {
  return accept !== undefined && acceptEntries(accept).some((e) => e.q > 0 && e.essence === 'text/event-stream');
}
