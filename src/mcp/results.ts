// Result bodies that never change for one server identity, serialized once: discover, tools/list, initialize, _meta,
// and with the MCP App on, resources/list and resources/read.
import { APP_MIME_TYPE, PLAN_VIEW_URI, resourceContents, TOOL_APP_META, type AppViewDocument } from './app-view.js';
import { libraryJson, TEMPLATES_RESOURCE } from './library-resource.js';
import { listedPrompt, PROMPTS, TEMPLATES_URI } from './prompts.js';
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
  /**
   * resources/list per revision, and resources/read per URI and revision: the plan view with the MCP App on
   * (MCP_APPS), the templates with the prompts on (MCP_PROMPTS); undefined with both off.
   */
  readonly resources: { readonly list: Readonly<Record<ProtocolRevision, string>>; readonly read: ReadonlyMap<string, Readonly<Record<ProtocolRevision, string>>> } | undefined;
  /** prompts/list per revision; undefined with the prompts off (MCP_PROMPTS=off). */
  readonly prompts: { readonly list: Readonly<Record<ProtocolRevision, string>> } | undefined;
}

/** What a server offers besides its tools, each of which can be switched off to compare with the plain surface. */
export interface Extras {
  /** The MCP App's document (MCP_APPS on): the plan view resource and `_meta.ui` on both tools. */
  readonly appView?: AppViewDocument | undefined;
  /** The prompts and the templates resource (MCP_PROMPTS on). */
  readonly prompts?: boolean | undefined;
}

/** Without extras the results are the plain ones (capabilities `{ tools: {} }`, no `_meta.ui`). */
export function buildStaticResults(identity: McpServerIdentity, extras: Extras = {}): StaticResults {
  const { appView } = extras;
  const prompts = extras.prompts === true;
  const meta = { [META_SERVER_INFO]: implementationFor(identity, MODERN_PROTOCOL_VERSION) };
  const capabilities = { tools: {}, ...(prompts ? { prompts: {} } : {}), ...(appView !== undefined || prompts ? { resources: {} } : {}) };
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
  const resources: Served[] = [];
  if (appView !== undefined) resources.push({ listed: PLAN_VIEW_RESOURCE, contents: resourceContents(appView) });
  if (prompts) resources.push({ listed: TEMPLATES_RESOURCE, contents: [{ uri: TEMPLATES_URI, mimeType: 'application/json', text: libraryJson() }] });
  return {
    modernMeta: JSON.stringify(meta),
    discover,
    toolsList,
    initialize,
    resources: resources.length === 0 ? undefined : resourceResults(resources, meta),
    prompts: prompts ? { list: perRevision((revision) => ({ prompts: PROMPTS.map((prompt) => listedPrompt(prompt, revision)) }), meta, CACHE_HINTS) } : undefined,
  };
}

/** A resource as resources/list shows it (`title` exists from 2025-06-18), and its contents. */
interface Served {
  readonly listed: { readonly uri: string; readonly name: string; readonly title: string; readonly description: string; readonly mimeType: string };
  readonly contents: Record<string, unknown>[];
}

const PLAN_VIEW_RESOURCE: Served['listed'] = {
  uri: PLAN_VIEW_URI,
  name: 'plan',
  title: 'Sessionplan plan view',
  description: 'Shows the plan of a create_session_link or decode_session_link result, with a button that opens it in Sessionplan.',
  mimeType: APP_MIME_TYPE,
};

/** A result in every revision: modern ones with resultType, cache hints and the identity, legacy ones as they are. */
function perRevision(result: (revision: ProtocolRevision) => Record<string, unknown>, meta: Record<string, unknown>, hints: Record<string, unknown>): Record<ProtocolRevision, string> {
  const texts = {} as Record<ProtocolRevision, string>;
  for (const revision of SUPPORTED_PROTOCOL_VERSIONS) {
    texts[revision] = JSON.stringify(revision === MODERN_PROTOCOL_VERSION ? { resultType: 'complete', ...result(revision), ...hints, _meta: meta } : result(revision));
  }
  return texts;
}

function resourceResults(served: readonly Served[], meta: Record<string, unknown>): NonNullable<StaticResults['resources']> {
  const list = perRevision((revision) => ({ resources: served.map(({ listed }) => (revision === '2025-03-26' ? { uri: listed.uri, name: listed.name, description: listed.description, mimeType: listed.mimeType } : listed)) }), meta, CACHE_HINTS);
  // Documents are long (the view ~160 KB) and the same in every legacy revision: each is serialized once for them.
  const read = new Map(
    served.map(({ listed, contents }) => {
      const legacy = JSON.stringify({ contents });
      const texts = {} as Record<ProtocolRevision, string>;
      for (const revision of SUPPORTED_PROTOCOL_VERSIONS) {
        texts[revision] = revision === MODERN_PROTOCOL_VERSION ? JSON.stringify({ resultType: 'complete', contents, ...DOCUMENT_CACHE_HINTS, _meta: meta }) : legacy;
      }
      return [listed.uri, texts] as const;
    }),
  );
  return { list, read };
}
