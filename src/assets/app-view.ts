// The MCP App's plan view (built into dist/mcp-app/ by src/mcp-app/build.mjs), completed with this server's base URL.
import { readFile } from 'node:fs/promises';
import type { AppViewDocument } from '../mcp/app-view.js';

export const APP_VIEW_FILE = new URL('../../dist/mcp-app/plan-view.html', import.meta.url);
/** Where the built document expects the server's PUBLIC_BASE_URL (the view completes bare `v2:` codes with it). */
export const BASE_URL_PLACEHOLDER = '%PUBLIC_BASE_URL%';

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/**
 * Reads the built view once and writes `publicBaseUrl` into it (a `<meta>` attribute). Rejects with what to run when
 * the view has not been built: a server that advertises the resource must be able to serve it.
 */
export async function loadAppView(publicBaseUrl: string, file: URL = APP_VIEW_FILE): Promise<AppViewDocument> {
  let template: string;
  try {
    template = await readFile(file, 'utf8');
  } catch {
    throw new Error(`The MCP App view is not built (${file.pathname} is missing): run \`npm run build\`, or set MCP_APPS=off to serve without it`);
  }
  const parts = template.split(BASE_URL_PLACEHOLDER);
  if (parts.length !== 2) throw new Error(`The MCP App view ${file.pathname} is not a build of src/mcp-app/ (it must name ${BASE_URL_PLACEHOLDER} once): run \`npm run build\``);
  return { html: parts.join(publicBaseUrl.replace(/[&"<>]/g, (char) => ATTRIBUTE_ESCAPES[char]!)) };
}
