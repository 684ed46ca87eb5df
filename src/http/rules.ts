// The request-side HTTP rules as plain functions: Host guard, media types, Accept (docs/http-api.md, "HTTP rules").

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
