// The JSON of a tool's structured result, built once per call in both forms a success needs (structured and as text).
import type { SessionSummary } from '../session/summary.js';

/** `structured`: the result as JSON; `text`: that JSON as a JSON string literal (the first text block of a success). */
export interface ResultJson {
  readonly structured: string;
  readonly text: string;
}

export function resultJson(value: unknown): ResultJson {
  const structured = JSON.stringify(value);
  return { structured, text: JSON.stringify(structured) };
}

/** Printable ASCII without `"` and `\`: JSON.stringify leaves such a string as it is, at any nesting level. */
const VERBATIM_IN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `resultJson({ link, summary })`, byte for byte. A snapshot link (URL characters and the payload alphabet) is its own
 * JSON, so it is checked once instead of being escaped twice: with a 3 KB plan, two JSON.stringify passes over the
 * ~2 KB link were the largest cost of serializing the result.
 */
export function createResultJson(link: string, summary: SessionSummary): ResultJson {
  if (!VERBATIM_IN_JSON.test(link)) return resultJson({ link, summary });
  const summaryJson = JSON.stringify(summary);
  return {
    structured: `{"link":"${link}","summary":${summaryJson}}`,
    text: `"{\\"link\\":\\"${link}\\",\\"summary\\":${JSON.stringify(summaryJson).slice(1, -1)}}"`,
  };
}
