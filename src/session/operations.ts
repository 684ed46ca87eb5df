// create/decode as plain functions over an injected codec: isomorphic (no node:*), shared by Node, MCP, REST and the browser.
import { CodecError } from '../codec/errors.js';
import type { Codec, DecompressOptions, JsonShape } from '../codec/types.js';
import { DecodeDeclined, SessionError } from './errors.js';
import { describeType } from './issues.js';
import { decodedSizeProblem, measuredSizeProblem, type WrittenMeasure } from './json-size.js';
import {
  looseNumbersInDecodeProblem,
  MAX_DECODED_CONTAINERS,
  MAX_DECODED_LIST_ENTRIES,
  MAX_DECODED_LOOSE_NUMBERS,
  MAX_DECODED_VALUES,
  MAX_UNPAIRED_SURROGATES,
  unpairedSurrogatesInDecodeProblem,
  unpairedSurrogatesProblem,
} from './limits.js';
import { buildLink, DEFAULT_BASE_URL, parseLink } from './link.js';
import type { JsonText } from './json-pieces.js';
import type { Session, TolerantSession } from './schema.js';
import { summarize, type SessionSummary } from './summary.js';
import { readDecodedSession, validateForCreate, type ValidateOptions } from './validate.js';

export interface CreateSessionLinkResult {
  link: string;
  summary: SessionSummary;
}

export interface DecodeSessionLinkResult {
  session: TolerantSession;
  /** Present only when the document breaks canonical rules that decoding tolerates. */
  warnings?: string[];
}

/** The JSON text a value was parsed from and the object keys that lead to it there. */
export interface JsonSource {
  readonly text: string;
  readonly path: readonly string[];
}

export interface CreateOptions {
  /** Base URL of the link; default: the operations' one. */
  readonly baseUrl?: string | undefined;
  /**
   * Where the session is in the request's JSON text: when it is written there exactly as its serialization (checked by
   * the codec), that text is compressed instead of serializing the parsed document again.
   */
  readonly source?: JsonSource | undefined;
}

export interface SessionOperations {
  createSessionLink(session: unknown, options?: CreateOptions): Promise<CreateSessionLinkResult>;
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
  /**
   * What decoding a text costs here, asked by decode before the text is made: on its length alone (`shape`
   * undefined), then on its measure. A figure above 0 declines it: decode throws DecodeDeclined with that figure, having
   * decompressed the link once and made nothing. Unset: every decode runs here.
   */
  weighDecode?: (units: number, shape: JsonShape | undefined) => number;
}

/** A document create accepts: its normalized form, its JSON text (what the link encodes) and the payload after `v2:`. */
export interface EncodedSession {
  readonly session: Session;
  readonly json: JsonText;
  readonly payload: string;
}

/**
 * create's work over a loaded codec, synchronously: strict validation (shape, rules, limits), normalization and
 * compression; throws SessionError. The server's create and the planner page (src/planner/) both run this, so the
 * page makes the very link the server would.
 */
export function encodeSession(codec: Codec, session: unknown, options: ValidateOptions): EncodedSession {
  const { session: normalized, json } = validateForCreate(session, options);
  // What decode refuses, create does not make.
  const surrogates = unpairedSurrogatesProblem(json);
  if (surrogates !== null) throw new SessionError('SESSION_VALIDATION_FAILED', [surrogates]);
  let payload: string;
  try {
    payload = codec.compress(json);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    throw new SessionError('SESSION_VALIDATION_FAILED', [{ path: 'session', message: `is too large to encode: ${sizeSentence(error)}`, rule: { kind: 'planTooLarge' } }]);
  }
  // Keys written out, no spread (docs/architecture.md, "The request path").
  return { session: normalized, json, payload };
}

