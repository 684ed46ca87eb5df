// Serializes JSON-RPC success responses from pre-serialized result fragments (large results are stringified once).
import type { Reply, RequestId } from './types.js';

export function resultReply(id: RequestId, resultJson: string): Reply {
  return { status: 200, body: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}` };
}
