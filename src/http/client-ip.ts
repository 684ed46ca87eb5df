// Client IP for rate limiting: the socket address, or with TRUST_PROXY=n the n-th X-Forwarded-For hop from the right;
// IPv6 clients are keyed by their network prefix (RATE_LIMIT_IPV6_PREFIX, default /64).
import { isIP } from 'node:net';

/** IPv4-mapped IPv6 as uWS reports IPv4 clients: eight uncompressed groups, the address in the last two. */
const UWS_MAPPED_IPV4 = /^0000:0000:0000:0000:0000:ffff:([0-9a-f]{4}):([0-9a-f]{4})$/i;
/** Plain dotted IPv4 as node:http and uWS on an IPv4 listener report it: already normal. */
const DOTTED_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * Normalises an address so one client is one key: IPv4-mapped IPv6 (as uWS reports IPv4 clients on a
 * dual-stack listener, uncompressed) becomes dotted IPv4, other IPv6 is compressed and lower-cased.
 */
export function normaliseIp(address: string): string {
  // Every request of an IPv4 client arrives in one of these two exact forms, so it skips the general parse below.
  if (DOTTED_IPV4.test(address)) return address;
  const mapped = UWS_MAPPED_IPV4.exec(address);
  if (mapped !== null) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  if (isIP(trimmed) !== 6) return trimmed;
  const expanded = expandIpv6(trimmed.toLowerCase());
  if (expanded === undefined) return trimmed.toLowerCase();
  if (expanded.slice(0, 5).every((g) => g === 0) && expanded[5] === 0xffff) {
    const hi = expanded[6] ?? 0;
    const lo = expanded[7] ?? 0;
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return compressIpv6(expanded);
}

/** Eight 16-bit groups of a valid IPv6 text form (an embedded dotted IPv4 tail becomes two groups). */
function expandIpv6(text: string): number[] | undefined {
  const body = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0] ?? '');
  const rest = halves.length > 1 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** RFC 5952 text: longest run (≥ 2) of zero groups becomes '::'. */
function compressIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/**
 * The address rate limiting is keyed on. With trustProxy = n > 0 the n-th entry from the right of
 * X-Forwarded-For is used (the entries left of it are client-controlled); with fewer entries, or a
 * value that is not an IP address, the socket address is used.
 */
export function clientIp(socketAddress: string, forwardedFor: string | undefined, trustProxy: number): string {
  if (trustProxy > 0 && forwardedFor !== undefined) {
    const hops = forwardedFor.split(',').map((h) => h.trim()).filter((h) => h !== '');
    const hop = hops[hops.length - trustProxy];
    if (hop !== undefined && isIP(hop.replace(/^\[|\]$/g, '')) !== 0) return normaliseIp(hop);
  }
  return normaliseIp(socketAddress);
}

/**
 * The rate-limit key of a client: its IPv4 address, or for IPv6 the network of `ipv6PrefixBits` (e.g.
 * `2001:db8:1:2::/64`). One subscriber usually gets a whole /64, so keying single IPv6 addresses would give an
 * attacker 2^64 counters (docs/deployment.md, "Client IP and TRUST_PROXY").
 */
export function rateLimitKey(socketAddress: string, forwardedFor: string | undefined, trustProxy: number, ipv6PrefixBits: number): string {
  const ip = clientIp(socketAddress, forwardedFor, trustProxy);
  if (!ip.includes(':') || ipv6PrefixBits >= 128) return ip;
  const groups = expandIpv6(ip);
  if (groups === undefined) return ip;
  for (let g = 0; g < 8; g++) {
    const keep = Math.max(0, Math.min(16, ipv6PrefixBits - g * 16));
    groups[g] = keep === 0 ? 0 : (groups[g]! & (0xffff << (16 - keep))) & 0xffff;
  }
  return `${compressIpv6(groups)}/${ipv6PrefixBits}`;
}
