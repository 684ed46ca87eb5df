// Package root for Node: create/decode snapshot links with the WASM codec, the error classes, schemas and types.
import { loadCodec } from './codec/node.js';
import { createSessionOperations, type SessionOperations } from './session/operations.js';

const operations: SessionOperations = createSessionOperations(loadCodec);

/** Validates a complete session document and returns its snapshot link and summary; throws SessionError. */
export const createSessionLink: SessionOperations['createSessionLink'] = (session, options) => operations.createSessionLink(session, options);

/** Reads a snapshot URL, `#data=v2:` hash or `v2:` code back into the session document; throws SessionError. */
export const decodeSessionLink: SessionOperations['decodeSessionLink'] = (link) => operations.decodeSessionLink(link);

export { createSessionOperations } from './session/operations.js';
export type { CreateSessionLinkResult, DecodeSessionLinkResult, SessionOperations } from './session/operations.js';
export { SessionError, SESSION_ERROR_CODES } from './session/errors.js';
export type { Problem, SessionErrorCode } from './session/errors.js';
export { CodecError, CODEC_BUDGETS } from './codec/errors.js';
export type { CodecErrorCode } from './codec/errors.js';
export type { Codec } from './codec/types.js';
export { loadCodec } from './codec/node.js';
export {
  sessionJsonSchema,
  createToolInputSchema,
  createToolOutputSchema,
  decodeToolInputSchema,
  decodeToolOutputSchema,
} from './session/json-schema.js';
export { sessionSchema, tolerantSessionSchema } from './session/schema.js';
export type { Session, SessionInput, TolerantSession, Block, Group, Breakout, Item, TolerantItem } from './session/schema.js';
export type { SessionSummary } from './session/summary.js';
export { buildLink, parseLink, DEFAULT_BASE_URL } from './session/link.js';
export { MAX_ITEMS } from './session/constants.js';
export { MAX_JSON_BYTES } from './session/json-size.js';
