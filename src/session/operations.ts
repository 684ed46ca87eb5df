// create/decode as plain functions over an injected codec: isomorphic (no node:*), shared by Node, MCP, REST and the browser.
import { CodecError } from '../codec/errors.js';
import type { Codec } from '../codec/types.js';
import { SessionError } from './errors.js';
import { describeType } from './issues.js';
import { MAX_DECODED_LIST_ENTRIES } from './limits.js';
import { buildLink, DEFAULT_BASE_URL, parseLink } from './link.js';
import type { TolerantSession } from './schema.js';
import { summarize, type SessionSummary } from './summary.js';
import { readDecodedSession, validateForCreate } from './validate.js';

export interface CreateSessionLinkResult {
  link: string;
  summary: SessionSummary;
}

export interface DecodeSessionLinkResult {
  session: TolerantSession;
  /** Present only when the document breaks canonical rules that decoding tolerates. */
  warnings?: string[];
}

export interface SessionOperations {
  createSessionLink(session: unknown, options?: { baseUrl?: string }): Promise<CreateSessionLinkResult>;
  decodeSessionLink(link: unknown): Promise<DecodeSessionLinkResult>;
}

function sentence(error: CodecError): string {
  return error.message.replace(/\.\s*$/, '');
}

/** The codec's sentence, ending with what to do about it unless the codec already said so. */
function sizeSentence(error: CodecError): string {
  const text = sentence(error);
  return /smaller/i.test(text) ? text : `${text}; the plan must be made smaller`;
}

export interface OperationsOptions {
  /** Base URL of the links create makes; default https://sessionplan.de/. */
  baseUrl?: string;
  /** Serialize long documents in pieces (json-pieces.ts): for the offload threads, which get the large requests. */
  largeTexts?: boolean;
}

/** The operations over a codec loader (called once per operation; it should cache). */
export function createSessionOperations(getCodec: () => Promise<Codec>, defaults?: OperationsOptions): SessionOperations {
  const defaultBaseUrl = defaults?.baseUrl ?? DEFAULT_BASE_URL;
  const validateOptions = { large: defaults?.largeTexts === true };
  return {
    async createSessionLink(session, options) {
      const { session: normalized, json } = validateForCreate(session, validateOptions);
      const codec = await getCodec();
      let payload: string;
      try {
        payload = codec.compress(json);
      } catch (error) {
        if (!(error instanceof CodecError)) throw error;
        throw new SessionError('SESSION_VALIDATION_FAILED', [
          { path: 'session', message: `is too large to encode: ${sizeSentence(error)}` },
        ]);
      }
      return { link: buildLink(options?.baseUrl ?? defaultBaseUrl, payload), summary: summarize(normalized) };
    },

    async decodeSessionLink(link) {
      if (typeof link !== 'string')
        throw new SessionError('SESSION_DECODE_FAILED', [
          { path: 'link', message: `must be a string (a snapshot URL, #data=v2:... hash or v2:... code), not ${describeType(link)}` },
        ]);
      const payload = parseLink(link);
      const codec = await getCodec();
      let text: string;
      try {
        text = codec.decompress(payload, DECODE_OPTIONS);
      } catch (error) {
        if (!(error instanceof CodecError)) throw error;
        throw new SessionError('SESSION_DECODE_FAILED', [{ path: 'link', message: decodeFailureSentence(error) }]);
      }
      const { session, warnings } = readDecodedSession(text);
      return warnings.length > 0 ? { session, warnings: [...warnings] } : { session };
    },
  };
}

/** Links hold JSON documents: a list longer than any document has is refused before the text is made. */
const DECODE_OPTIONS = { maxJsonListEntries: MAX_DECODED_LIST_ENTRIES } as const;

function decodeFailureSentence(error: CodecError): string {
  if (error.code === 'JSON_LIST_LIMIT') {
    return `the snapshot data holds a list of more than ${MAX_DECODED_LIST_ENTRIES.toLocaleString('en-US')} entries, which no session document does (its lists hold at most 1,000)`;
  }
  if (error.code === 'INVALID_PAYLOAD' || error.code === 'TRAP')
    return `the snapshot data does not decompress (${sentence(error)}); check that the complete unmodified snapshot link was supplied`;
  return `the snapshot is too large to decode: ${sentence(error)}; a size-limit failure requires a smaller source plan`;
}
