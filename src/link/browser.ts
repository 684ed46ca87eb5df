// Browser entry `sessionplan-mcp/link`: create and decode snapshot links in the page with the WASM codec (nothing leaves the page).
import { loadCodec } from '../codec/browser.js';
import { createSessionOperations, type SessionOperations } from '../session/operations.js';

export { SessionError, SESSION_ERROR_CODES } from '../session/errors.js';
export type { Problem, SessionErrorCode } from '../session/errors.js';
export { parseLink, buildLink, DEFAULT_BASE_URL } from '../session/link.js';
export type { CreateSessionLinkResult, DecodeSessionLinkResult, SessionOperations } from '../session/operations.js';
export type { Session, SessionInput, TolerantSession } from '../session/schema.js';
export type { SessionSummary } from '../session/summary.js';

export interface SessionLinkOptions {
  /**
   * Where codec.wasm is served (it must come with `Content-Type: application/wasm` and a CSP allowing
   * 'wasm-unsafe-eval'). Default: next to the codec module, which bundlers that understand
   * `new URL('./codec.wasm', import.meta.url)` (Vite, webpack 5, Rollup plugins) copy for you.
   */
  wasmUrl?: URL | string;
  /** Base URL of created links; default https://sessionplan.de/. */
  baseUrl?: string;
}

/** create/decode bound to one codec location and base URL; the codec is fetched on first use and kept. */
export function createSessionLinks(options: SessionLinkOptions = {}): SessionOperations {
  const { wasmUrl, baseUrl } = options;
  return createSessionOperations(() => (wasmUrl === undefined ? loadCodec() : loadCodec(wasmUrl)), baseUrl === undefined ? {} : { baseUrl });
}

const defaults = createSessionLinks();

/** Validates a complete session document and returns its snapshot link and summary; throws SessionError. */
export const createSessionLink: SessionOperations['createSessionLink'] = (session, options) => defaults.createSessionLink(session, options);

/** Reads a snapshot URL, `#data=v2:` hash or `v2:` code back into the session document; throws SessionError. */
export const decodeSessionLink: SessionOperations['decodeSessionLink'] = (link) => defaults.decodeSessionLink(link);
