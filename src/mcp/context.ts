// What every request handler needs: the operations, and the results serialized once per server identity.
import type { StaticResults } from './results.js';
import type { ToolCallContext } from './tool-call.js';

export interface DispatchContext extends ToolCallContext {
  readonly results: StaticResults;
}
