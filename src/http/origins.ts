// Browser origins: which may call, and the CORS headers each allowed one gets (built once per configured origin).

/** Request headers a browser may send cross-origin (answered in the preflight). */
const CORS_ALLOWED_HEADERS = 'Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name';
const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';

/** An allowed origin: the spelling CORS answers carry and the headers of actual and preflight answers. */
export interface CorsGrant {
  /** Lower-case, no trailing slash: the configured spelling, never the case the client sent. */
  readonly origin: string;
  readonly actual: Readonly<Record<string, string>>;
  readonly preflight: Readonly<Record<string, string>>;
}

/**
 * 'none': no Origin header (CLI clients) · 'allowed': a listed origin, answered with CORS headers · 'same-origin': a
 * GET/HEAD from a page this server served itself (Origin equals its own Host) · 'forbidden': 403.
 */
export type OriginVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'allowed'; readonly grant: CorsGrant }
  | { readonly kind: 'same-origin' }
  | { readonly kind: 'forbidden' };

export interface OriginPolicy {
  verdict(method: string, origin: string | undefined, host: string | undefined): OriginVerdict;
}

const NONE: OriginVerdict = { kind: 'none' };
const SAME_ORIGIN: OriginVerdict = { kind: 'same-origin' };
const FORBIDDEN: OriginVerdict = { kind: 'forbidden' };

/** SP_ENV=development: http(s)://localhost and 127.0.0.1 with any port. */
const DEV_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

function grantFor(origin: string): CorsGrant {
  return {
    origin,
    actual: { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'Retry-After', vary: 'Origin' },
    preflight: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': CORS_ALLOWED_METHODS,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-max-age': '600',
      vary: 'Origin',
    },
  };
}

/** `allowed`: exact origins, lower-case, without trailing slash (config.ts normalises ALLOWED_ORIGINS so). */
export function createOriginPolicy(options: { allowed: readonly string[]; development: boolean }): OriginPolicy {
  const grants = new Map<string, OriginVerdict>(options.allowed.map((origin) => [origin, { kind: 'allowed', grant: grantFor(origin) }]));
  return {
    verdict(method, origin, host) {
      if (origin === undefined) return NONE;
      const normalised = origin.trim().toLowerCase();
      const listed = grants.get(normalised);
      if (listed !== undefined) return listed;
      // Development origins vary by port: built per request (development only, never on a public deployment).
      if (options.development && DEV_ORIGIN.test(normalised)) return { kind: 'allowed', grant: grantFor(normalised) };
      const ownHost = host?.trim().toLowerCase();
      if ((method === 'GET' || method === 'HEAD') && ownHost !== undefined && (normalised === `http://${ownHost}` || normalised === `https://${ownHost}`)) {
        return SAME_ORIGIN;
      }
      return FORBIDDEN;
    },
  };
}
