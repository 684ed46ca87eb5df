// What every request handler needs: the operations, and the results serialized once per server identity.
import type { StaticResults } from './results.js';
import type { ToolCallContext } from './tool-call.js';

export interface DispatchContext extends ToolCallContext {
  readonly results: StaticResults;
  /**
   * Whether the modern era's HTTP header checks apply (MCP-Protocol-Version, Mcp-Method, Mcp-Name mirror the body):
   * true on HTTP; false on a stream (stdio), which has no headers. Everything else is checked alike.
   */
  readonly headerChecks: boolean;
}
