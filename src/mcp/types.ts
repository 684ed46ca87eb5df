// Plain request/response shapes shared by the MCP protocol layer and the HTTP layer that calls it (no sockets here).
import type { JsonText } from '../session/json-pieces.js';
import type { LegacyProtocolVersion } from './version.js';
import type { NumberText } from './id-text.js';

/** One POST to the MCP endpoint, as the HTTP layer hands it over. */
export interface McpHttpRequest {
  /** Lower-case header names, values as received. */
  headers: Readonly<Record<string, string>>;
  /** UTF-8 text of the POST body, already size-checked. */
  body: string;
}

/** What the HTTP layer sends back; it adds Content-Type and the security headers itself. */
export interface McpHttpResponse {
  status: number;
  /** `null` → empty body (202 for notifications); pieces (json-pieces.ts) only when the handler was asked for them. */
  body: JsonText | null;
  /**
   * On a legacy `initialize` answered with success: the revision it negotiated. HTTP clients send it back in the
   * MCP-Protocol-Version header of every later request; a stream transport (stdio) keeps it for them.
   */
  negotiated?: LegacyProtocolVersion;
  /** A failure while answering (behind an internal error -32603, or in analytics): for the caller's log, never the client. */
  unexpected?: unknown;
}

/** Who this server says it is, in `serverInfo` and `_meta["io.modelcontextprotocol/serverInfo"]`. */
export interface McpServerIdentity {
  name: string;
  title: string;
  version: string;
  /** Absolute URL of the 512x512 PNG icon served by this server. */
  iconUrl: string;
}

export type ToolName = 'create_session_link' | 'decode_session_link';
export type ToolCallOutcome = 'success' | 'tool_error' | 'protocol_error';

/** Analytics hook: one event per tools/call of a known tool, never with its input or output. */
export interface McpObserver {
  onToolCall?(event: { tool: ToolName; outcome: ToolCallOutcome; durationMs: number }): void;
}

/**
 * A JSON-RPC request id as the wire allows it: a string or a number (0 and "" included); a number whose value would not
 * write back to the text sent is kept as that text (id-text.ts), so that it is echoed exactly.
 */
export type RequestId = string | number | NumberText;

/**
 * The id slot of a response: a known id is echoed; `undefined` means the id could not be read and is omitted
 * (modern era); `null` means the same for the legacy era, which writes `"id": null`.
 */
export type ResponseId = RequestId | null | undefined;

/** A response plus, for tools/call, how the tool ended (the handler turns it into the observer event). */
export interface Reply extends McpHttpResponse {
  toolOutcome?: 'success' | 'tool_error';
}
