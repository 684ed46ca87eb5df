// Node entry of `sessionplan-mcp/link`: the same API as the browser entry, with the codec read from disk.
import { loadCodec } from '../codec/node.js';
import { createSessionOperations, type SessionOperations } from '../session/operations.js';
import type { SessionLinkOptions } from './browser.js';

export { SessionError, SESSION_ERROR_CODES } from '../session/errors.js';
export type { Problem, SessionErrorCode } from '../session/errors.js';
export { parseLink, buildLink, DEFAULT_BASE_URL } from '../session/link.js';
export type { CreateSessionLinkResult, DecodeSessionLinkResult, SessionOperations } from '../session/operations.js';
export type { Session, SessionInput, TolerantSession } from '../session/schema.js';
export type { SessionSummary } from '../session/summary.js';
export type { SessionLinkOptions } from './browser.js';

/** create/decode with a base URL; `wasmUrl` is a browser option (Node always uses the codec.wasm shipped in the package). */
export function createSessionLinks(options: SessionLinkOptions = {}): SessionOperations {
  return createSessionOperations(loadCodec, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
}

const defaults = createSessionLinks();

/** Validates a complete session document and returns its snapshot link and summary; throws SessionError. */
export const createSessionLink: SessionOperations['createSessionLink'] = (session, options) => defaults.createSessionLink(session, options);

/** Reads a snapshot URL, `#data=v2:` hash or `v2:` code back into the session document; throws SessionError. */
export const decodeSessionLink: SessionOperations['decodeSessionLink'] = (link) => defaults.decodeSessionLink(link);
