// resources/list and resources/read: the plan view (MCP App) and the templates (prompts), their param rules and not-found errors.
import type { DispatchContext } from './context.js';
import { isPlainObject } from './envelope.js';
import { clipEcho, rpcError } from './errors.js';
import type { Reply, RequestId } from './types.js';
import { MODERN_PROTOCOL_VERSION, type ProtocolRevision } from './version.js';
import { resultReply } from './wire.js';

/** The resource methods, for the "method must be …" sentences; only served while `ctx.results.resources` exists. */
export const RESOURCE_METHODS = ['resources/list', 'resources/read'] as const;

export function isResourceMethod(method: string): boolean {
  return method === 'resources/list' || method === 'resources/read';
}

/**
 * A resource method of a server that has resources. `params` is an object or absent (the eras check that first). An
 * unknown URI is -32602 in 2026-07-28 and -32002 before it, with the URI (clipped) in `error.data` as both ask.
 */
export function handleResourceMethod(id: RequestId, method: string, params: unknown, revision: ProtocolRevision, ctx: DispatchContext): Reply {
  const results = ctx.results.resources!;
  if (method === 'resources/list') return resultReply(id, results.list[revision]);
  const uri = isPlainObject(params) ? params.uri : undefined;
  if (typeof uri !== 'string') return rpcError('invalidParams', id, 'params.uri must be a string');
  const read = results.read.get(uri);
  if (read !== undefined) return resultReply(id, read[revision]);
  const data = { uri: clipEcho(uri) };
  const detail = `params.uri names no resource of this server; its resources are ${[...results.read.keys()].join(' and ')}`;
  return revision === MODERN_PROTOCOL_VERSION ? rpcError('invalidParams', id, detail, data) : rpcError('resourceNotFound', id, detail, data);
}
