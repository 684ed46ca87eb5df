// Legacy (2025-11-25, 2025-06-18, 2025-03-26) requests: initialize handshake, ping, tools/*, and resources/* (MCP App).
import { isPlainObject, type RequestMessage } from './envelope.js';
import { rpcError, unsupportedVersionData } from './errors.js';
import { HEADER, readHeader } from './headers.js';
import type { DispatchContext } from './context.js';
import { methodList } from './method-list.js';
import { getPrompt, isPromptMethod } from './prompts.js';
import { handleResourceMethod, isResourceMethod } from './resources.js';
import { callTool } from './tool-call.js';
import type { Reply, ResponseId } from './types.js';
import {
  HEADERLESS_LEGACY_VERSION,
  isLegacyVersion,
  negotiateLegacyVersion,
  type LegacyProtocolVersion,
} from './version.js';
import { resultReply } from './wire.js';

const LEGACY_METHODS = ['initialize', 'ping', 'tools/list', 'tools/call'];

/** Stateless: the version header *is* the negotiated version; absent means a client from before the header existed. */
export type LegacyRevision = { ok: true; revision: LegacyProtocolVersion } | { ok: false; reply: Reply };

export function legacyRevision(headers: Readonly<Record<string, string>>, id: ResponseId): LegacyRevision {
  const header = readHeader(headers, HEADER.protocolVersion);
  if (header === undefined) return { ok: true, revision: HEADERLESS_LEGACY_VERSION };
  if (isLegacyVersion(header)) return { ok: true, revision: header };
  return {
    ok: false,
    reply: rpcError('unsupportedProtocolVersion', id, 'the MCP-Protocol-Version header names a version this server does not support', unsupportedVersionData(header)),
  };
}

export async function handleLegacyRequest(
  request: RequestMessage,
  headers: Readonly<Record<string, string>>,
  ctx: DispatchContext,
): Promise<Reply> {
  const { id, method, params } = request;
  const version = legacyRevision(headers, id);
  if (!version.ok) return version.reply;
  if (params !== undefined && !isPlainObject(params)) return rpcError('invalidParams', id, 'params must be an object');
  switch (method) {
    case 'initialize': {
      const requested = isPlainObject(params) ? params.protocolVersion : undefined;
      if (typeof requested !== 'string') return rpcError('invalidParams', id, 'params.protocolVersion must be a string');
      const negotiated = negotiateLegacyVersion(requested);
      const reply = resultReply(id, ctx.results.initialize[negotiated]);
      return { status: reply.status, body: reply.body, negotiated };
    }
    case 'ping':
      return resultReply(id, '{}');
    case 'tools/list':
      return resultReply(id, ctx.results.toolsList[version.revision]);
    case 'tools/call':
      return callTool(id, params, version.revision, ctx, request.text);
    case 'server/discover':
      return rpcError('unknownLegacyMethod', id, 'server/discover is only available in protocol version 2026-07-28');
    default:
      if (ctx.results.resources !== undefined && isResourceMethod(method)) return handleResourceMethod(id, method, params, version.revision, ctx);
      if (ctx.results.prompts !== undefined && isPromptMethod(method)) {
        return method === 'prompts/list' ? resultReply(id, ctx.results.prompts.list[version.revision]) : getPrompt(id, params, version.revision, ctx.modernMeta);
      }
      return rpcError('unknownLegacyMethod', id, `method must be ${methodList(LEGACY_METHODS, ctx.results)}`);
  }
}
