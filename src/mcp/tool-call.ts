// tools/call: structural param rules (-32602 / unknown tool -32601), the operation, and the result per revision.
import { SessionError } from '../session/errors.js';
import { concatText, type JsonText } from '../session/json-pieces.js';
import type { SessionOperations } from '../session/operations.js';
import { isPlainObject } from './envelope.js';
import { clipEcho, rpcError } from './errors.js';
import type { ResultJson } from './result-json.js';
import { findTool, TOOLS } from './tools.js';
import type { Reply, RequestId } from './types.js';
import { MODERN_PROTOCOL_VERSION, type ProtocolRevision } from './version.js';
import { resultReply } from './wire.js';

export interface ToolCallContext {
  readonly operations: SessionOperations;
  /** JSON of the modern `_meta` (server identity). */
  readonly modernMeta: string;
  /** Long results may be answered in pieces (json-pieces.ts): set where large requests are answered. */
  readonly largeResults: boolean;
}

const TOOL_NAMES = TOOLS.map((tool) => tool.name).join(', ');
/** Each tool's usage sentence as a JSON string literal (it never changes). */
const USAGE_JSON = new Map(TOOLS.map((tool) => [tool, JSON.stringify(tool.usage)]));

/** Where a message's tool arguments are in its text (the tool adds its argument's key). */
const ARGUMENTS_PATH = ['params', 'arguments'];

/**
 * Only a structurally broken call is a protocol error; a missing or wrongly typed `session`/`link` goes to the
 * operation and comes back as a tool error the model can correct (docs/http-api.md, "Errors"). `text` is the JSON
 * text the message was parsed from.
 */
export async function callTool(id: RequestId, params: unknown, revision: ProtocolRevision, ctx: ToolCallContext, text: string): Promise<Reply> {
  if (!isPlainObject(params)) return rpcError('invalidParams', id, 'params must be an object');
  const name = params.name;
  if (typeof name !== 'string') return rpcError('invalidParams', id, 'params.name must be a string');
  const args = Object.hasOwn(params, 'arguments') ? params.arguments : undefined;
  if (args !== undefined && !isPlainObject(args)) return rpcError('invalidParams', id, 'params.arguments must be an object');
  const tool = findTool(name);
  if (tool === undefined) return rpcError('unknownTool', id, `params.name must be one of ${TOOL_NAMES}`);
  if (args !== undefined) {
    for (const key of Object.keys(args)) {
      if (!tool.argumentNames.has(key)) {
        return rpcError('invalidParams', id, `params.arguments.${clipEcho(key)} is not an argument of ${tool.name}`);
      }
    }
  }
  let result: ResultJson;
  try {
    result = await tool.run(ctx.operations, args ?? {}, ctx.largeResults, args === undefined ? undefined : { text, path: ARGUMENTS_PATH });
  } catch (error) {
    if (error instanceof SessionError) {
      return resultReply(id, toolErrorResult(messageOf(error), revision, ctx.modernMeta), 'tool_error');
    }
    throw error;
  }
  return resultReply(id, toolSuccessResult(result, USAGE_JSON.get(tool) ?? JSON.stringify(tool.usage), revision, ctx.modernMeta), 'success');
}

/** The tool error text starts with the code; the session layer guarantees it, this keeps the contract if it ever did not. */
function messageOf(error: SessionError): string {
  return error.message.startsWith(error.code) ? error.message : `${error.code}: ${error.message}`;
}

/**
 * Success: the structured result, its JSON as the first text block (for clients without structured results), how to
 * use it as the second. 2025-03-26 has no `structuredContent`; the modern revision adds `resultType` and `_meta`.
 * The structured JSON is serialized once (result-json.ts) and reused in both places; `usageJson` is the usage
 * sentence as a JSON string literal.
 */
export function toolSuccessResult(result: ResultJson, usageJson: string, revision: ProtocolRevision, modernMeta: string): JsonText {
  // One string when both parts are strings, else pieces (a large result keeps its pieces: json-pieces.ts).
  const { text, structured } = result;
  const content = ['[{"type":"text","text":', text, `},{"type":"text","text":${usageJson}}]`];
  if (revision === MODERN_PROTOCOL_VERSION) {
    return concatText(['{"resultType":"complete","content":', ...content, ',"structuredContent":', structured, `,"_meta":${modernMeta}}`]);
  }
  if (revision === '2025-03-26') return concatText(['{"content":', ...content, '}']);
  return concatText(['{"content":', ...content, ',"structuredContent":', structured, '}']);
}

/** Tool error: one text block, `isError: true`, never `structuredContent`. */
export function toolErrorResult(message: string, revision: ProtocolRevision, modernMeta: string): string {
  const content = `[{"type":"text","text":${JSON.stringify(message)}}]`;
  if (revision === MODERN_PROTOCOL_VERSION) {
    return `{"resultType":"complete","content":${content},"isError":true,"_meta":${modernMeta}}`;
  }
  return `{"content":${content},"isError":true}`;
}
