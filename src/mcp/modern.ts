// Modern (2026-07-28) requests: the check order of docs/http-api.md, then server/discover, tools/*, and resources/* (MCP App).
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from './classify.js';
import { isPlainObject, type RequestMessage } from './envelope.js';
import { rpcError, unsupportedVersionData } from './errors.js';
import { decodeMcpName, HEADER, readHeader } from './headers.js';
import type { DispatchContext } from './context.js';
import { methodList } from './method-list.js';
import { getPrompt, isPromptMethod } from './prompts.js';
import { handleResourceMethod, isResourceMethod } from './resources.js';
import { callTool } from './tool-call.js';
import type { Reply, RequestId } from './types.js';
import { MODERN_PROTOCOL_VERSION } from './version.js';
import { resultReply } from './wire.js';

const META_VERSION_PATH = `params._meta["${META_PROTOCOL_VERSION}"]`;
const MODERN_METHODS = ['server/discover', 'tools/list', 'tools/call'];
const META_CAPABILITIES_PATH = `params._meta["${META_CLIENT_CAPABILITIES}"]`;

/**
 * Checks in this order, each failing alone with its own answer: `_meta` envelope (200 -32602) → version header equal
 * to `_meta` (400 -32020) → version supported (400 -32022) → Mcp-Method equal (400 -32020) → on tools/call,
 * prompts/get and resources/read Mcp-Name equal after decoding (400 -32020) → method known (404 -32601). On a stream (stdio) there are no headers, and the
 * header checks are left out (`ctx.headerChecks`).
 */
export async function handleModernRequest(
  request: RequestMessage,
  headers: Readonly<Record<string, string>>,
  ctx: DispatchContext,
): Promise<Reply> {
  const { id, method, params } = request;
  const meta = isPlainObject(params) ? params._meta : undefined;
  if (!isPlainObject(meta)) return rpcError('invalidParams', id, 'params._meta is required by protocol version 2026-07-28');
  const claimed = meta[META_PROTOCOL_VERSION];
  if (typeof claimed !== 'string') return rpcError('invalidParams', id, `${META_VERSION_PATH} must be a string`);
  if (!isPlainObject(meta[META_CLIENT_CAPABILITIES])) return rpcError('invalidParams', id, `${META_CAPABILITIES_PATH} must be an object`);

  if (ctx.headerChecks) {
    const versionHeader = readHeader(headers, HEADER.protocolVersion);
    if (versionHeader === undefined) return rpcError('headerMismatch', id, 'the MCP-Protocol-Version header is required');
    if (versionHeader !== claimed) {
      return rpcError('headerMismatch', id, `the MCP-Protocol-Version header must equal ${META_VERSION_PATH}`);
    }
  }
  if (claimed !== MODERN_PROTOCOL_VERSION) {
    return rpcError('unsupportedProtocolVersion', id, `${META_VERSION_PATH} must be ${MODERN_PROTOCOL_VERSION}`, unsupportedVersionData(claimed));
  }
  if (ctx.headerChecks) {
    const mismatch = methodHeadersMismatch(id, method, params, headers);
    if (mismatch !== undefined) return mismatch;
  }

  switch (method) {
    case 'server/discover':
      return resultReply(id, ctx.results.discover);
    case 'tools/list':
      return resultReply(id, ctx.results.toolsList[MODERN_PROTOCOL_VERSION]);
    case 'tools/call':
      return callTool(id, params, MODERN_PROTOCOL_VERSION, ctx, request.text);
    default:
      if (ctx.results.resources !== undefined && isResourceMethod(method)) return handleResourceMethod(id, method, params, MODERN_PROTOCOL_VERSION, ctx);
      if (ctx.results.prompts !== undefined && isPromptMethod(method)) {
        return method === 'prompts/list' ? resultReply(id, ctx.results.prompts.list[MODERN_PROTOCOL_VERSION]) : getPrompt(id, params, MODERN_PROTOCOL_VERSION, ctx.modernMeta);
      }
      return rpcError('unknownModernMethod', id, `method must be ${methodList(MODERN_METHODS, ctx.results)} in protocol version 2026-07-28`);
  }
}

/**
 * Mcp-Method must equal `method`; Mcp-Name must equal params.name on tools/call and prompts/get and params.uri on resources/read, after
 * decoding (400 -32020). When the body has no string to mirror, the method's param rules name the field instead
 * (-32602). The resource rule holds whether or not the server has resources: a request whose headers misstate what it
 * reads is refused before anyone looks for the method.
 */
function methodHeadersMismatch(id: RequestId, method: string, params: unknown, headers: Readonly<Record<string, string>>): Reply | undefined {
  const methodHeader = readHeader(headers, HEADER.method);
  if (methodHeader === undefined) return rpcError('headerMismatch', id, 'the Mcp-Method header is required');
  if (methodHeader !== method) return rpcError('headerMismatch', id, 'the Mcp-Method header must equal method');
  const mirrored = method === 'tools/call' || method === 'prompts/get' ? 'name' : method === 'resources/read' ? 'uri' : undefined;
  if (mirrored !== undefined && isPlainObject(params) && typeof params[mirrored] === 'string') {
    const nameHeader = readHeader(headers, HEADER.name);
    if (nameHeader === undefined) return rpcError('headerMismatch', id, `the Mcp-Name header is required on ${method}`);
    if (decodeMcpName(nameHeader) !== params[mirrored]) return rpcError('headerMismatch', id, `the Mcp-Name header must equal params.${mirrored}`);
  }
  return undefined;
}
