// Which POSTs are heavy and what each costs: the queue in front of the offload threads serves clients by this cost.
import type { JsonShape } from '../codec/types.js';
import { LIMITS } from '../limits/table.js';
import type { RequestBody } from '../http/body.js';

/**
 * A decode's cost follows what its link expands to, not the link's size: a link of a few KB can expand to megabytes of
 * JSON. A decode whose text costs as much as an ordinary document of this many characters goes to a thread; it is
 * found out by the decode itself, before the text is made (weighDecode), so the link is decompressed once.
 */
export const OFFLOAD_MIN_EXPANDED_CHARS = 64 * 1024;

/** Large bodies cost about this many ordinary characters per byte (parse, checks, compression). */
const BODY_COST_PER_BYTE = 4;
/** A text this long is heavy whatever it holds; it is taken to cost this much per unit without being measured. */
const LONG_TEXT_COST_PER_UNIT = 2;

/** What a POST costs by its body's size alone, in the units of decodeCost; 0 when its size does not make it heavy. */
export function bodyCost(body: RequestBody): number {
  return body.byteLength >= LIMITS.heavyBody.value ? BODY_COST_PER_BYTE * body.byteLength : 0;
}

/**
 * What answering a decode costs, in characters of an ordinary plan: a document's text is parsed, its values built and
 * checked, and written back (twice over MCP). Beyond what an ordinary plan holds per character (a value per 20, an
 * object or array per 100), each value costs about as much as 8 characters, each object or array as 20, and each byte
 * the text grows by when written (lone surrogates, `1e20`) as 5. The weights were measured per shape on decodes of
 * 64 K characters over REST and MCP.
 */
export function decodeCost(shape: JsonShape): number {
  const { units } = shape;
  return units + 8 * Math.max(0, shape.values - units / 20) + 20 * Math.max(0, shape.containers - units / 100) + 5 * Math.max(0, shape.writtenBytes - units);
}

/**
 * The session operations' weighDecode on the event loop: 0 for a text cheap enough to decode here, else its cost. A
 * long text is declined on its length alone, before it is measured.
 */
export function weighDecodeHere(units: number, shape: JsonShape | undefined): number {
  if (units >= OFFLOAD_MIN_EXPANDED_CHARS) return LONG_TEXT_COST_PER_UNIT * units;
  if (shape === undefined) return 0;
  const cost = decodeCost(shape);
  return cost >= OFFLOAD_MIN_EXPANDED_CHARS ? cost : 0;
}
