// Result bodies that never change for one server identity, serialized once: discover, tools/list, initialize, _meta,
// and with the MCP App on, resources/list and resources/read.
import { listedResource, resourceContents, TOOL_APP_META, type AppViewDocument } from './app-view.js';
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
/** The view's document is static and the same for everyone: a day. */
const DOCUMENT_CACHE_HINTS = { ttlMs: 86_400_000, cacheScope: 'public' } as const;

export interface StaticResults {
  /** JSON of `_meta` on every modern result (the server identity). */
  readonly modernMeta: string;
  readonly discover: string;
  readonly toolsList: Readonly<Record<ProtocolRevision, string>>;
  readonly initialize: Readonly<Record<LegacyProtocolVersion, string>>;
  /** resources/list and resources/read results per revision; undefined with the MCP App off (MCP_APPS=off). */
  readonly resources: { readonly list: Readonly<Record<ProtocolRevision, string>>; readonly read: Readonly<Record<ProtocolRevision, string>> } | undefined;
}

/** `appView`: the MCP App's document; without it the results are the plain ones (capabilities `{ tools: {} }`, no `_meta.ui`). */
export function buildStaticResults(identity: McpServerIdentity, appView?: AppViewDocument): StaticResults {
  const meta = { [META_SERVER_INFO]: implementationFor(identity, MODERN_PROTOCOL_VERSION) };
  const capabilities = appView === undefined ? { tools: {} } : { tools: {}, resources: {} };
  const toolsList = {} as Record<ProtocolRevision, string>;
  for (const revision of SUPPORTED_PROTOCOL_VERSIONS) {
    const tools = TOOLS.map((tool) => listedTool(tool, revision, appView === undefined ? undefined : TOOL_APP_META));
    toolsList[revision] = JSON.stringify(
      revision === MODERN_PROTOCOL_VERSION ? { resultType: 'complete', tools, ...CACHE_HINTS, _meta: meta } : { tools },
    );
  }
  const initialize = {} as Record<LegacyProtocolVersion, string>;
  for (const version of LEGACY_PROTOCOL_VERSIONS) {
    initialize[version] = JSON.stringify({
      protocolVersion: version,
      capabilities,
      serverInfo: implementationFor(identity, version),
      instructions: WORKFLOW_INSTRUCTIONS,
    });
  }
  const discover = JSON.stringify({
    resultType: 'complete',
    supportedVersions: [MODERN_PROTOCOL_VERSION],
    capabilities,
    instructions: WORKFLOW_INSTRUCTIONS,
    ...CACHE_HINTS,
    _meta: meta,
  });
  return { modernMeta: JSON.stringify(meta), discover, toolsList, initialize, resources: appView === undefined ? undefined : resourceResults(appView, meta) };
}

function resourceResults(appView: AppViewDocument, meta: Record<string, unknown>): NonNullable<StaticResults['resources']> {
  const list = {} as Record<ProtocolRevision, string>;
  const read = {} as Record<ProtocolRevision, string>;
  const contents = resourceContents(appView);
  // The document is long (~100 KB) and its contents are the same in every legacy revision: serialized once for them.
  const legacyRead = JSON.stringify({ contents });
  for (const revision of SUPPORTED_PROTOCOL_VERSIONS) {
    const resources = [listedResource(revision)];
    if (revision === MODERN_PROTOCOL_VERSION) {
      list[revision] = JSON.stringify({ resultType: 'complete', resources, ...CACHE_HINTS, _meta: meta });
      read[revision] = JSON.stringify({ resultType: 'complete', contents, ...DOCUMENT_CACHE_HINTS, _meta: meta });
    } else {
      list[revision] = JSON.stringify({ resources });
      read[revision] = legacyRead;
    }
  }
  return { list, read };
}
