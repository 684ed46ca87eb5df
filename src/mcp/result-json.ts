// The JSON of a tool's structured result, built once per call in both forms a success needs (structured and as text).
import { jsonStringLiteral, jsonText, type JsonText } from '../session/json-pieces.js';
import type { SessionSummary } from '../session/summary.js';

/**
 * `structured`: the result as JSON; `text`: that JSON as a JSON string literal (the first text block of a success).
 * Both are one string, or pieces for a large result when asked for (json-pieces.ts).
 */
export interface ResultJson {
  readonly structured: JsonText;
  readonly text: JsonText;
}

export function resultJson(value: unknown, large = false): ResultJson {
  const structured = jsonText(value, large);
  return { structured, text: jsonStringLiteral(structured) };
}

/** Printable ASCII without `"` and `\`: JSON.stringify leaves such a string as it is, at any nesting level. */
const VERBATIM_IN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const SNAPSHOT_MARKER = '#data=v2:';

/** The base URL part of the last link checked: every create of a server builds its links on the same base. */
let lastVerbatimBase = '';

/**
 * `resultJson({ link, summary })`, byte for byte. A snapshot link is its own JSON, so it is written as it is instead of
 * being escaped twice: with a 3 KB plan, two JSON.stringify passes over the ~2 KB link were the largest cost of
 * serializing the result. Only the part before `#data=v2:` needs a look (once per base URL): the payload after it is
 * codec output, which consists of `A–Z a–z 0–9 + - $` only (docs/codec.md), and scanning it would be a visible
 * share of a small create's server CPU. `link` must be a link made by the session operations.
 */
export function createResultJson(link: string, summary: SessionSummary): ResultJson {
  // The usual link is on the base checked last: two prefix comparisons instead of a search (indexOf sets up a
  // Boyer-Moore table per call).
  if (!(lastVerbatimBase !== '' && link.startsWith(lastVerbatimBase) && link.startsWith(SNAPSHOT_MARKER, lastVerbatimBase.length))) {
    const marker = link.indexOf(SNAPSHOT_MARKER);
    if (marker < 0) return resultJson({ link, summary });
    const base = link.slice(0, marker);
    if (!VERBATIM_IN_JSON.test(base)) return resultJson({ link, summary });
    lastVerbatimBase = base;
  }
  const summaryJson = JSON.stringify(summary);
  return {
    structured: `{"link":"${link}","summary":${summaryJson}}`,
    text: `"{\\"link\\":\\"${link}\\",\\"summary\\":${JSON.stringify(summaryJson).slice(1, -1)}}"`,
  };
}
