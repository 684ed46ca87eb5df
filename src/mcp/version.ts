// MCP protocol revisions this server speaks, legacy negotiation, and which header values name the modern era.

export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** Newest first: the order `initialize` prefers and the order clients see in `error.data.supported`. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export const SUPPORTED_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS] as const;

export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];
export type ProtocolRevision = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** What `initialize` answers when the client asks for a version we do not serve (never the modern one). */
export const DEFAULT_LEGACY_VERSION: LegacyProtocolVersion = '2025-11-25';
/** The shape used for legacy requests that carry no version header (the spec's backwards-compatible assumption). */
export const HEADERLESS_LEGACY_VERSION: LegacyProtocolVersion = '2025-03-26';

const NEWEST_LEGACY = LEGACY_PROTOCOL_VERSIONS[0];
const DATE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

export function isLegacyVersion(value: string): value is LegacyProtocolVersion {
  return value === '2025-11-25' || value === '2025-06-18' || value === '2025-03-26';
}

/**
 * Whether an `MCP-Protocol-Version` header names the modern era: 2026-07-28 or any date-shaped revision newer than the
 * legacy ones (such a request must then carry the per-request `_meta`). Anything else is legacy traffic.
 */
export function headerNamesModernEra(value: string): boolean {
  return DATE_VERSION.test(value) && value > NEWEST_LEGACY;
}

/** Legacy `initialize`: the requested version when it is a supported legacy one, else the newest legacy one. */
export function negotiateLegacyVersion(requested: string): LegacyProtocolVersion {
  return isLegacyVersion(requested) ? requested : DEFAULT_LEGACY_VERSION;
}

