// The tool registry: create_session_link and decode_session_link, in that order, with their per-revision listing shape.
import {
  createToolInputSchema,
  createToolOutputSchema,
  decodeToolInputSchema,
  decodeToolOutputSchema,
} from '../session/json-schema.js';
import type { JsonSource, SessionOperations } from '../session/operations.js';
import type { JsonObject } from './envelope.js';
import { createResultJson, resultJson, type ResultJson } from './result-json.js';
import type { ToolName } from './types.js';
import type { ProtocolRevision } from './version.js';

export interface ToolDefinition {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  /** The argument names the input schema declares; any other key is a structural (-32602) error. */
  readonly argumentNames: ReadonlySet<string>;
  /** Second text block of a success: how the model should use the result. */
  readonly usage: string;
  /**
   * Runs the operation and returns the JSON of its structured result (what `outputSchema` describes); `large`: a long
   * result may come in pieces (json-pieces.ts); `argsSource`: where `args` is in the request's JSON text.
   */
  run(operations: SessionOperations, args: JsonObject, large: boolean, argsSource?: JsonSource): Promise<ResultJson>;
}

/** Both tools only transform data in memory: nothing is persisted, deleted, or fetched. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

// Short on purpose: every client puts the tool list into the model's context on every turn. The schema carries the
// fields and their rules (nesting, unique and declared IDs: the session's description); these sentences carry what a
// schema cannot say.
const CREATE_DESCRIPTION = [
  'Create an immutable Sessionplan snapshot link from a complete session document.',
  'Return structuredContent.link verbatim, never rebuilt or edited. For changes submit the complete updated session again (no patches).',
  'Use [], "", null and {} for unused values.',
].join(' ');

const DECODE_DESCRIPTION = [
  'Decode a Sessionplan snapshot link (never fetched) into its complete session document; call it before reading or editing a snapshot and use structuredContent.session as the source of truth.',
  'Dynamic server links and pre-v2 codes are not supported.',
].join(' ');

const CREATE_USAGE =
  'Give the user the link field of this result exactly as returned (structuredContent.link). Do not reconstruct, shorten, normalize or edit the snapshot URL. ' +
  'To change the plan, submit the complete updated session to create_session_link again.';

const DECODE_USAGE =
  'Use the session field of this result (structuredContent.session) as the source of truth when reading, summarizing or editing this plan. ' +
  'To change it, submit the complete updated session to create_session_link; patches and partial updates are not supported.';

function argumentNamesOf(schema: Record<string, unknown>): ReadonlySet<string> {
  const properties = schema.properties;
  return new Set(typeof properties === 'object' && properties !== null ? Object.keys(properties) : []);
}

function argument(args: JsonObject, name: string): unknown {
  return Object.hasOwn(args, name) ? args[name] : undefined;
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'create_session_link',
    title: 'Create Sessionplan link',
    description: CREATE_DESCRIPTION,
    inputSchema: createToolInputSchema,
    outputSchema: createToolOutputSchema,
    argumentNames: argumentNamesOf(createToolInputSchema),
    usage: CREATE_USAGE,
    async run(operations, args, _large, argsSource) {
      const source = argsSource === undefined ? undefined : { text: argsSource.text, path: [...argsSource.path, 'session'] };
      const { link, summary } = await operations.createSessionLink(argument(args, 'session'), { source });
      return createResultJson(link, summary);
    },
  },
  {
    name: 'decode_session_link',
    title: 'Decode Sessionplan link',
    description: DECODE_DESCRIPTION,
    inputSchema: decodeToolInputSchema,
    outputSchema: decodeToolOutputSchema,
    argumentNames: argumentNamesOf(decodeToolInputSchema),
    usage: DECODE_USAGE,
    async run(operations, args, large) {
      const { session, warnings } = await operations.decodeSessionLink(argument(args, 'link'));
      return resultJson(warnings === undefined ? { session } : { session, warnings }, large);
    },
  },
];

const BY_NAME = new Map<string, ToolDefinition>(TOOLS.map((tool) => [tool.name, tool]));

export function findTool(name: string): ToolDefinition | undefined {
  return BY_NAME.get(name);
}

export function isToolName(name: unknown): name is ToolName {
  return typeof name === 'string' && BY_NAME.has(name);
}

/**
 * A tool as `tools/list` shows it in one revision: no `title`/`outputSchema` before 2025-06-18. `meta`: the tool's
 * `_meta` (the MCP App's resource), in every revision: hosts of older revisions render apps too.
 */
export function listedTool(tool: ToolDefinition, revision: ProtocolRevision, meta?: Record<string, unknown>): Record<string, unknown> {
  // The schemas name no `$schema` (json-schema.ts), so every revision gets them as they are.
  const listed: Record<string, unknown> = revision === '2025-03-26'
    ? { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: ANNOTATIONS }
    : { name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: ANNOTATIONS };
  if (meta !== undefined) listed._meta = meta;
  return listed;
}
