// Reading the MCP request headers: optional-whitespace trimming and the `=?base64?…?=` form of Mcp-Name.

/** Header names as the HTTP layer hands them over (lower case). */
export const HEADER = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
} as const;

/** A header value with leading/trailing spaces and tabs removed (HTTP optional whitespace), or undefined if absent. */
export function readHeader(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const raw = Object.hasOwn(headers, name) ? headers[name] : undefined;
  return raw === undefined ? undefined : trimOws(raw);
}

export function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start++;
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Canonical Base64 with padding; Node's own decoder is lenient, so the shape is checked first. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes an `Mcp-Name` value. Values without the exact lowercase markers are literal. Inside the markers the payload
 * must be canonical Base64 (padding present, unused bits zero) of valid UTF-8; otherwise `undefined`, which the caller
 * treats as a mismatch.
 */
export function decodeMcpName(value: string): string | undefined {
  if (!(value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length && value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))) {
    return value;
  }
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  const bytes = Buffer.from(payload, 'base64');
  // Non-zero unused bits ("YR==" for "a") decode leniently; only the canonical spelling is accepted.
  if (bytes.toString('base64') !== payload) return undefined;
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
