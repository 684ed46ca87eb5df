// The MCP App (extension io.modelcontextprotocol/ui, 2026-01-26): its one ui:// resource and how tools point at it.

/** The plan view: a self-contained HTML document that renders a tool's plan inside the host (src/mcp-app/). */
export const PLAN_VIEW_URI = 'ui://sessionplan/plan';
/** The MCP Apps profile of HTML: hosts render such a resource in a sandboxed iframe. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The view's document as the server serves it (built by src/mcp-app/build.mjs, read by assets/app-view.ts). */
export interface AppViewDocument {
  readonly html: string;
}

/**
 * `_meta` of both tools: `ui.resourceUri` (the stable spec), and the older flat key for hosts that read only that.
 * Visibility is left at its default (model and app).
 */
export const TOOL_APP_META = { ui: { resourceUri: PLAN_VIEW_URI }, 'ui/resourceUri': PLAN_VIEW_URI } as const;

/**
 * The `contents` of resources/read. No `csp` in `_meta.ui`: the view needs no network, so the host's restrictive
 * default applies. `prefersBorder`: the plan sits in the conversation as a card, set apart by the host's border.
 */
export function resourceContents(view: AppViewDocument): Record<string, unknown>[] {
  return [{ uri: PLAN_VIEW_URI, mimeType: APP_MIME_TYPE, text: view.html, _meta: { ui: { prefersBorder: true } } }];
}
