// Serializes JSON-RPC success responses from pre-serialized result fragments (large results are stringified once).
import { concatText, type JsonText } from '../session/json-pieces.js';
import type { Reply, RequestId } from './types.js';

export function resultReply(id: RequestId, resultJson: JsonText): Reply {
  return { status: 200, body: concatText([`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, resultJson, '}']) };
}
