// Which POSTs are heavy and what each costs: the queue in front of the offload threads serves clients by this cost.
import type { Codec, JsonShape } from '../codec/types.js';
import { LARGE_BODY_BYTES } from '../http/body.js';
import type { RequestBody } from '../http/body.js';
import { headersRuleOutTool } from '../mcp/modern.js';
import { costlyJsonShape } from '../session/limits.js';
import { parseLink } from '../session/link.js';

/**
 * Bodies from this size on can cost more than a few ms (JSON.parse alone is ~10 ms per MB here), so they go to a thread,
 * as the bytes they arrived in (http/body.ts assembles bodies this large in a pooled buffer). Below it a create costs
 * well under 2 ms, less than a round trip to a thread would save.
 */
export const OFFLOAD_MIN_BODY_BYTES = LARGE_BODY_BYTES;
/**
 * A decode's cost follows what its link expands to, not the link's size: a 3.5 KB link can hold 1.8 MB of JSON (30–80 ms
 * of work), a 0.6 KB one 64 K lone surrogates (~9 ms to answer over MCP). A body under this size holds a link that
 * expands to at most a few thousand characters (LZW: n codes give at most n²/2 units), whatever they are, so only decodes
 * of longer bodies are looked at.
 */
export const OFFLOAD_MIN_DECODE_CHARS = 128;
/**
 * …and of those, the ones whose link costs as much as an ordinary document of this many characters go to a thread
 * (decodeCost). Finding out costs one decompression on the event loop that never makes its text and one pass over it
 * in linear memory (~1.5 ms per MB of output), far less than a round trip to a thread costs every ordinary decode
 * (~180 µs of CPU for a 2 KB link, about doubling it).
 */
export const OFFLOAD_MIN_EXPANDED_CHARS = 64 * 1024;

export type OffloadKind = 'mcp' | 'create' | 'decode';

/**
 * What answering a decode costs, in characters of an ordinary plan (~5–10 ns each): a document's text is parsed, its
 * values built and checked, and written back (twice over MCP). Beyond what an ordinary plan holds per character (a
 * value per 20, an object or array per 100), each value costs about as much as 8 characters, each object or array as
 * 20, and each byte the text grows by when written (lone surrogates, `1e20`) as 5: measured per shape on a
 * decode of 64 K characters, REST and MCP (21,000 empty objects: 2–2.5 ms; 63,000 lone surrogates: 3–9 ms; an
 * ordinary plan: 0.6 ms).
 */
export function decodeCost(shape: JsonShape): number {
  const { units } = shape;
  return units + 8 * Math.max(0, shape.values - units / 20) + 20 * Math.max(0, shape.containers - units / 100) + 5 * Math.max(0, shape.writtenBytes - units);
}

/** Large bodies cost about this many ordinary characters per byte (parse, checks, compression: ~35 ms for 2 MB). */
const BODY_COST_PER_BYTE = 4;
/** A decoded text of 64 K units or more is not measured on the event loop; it is taken to cost this much per unit. */
const LONG_TEXT_COST_PER_UNIT = 2;

/**
 * What this POST costs when it may cost more than a few ms (a large body, or a decode whose link expands to a costly
 * document), in the units of decodeCost; 0 when it is cheap. Anything that fails on the way (bad JSON, a costly shape, a
 * bad link) costs 0: the endpoint refuses it cheaply. The queue in front of the threads serves clients by this cost.
 */
export function heavyCost(kind: OffloadKind, body: RequestBody, codec: Codec, headers?: Readonly<Record<string, string>>): number {
  if (body.byteLength >= OFFLOAD_MIN_BODY_BYTES) return BODY_COST_PER_BYTE * body.byteLength;
  if (body.byteLength < OFFLOAD_MIN_DECODE_CHARS || kind === 'create') return 0;
  // A modern MCP request names its tool in its headers, and the handler refuses a body that calls another one.
  if (kind === 'mcp' && headers !== undefined && headersRuleOutTool(headers, 'decode_session_link')) return 0;
  let text: string;
  try {
    text = body.text();
  } catch {
    return 0; // not UTF-8: refused at once where it is
  }
  // Only a decode_session_link call can be heavy. The name may be written with \u escapes, which JSON.parse reads as the
  // same name: a text with any \u is looked at like one that names the tool outright.
  if (kind === 'mcp' && !text.includes('decode_session_link') && !text.includes('\\u')) return 0;
  const link = decodeLinkOf(kind, text);
  if (link === undefined) return 0;
  let cost: number;
  try {
    const payload = parseLink(link);
    // A long text is heavy whatever it holds (its length alone is a lower bound of its cost): it is not read here.
    const units = codec.decompressedLength(payload);
    cost = units >= OFFLOAD_MIN_EXPANDED_CHARS ? LONG_TEXT_COST_PER_UNIT * units : decodeCost(codec.jsonShape(payload));
  } catch {
    return 0;
  }
  return cost >= OFFLOAD_MIN_EXPANDED_CHARS ? cost : 0;
}

/** The link of a REST decode body or of an MCP decode_session_link call; the body is under OFFLOAD_MIN_BODY_BYTES. */
function decodeLinkOf(kind: 'mcp' | 'decode', body: string): string | undefined {
  // The handlers refuse costly shapes before parsing; so does this look (a 60 KB body nested 30,000 deep parses slowly).
  if (costlyJsonShape(body) !== undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined);
  const link = kind === 'decode' ? field(parsed, 'link') : field(field(field(parsed, 'params'), 'arguments'), 'link');
  return typeof link === 'string' ? link : undefined;
}
