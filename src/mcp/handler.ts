// Entry point of the MCP protocol layer: one message's JSON text in (a POST body or a stdio line), status and JSON-RPC body out.
import { DecodeDeclined } from '../session/errors.js';
import type { AppViewDocument } from './app-view.js';
import type { SessionOperations } from '../session/operations.js';
import { classifyMessage, eraOfHeader, unknownIdFor, type Era } from './classify.js';
import type { DispatchContext } from './context.js';
import { isEnvelopeProblem, isPlainObject, readEnvelope } from './envelope.js';
import { rpcError } from './errors.js';
import { HEADER, readHeader } from './headers.js';
import { handleLegacyRequest, legacyRevision } from './legacy.js';
import { handleModernRequest } from './modern.js';
import { buildStaticResults } from './results.js';
import { isToolName } from './tools.js';
import type { McpHttpRequest, McpHttpResponse, McpObserver, McpServerIdentity, Reply, ToolCallOutcome, ToolName } from './types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from './version.js';

export type { McpHttpRequest, McpHttpResponse, McpObserver, McpServerIdentity } from './types.js';

export interface McpHandlerDeps {
  operations: SessionOperations;
  identity: McpServerIdentity;
  observer?: McpObserver;
  /** Answer long results in pieces (json-pieces.ts): where large requests are answered (offload threads). */
  largeResults?: boolean;
  /**
   * Where the messages come from: `http` (default), or `stream` for a transport without headers (stdio), where the
   * modern era's header checks do not apply. Everything else (eras, envelope, limits, tools, errors) is the same.
   */
  transport?: 'http' | 'stream';
  /**
   * The MCP App's document (MCP_APPS on): `resources` capability, resources/list and resources/read, `_meta.ui` on both
   * tools. Without it the server has the plain surface (tools only, docs/http-api.md).
   */
  appView?: AppViewDocument;
  /** The prompts and the templates resource (MCP_PROMPTS on); without them the server has no prompts capability. */
  prompts?: boolean;
}

const ACCEPTED_NOTIFICATION: McpHttpResponse = { status: 202, body: null };

export function createMcpHandler(deps: McpHandlerDeps): (req: McpHttpRequest) => Promise<McpHttpResponse> {
  const results = buildStaticResults(deps.identity, { appView: deps.appView, prompts: deps.prompts });
  const ctx: DispatchContext = {
    operations: deps.operations,
    modernMeta: results.modernMeta,
    results,
    largeResults: deps.largeResults === true,
    headerChecks: deps.transport !== 'stream',
  };
  const report = toolCallReporter(deps.observer);

  return async function handleMcpPost(req: McpHttpRequest): Promise<McpHttpResponse> {
    const versionHeader = readHeader(req.headers, HEADER.protocolVersion);
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.body);
    } catch {
      return plain(rpcError('malformedJson', unknownIdFor(eraOfHeader(versionHeader)), 'the request body is not valid JSON'));
    }
    if (Array.isArray(parsed)) {
      return plain(rpcError('invalidRequest', unknownIdFor(eraOfHeader(versionHeader)), 'batches are not supported; send each message in its own POST'));
    }
    if (!isPlainObject(parsed)) {
      return plain(rpcError('invalidRequest', unknownIdFor(eraOfHeader(versionHeader)), 'the request body must be a JSON-RPC message object'));
    }
    const era = classifyMessage(parsed, versionHeader);
    const envelope = readEnvelope(parsed, req.body);
    if (isEnvelopeProblem(envelope)) return plain(rpcError('invalidRequest', envelope.id ?? unknownIdFor(era), envelope.detail));
    const { id } = envelope;
    if (id === undefined) return acceptNotification(era, req.headers);

    const tool = envelope.method === 'tools/call' ? toolNameOf(envelope.params) : undefined;
    const started = tool === undefined ? 0 : performance.now();
    let reply: Reply;
    let unexpected: unknown;
    try {
      // Keys written out, no spread (docs/architecture.md, "The request path").
      const request = { id, method: envelope.method, params: envelope.params, text: req.body };
      reply = era === 'modern' ? await handleModernRequest(request, req.headers, ctx) : await handleLegacyRequest(request, req.headers, ctx);
    } catch (error) {
      // The caller answers a declined decode elsewhere and reports it there.
      if (error instanceof DecodeDeclined) throw error;
      // Operations or serialization failed in a way no rule covers: a generic message, never the error itself; the
      // error goes to the caller, which logs it with the request's context.
      reply = rpcError('internalError', id);
      unexpected = error ?? new Error('a failure without an error value');
    }
    if (tool !== undefined) unexpected ??= report(tool, reply.toolOutcome ?? 'protocol_error', performance.now() - started);
    const response = plain(reply);
    if (unexpected !== undefined) response.unexpected = unexpected;
    return response;
  };
}

/**
 * The answer to a message refused before it was parsed (not UTF-8, or too costly to parse): its id is unknown, so a
 * modern one (by its MCP-Protocol-Version header) omits it and a legacy one says null.
 */
export function refuseUnparsed(headers: Readonly<Record<string, string>>, situation: 'malformedJson' | 'invalidRequest', detail: string): McpHttpResponse {
  return plain(rpcError(situation, unknownIdFor(eraOfHeader(readHeader(headers, HEADER.protocolVersion))), detail));
}

/** The MCP part of the health JSON for `GET /mcp`; `status` is the server's (server/health.ts). */
export function mcpHealth<S extends string = 'ok'>(identity: McpServerIdentity, status: S = 'ok' as S): { status: S; name: string; version: string; protocolVersions: string[] } {
  return { status, name: identity.name, version: identity.version, protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] };
}

/** Notifications get 202 with no body in both eras; a legacy one still has to name a version we speak. */
function acceptNotification(era: Era, headers: Readonly<Record<string, string>>): McpHttpResponse {
  if (era === 'legacy') {
    const version = legacyRevision(headers, null);
    if (!version.ok) return plain(version.reply);
  }
  return ACCEPTED_NOTIFICATION;
}

function toolNameOf(params: unknown): ToolName | undefined {
  if (!isPlainObject(params)) return undefined;
  const name = params.name;
  return isToolName(name) ? name : undefined;
}

/** Reports a tool call to the observer; returns what the observer threw, for the log (analytics never change an answer). */
function toolCallReporter(observer: McpObserver | undefined): (tool: ToolName, outcome: ToolCallOutcome, durationMs: number) => unknown {
  const onToolCall = observer?.onToolCall?.bind(observer);
  if (onToolCall === undefined) return () => undefined;
  return (tool, outcome, durationMs) => {
    try {
      onToolCall({ tool, outcome, durationMs });
      return undefined;
    } catch (error) {
      return error ?? new Error('a failure without an error value');
    }
  };
}

function plain(reply: Reply): McpHttpResponse {
  if (reply.negotiated !== undefined) return { status: reply.status, body: reply.body, negotiated: reply.negotiated };
  return { status: reply.status, body: reply.body };
}
