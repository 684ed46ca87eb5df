// Classification of one POST (docs/http-api.md, "MCP endpoint"): which era (modern 2026-07-28 or legacy initialize handshake) handles it.
import { isPlainObject, type JsonObject } from './envelope.js';
import { headerNamesModernEra } from './version.js';

export type Era = 'modern' | 'legacy';

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * First match wins (arrays are refused before this is asked):
 * `params._meta` carries a protocol version claim → modern; the version header names 2026-07-28 or a newer date →
 * modern (the missing `_meta` is then reported by the modern checks); otherwise legacy.
 */
export function classifyMessage(body: JsonObject, versionHeader: string | undefined): Era {
  const params = body.params;
  if (isPlainObject(params)) {
    const meta = params._meta;
    if (isPlainObject(meta) && Object.hasOwn(meta, META_PROTOCOL_VERSION)) return 'modern';
  }
  return eraOfHeader(versionHeader);
}

/** The era when the body cannot be read (malformed JSON, arrays, non-objects): only the header can tell. */
export function eraOfHeader(versionHeader: string | undefined): Era {
  return versionHeader !== undefined && headerNamesModernEra(versionHeader) ? 'modern' : 'legacy';
}

/** Modern errors whose id could not be read omit `id`; legacy ones write `"id": null`. */
export function unknownIdFor(era: Era): null | undefined {
  return era === 'modern' ? undefined : null;
}
