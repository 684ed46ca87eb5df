// Serializes JSON-RPC success responses from pre-serialized result fragments (large results are stringified once).
import { concatText, type JsonText } from '../session/json-pieces.js';
import { idJson } from './id-text.js';
import type { Reply, RequestId } from './types.js';

/** A success reply; a tool call's also carries its outcome for the metrics. */
export function resultReply(id: RequestId, resultJson: JsonText, toolOutcome?: Reply['toolOutcome']): Reply {
  return { status: 200, body: concatText([`{"jsonrpc":"2.0","id":${idJson(id)},"result":`, resultJson, '}']), toolOutcome };
}
