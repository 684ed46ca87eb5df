// From a tool's input and result (as the host forwards them) to what the view shows: the plan, the link, or the error.
import { MAX_LISTED_PROBLEMS, SessionError } from '../session/errors.js';
import { buildLink, parseLink } from '../session/link.js';
import { tolerantSessionSchema, type TolerantSession } from '../session/schema.js';
import { checkForCreate } from '../session/validate.js';
import { checkShape, isUnchanged } from '../session/walk.js';

export type ToolKind = 'create' | 'decode';

/** A CallToolResult as the spec's `ui/notifications/tool-result` carries it (only what the view reads). */
export interface ToolResult {
  isError?: boolean;
  content?: { type?: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Which of the two tools the view shows: the host context names it (`toolInfo.tool.name`); without it, the arguments
 * or the result tell (a create has `session` and answers `link`, a decode has `link` and answers `session`).
 */
export function toolKindOf(toolName: unknown, args: Record<string, unknown> | undefined, result: ToolResult | undefined): ToolKind | undefined {
  if (toolName === 'create_session_link') return 'create';
  if (toolName === 'decode_session_link') return 'decode';
  if (args !== undefined) {
    if (Object.hasOwn(args, 'session')) return 'create';
    if (Object.hasOwn(args, 'link')) return 'decode';
  }
  const structured = result === undefined ? undefined : structuredOf(result);
  if (structured !== undefined) {
    if (Object.hasOwn(structured, 'session')) return 'decode';
    if (Object.hasOwn(structured, 'link')) return 'create';
  }
  return undefined;
}

/**
 * The structured result: `structuredContent`, or for hosts on a revision without it (2025-03-26) the first text block,
 * which holds the same JSON.
 */
export function structuredOf(result: ToolResult): Record<string, unknown> | undefined {
  if (isObject(result.structuredContent)) return result.structuredContent;
  const text = result.content?.[0]?.text;
  if (typeof text !== 'string' || !text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The tool's error text (it starts with the error code), for the line under the view's own sentence. */
export function errorTextOf(result: ToolResult): string {
  const texts = (result.content ?? []).map((block) => (typeof block.text === 'string' ? block.text : '')).filter((text) => text !== '');
  return texts.join('\n');
}

/**
 * The plan of a create call: the input's `session`, checked and normalized by the same session code as the server
 * (defaults filled, no codec needed; the size of its JSON text is the tool's to check). Throws SessionError when the
 * input is not a valid session (the tool then reports the error itself).
 */
export function planOfCreateInput(args: Record<string, unknown>): TolerantSession {
  return checkForCreate(args.session) as TolerantSession;
}

/**
 * The plan of a decode result: `structuredContent.session`, which the server read through the tolerant schema already.
 * Shown as it is when every field is there with its type (the renderers escape every value and need nothing else);
 * anything else goes through the tolerant schema, which fills what it lacks. Throws SessionError when it is not a
 * session. Not the canonical check: its lengths, ID characters and patterns are rules the server has reported as
 * warnings, and the renderers do not need them.
 */
export function planOfDecodeResult(structured: Record<string, unknown>): { plan: TolerantSession; warnings: string[] } {
  const session = structured.session;
  const warnings = Array.isArray(structured.warnings) ? structured.warnings.filter((line): line is string => typeof line === 'string') : [];
  if (isUnchanged(tolerantSessionSchema, session, 'decode')) return { plan: session, warnings };
  const shape = checkShape(tolerantSessionSchema, session, { mode: 'decode', limit: MAX_LISTED_PROBLEMS, build: true });
  if (!shape.ok) throw new SessionError('SESSION_DECODE_FAILED', shape.problems, shape.more);
  return { plan: shape.data, warnings };
}

const WEB_URL = /^https?:\/\//i;

/** What the "Open in Sessionplan" button opens, and the other site a given link pointed to, when it did. */
export interface LinkToOpen {
  /** The snapshot on this server's PUBLIC_BASE_URL, always (never an origin taken from a tool's input). */
  readonly url: string;
  /** The origin of a given web link that is not PUBLIC_BASE_URL's: named in plain text, never offered as the button. */
  readonly otherOrigin?: string;
}

/**
 * The link the "Open in Sessionplan" button asks the host to open: the snapshot of a create's `structuredContent.link`
 * or of a decode's given link, on PUBLIC_BASE_URL. A chat's trusted UI must not lead to a look-alike site
 * (`sessionplan.de.evil.example`, `sessionplan.de@evil.example`), so the given link's own origin is only named. Undefined
 * when there is nothing to open.
 */
export function linkToOpen(kind: ToolKind, args: Record<string, unknown> | undefined, structured: Record<string, unknown> | undefined, baseUrl: string): LinkToOpen | undefined {
  const given = kind === 'create' ? structured?.link : args?.link;
  if (typeof given !== 'string') return undefined;
  const text = given.trim();
  let payload: string;
  try {
    payload = parseLink(text);
  } catch {
    return undefined;
  }
  const url = buildLink(baseUrl, payload);
  if (!WEB_URL.test(text)) return { url };
  const own = new URL(baseUrl).origin;
  const origin = URL.canParse(text) ? new URL(text).origin : undefined;
  return origin === own ? { url } : { url, otherOrigin: origin ?? text.slice(0, text.search(/[#?]|$/)).slice(0, 100) };
}