/** The operations over a codec loader (called once per operation; it should cache). */
export function createSessionOperations(getCodec: () => Promise<Codec>, defaults?: OperationsOptions): SessionOperations {
  const defaultBaseUrl = defaults?.baseUrl ?? DEFAULT_BASE_URL;
  const large = defaults?.largeTexts === true;
  const validateOptions: ValidateOptions = { large };
  const weighDecode = defaults?.weighDecode;
  return {
    async createSessionLink(session, options) {
      const codec = await getCodec();
      const source = options?.source;
      const { session: normalized, payload } = encodeSession(
        codec,
        session,
        source === undefined ? validateOptions : { large, ownJson: (members) => canonicalSlice(codec, source, members) },
      );
      return { link: buildLink(options?.baseUrl ?? defaultBaseUrl, payload), summary: summarize(normalized) };
    },

    async decodeSessionLink(link) {
      if (typeof link !== 'string')
        throw new SessionError('SESSION_DECODE_FAILED', [
          { path: 'link', message: `must be a string (a snapshot URL, #data=v2:... hash or v2:... code), not ${describeType(link)}` },
        ]);
      const payload = parseLink(link);
      const codec = await getCodec();
      // Links hold JSON documents: a list longer, or more values, than any document has are refused before the text is
      // made; the measure that finds them also bounds what the document is written as (decodedSizeProblem).
      let text: string | undefined;
      let measure: WrittenMeasure | undefined;
      let declinedAt = 0;
      const options: DecompressOptions = {
        maxJsonListEntries: MAX_DECODED_LIST_ENTRIES,
        maxJsonValues: MAX_DECODED_VALUES,
        maxJsonContainers: MAX_DECODED_CONTAINERS,
        // A text of no more units cannot hold more unpaired surrogates, or more loose numbers, than allowed.
        measureJsonOver: Math.min(MAX_UNPAIRED_SURROGATES, MAX_DECODED_LOOSE_NUMBERS),
        onJsonShape: (shape) => (measure = shape),
      };
      try {
        text = weighDecode === undefined ? codec.decompress(payload, options) : codec.decompressIf(payload, (units, shape) => (declinedAt = weighDecode(units, shape)) === 0, options);
      } catch (error) {
        if (!(error instanceof CodecError)) throw error;
        throw new SessionError('SESSION_DECODE_FAILED', [{ path: 'link', message: decodeFailureSentence(error) }]);
      }
      if (text === undefined) throw new DecodeDeclined(declinedAt);
      // What the answer will write is counted before it is written (a short link can expand to text that grows sixfold):
      // from the codec's measure before parsing when that already passes the limit, else exactly once parsed.
      const early =
        measure === undefined
          ? null
          : (measuredSizeProblem(measure) ?? unpairedSurrogatesInDecodeProblem(measure.loneSurrogates) ?? looseNumbersInDecodeProblem(measure.looseNumbers));
      if (early !== null) throw new SessionError('SESSION_DECODE_FAILED', [early]);
      const { session, warnings } = readDecodedSession(text);
      const size = decodedSizeProblem(session, text.length, measure);
      if (size !== null) throw new SessionError('SESSION_DECODE_FAILED', [size]);
      return warnings.length > 0 ? { session, warnings: [...warnings] } : { session };
    },
  };
}

/** The source's text at its path when it is the serialization of a value with `members` object members. */
function canonicalSlice(codec: Codec, source: JsonSource, members: number): string | undefined {
  const span = codec.canonicalJsonSpan(source.text, source.path);
  // A text with repeated keys has more members than the value JSON.parse made of it.
  return span !== undefined && span.members === members ? source.text.slice(span.start, span.end) : undefined;
}


function decodeFailureSentence(error: CodecError): string {
  if (error.code === 'JSON_LIST_LIMIT') {
    return `the snapshot data holds a list of more than ${MAX_DECODED_LIST_ENTRIES.toLocaleString('en-US')} entries, which no session document does (its lists hold at most 1,000)`;
  }
  if (error.code === 'JSON_VALUE_LIMIT') {
    return `${sentence(error).replace(/^Value limit exceeded: the text/, 'the snapshot data')}, which no session document does; a size-limit failure requires a smaller source plan`;
  }
  if (error.code === 'INVALID_PAYLOAD' || error.code === 'TRAP')
    return `the snapshot data does not decompress (${sentence(error)}); check that the complete unmodified snapshot link was supplied`;
  return `the snapshot is too large to decode: ${sentence(error)}; a size-limit failure requires a smaller source plan`;
}
