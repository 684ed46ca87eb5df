// The POST endpoints (MCP and REST) over one set of session operations, built alike by the server and its offload threads.
import { readFileSync } from 'node:fs';
import { loadCodec } from '../codec/node.js';
import { textIfUtf8 } from '../http/body.js';
import { costlyBodyProblem } from '../http/body-guard.js';
import type { AnalyticsEvent, McpEndpoint } from '../http/ports.js';
import { createRestHandlers } from './rest.js';
import type { RestHandlers } from '../http/routes.js';
import { createMcpHandler, refuseUnparsed } from '../mcp/handler.js';
import type { McpServerIdentity } from '../mcp/handler.js';
import type { AppViewDocument } from '../mcp/app-view.js';
import { createSessionOperations, type OperationsOptions } from '../session/operations.js';

export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface Endpoints {
  readonly mcp: McpEndpoint;
  readonly rest: RestHandlers;
}

export interface EndpointHooks {
  /** One analytics event per create/decode (MCP tool call or REST call). */
  recordEvent(event: AnalyticsEvent): void;
}

export function serverIdentity(publicBaseUrl: string): McpServerIdentity {
  return { name: 'sessionplan-mcp', title: 'Sessionplan snapshot links', version: PACKAGE_VERSION, iconUrl: new URL('icon.png', publicBaseUrl).href };
}

export interface EndpointOptions {
  /**
   * The endpoints answer large requests (an offload thread's): long documents and results are serialized in pieces
   * (session/json-pieces.ts) instead of as one multi-MB string.
   */
  readonly largeTexts?: boolean;
  /** The MCP App's document (MCP_APPS on); without it the MCP endpoint has the plain surface of docs/http-api.md (tools only). */
  readonly appView?: AppViewDocument | undefined;
  /** The MCP prompts and the templates resource (MCP_PROMPTS on). */
  readonly prompts?: boolean | undefined;
  /** Decodes these endpoints decline, to be answered elsewhere (OperationsOptions.weighDecode). */
  readonly weighDecode?: OperationsOptions['weighDecode'];
}

export function createEndpoints(publicBaseUrl: string, hooks: EndpointHooks, options: EndpointOptions = {}): Endpoints {
  const largeTexts = options.largeTexts === true;
  const operations = createSessionOperations(loadCodec, { baseUrl: publicBaseUrl, largeTexts, weighDecode: options.weighDecode });
  const handleMcpPost = createMcpHandler({
    operations,
    identity: serverIdentity(publicBaseUrl),
    observer: { onToolCall: ({ tool, outcome, durationMs }) => hooks.recordEvent({ endpoint: 'mcp', operation: tool === 'create_session_link' ? 'create' : 'decode', outcome, durationMs }) },
    largeResults: largeTexts,
    appView: options.appView,
    prompts: options.prompts,
  });
  return {
    mcp: (request) => {
      const text = textIfUtf8(request.body);
      // Not UTF-8: a parse error, as for any body that is not JSON text (RFC 8259 §8.1).
      if (text === undefined) return Promise.resolve(refuseUnparsed(request.headers, 'malformedJson', 'the request body is not valid UTF-8'));
      const costly = costlyBodyProblem(text);
      if (costly !== undefined) return Promise.resolve(refuseUnparsed(request.headers, 'invalidRequest', costly));
      return handleMcpPost({ headers: request.headers, body: text });
    },
    rest: createRestHandlers(operations, { recordEvent: (event) => hooks.recordEvent(event) }, largeTexts),
  };
}
