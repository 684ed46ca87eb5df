// The server identity per revision: `serverInfo` of legacy `initialize`, `_meta` serverInfo of modern results.
import type { McpServerIdentity } from './types.js';
import type { ProtocolRevision } from './version.js';

/** MCP `Implementation`: `title` exists from 2025-06-18, `icons` from 2025-11-25. */
export function implementationFor(identity: McpServerIdentity, revision: ProtocolRevision): Record<string, unknown> {
  if (revision === '2025-03-26') return { name: identity.name, version: identity.version };
  const info: Record<string, unknown> = { name: identity.name, title: identity.title, version: identity.version };
  if (revision !== '2025-06-18') {
    info.icons = [{ src: identity.iconUrl, mimeType: 'image/png', sizes: ['512x512'] }];
  }
  return info;
}
