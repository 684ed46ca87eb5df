// Result bodies that never change for one server identity, serialized once: discover, tools/list, initialize, _meta.
import { META_SERVER_INFO } from './classify.js';
import { WORKFLOW_INSTRUCTIONS } from './instructions.js';
import { implementationFor } from './server-info.js';
import { listedTool, TOOLS } from './tools.js';
import type { McpServerIdentity } from './types.js';
import {
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type LegacyProtocolVersion,
  type ProtocolRevision,
} from './version.js';

/** SEP-2549 cache hints: the tool list and identity only change with a deployment. */
const CACHE_HINTS = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

export interface StaticResults {
  /** JSON of `_meta` on every modern result (the server identity). */
  readonly modernMeta: string;
  readonly discover: string;
  readonly toolsList: Readonly<Record<ProtocolRevision, string>>;
  readonly initialize: Readonly<Record<LegacyProtocolVersion, string>>;
}

export function buildStaticResults(identity: McpServerIdentity): StaticResults {
  const meta = { [META_SERVER_INFO]: implementationFor(identity, MODERN_PROTOCOL_VERSION) };
  const toolsList = {} as Record<ProtocolRevision, string>;
  for (const revision of SUPPORTED_PROTOCOL_VERSIONS) {
    const tools = TOOLS.map((tool) => listedTool(tool, revision));
    toolsList[revision] = JSON.stringify(
      revision === MODERN_PROTOCOL_VERSION ? { resultType: 'complete', tools, ...CACHE_HINTS, _meta: meta } : { tools },
    );
  }
  const initialize = {} as Record<LegacyProtocolVersion, string>;
  for (const version of LEGACY_PROTOCOL_VERSIONS) {
    initialize[version] = JSON.stringify({
      protocolVersion: version,
      capabilities: { tools: {} },
      serverInfo: implementationFor(identity, version),
      instructions: WORKFLOW_INSTRUCTIONS,
    });
  }
  const discover = JSON.stringify({
    resultType: 'complete',
    supportedVersions: [MODERN_PROTOCOL_VERSION],
    capabilities: { tools: {} },
    instructions: WORKFLOW_INSTRUCTIONS,
    ...CACHE_HINTS,
    _meta: meta,
  });
  return { modernMeta: JSON.stringify(meta), discover, toolsList, initialize };
}
