// The longest list of a JSON text in linear memory, read without parsing it: a guard the JS side can put in front of
// JSON.parse, for which one list of 900,000 numbers costs ~30 ms (a multi-MB array on fresh pages).

import { CLOSE_LIST, CLOSE_OBJECT, COMMA, OPEN_LIST, OPEN_OBJECT, QUOTE, skipString, TEXT_ENDED } from "./json-text";

/** Open containers tracked: a list nested deeper is not counted (such nesting is refused by the caller anyway). */
const MAX_TRACKED_DEPTH: i32 = 1024;
/** Per open container: the commas of a list so far, or -1 for an object. */
const COUNTS: usize = memory.data(MAX_TRACKED_DEPTH * 4 + 4);

/**
 * 1 when the JSON text of `units` UTF-16 units at `start` has a list of more than `maxEntries` entries, else 0.
 * String contents are skipped (escapes included); a text that is not JSON gives some answer, which JSON.parse then
 * refuses or not as it would have.
 */
export function hasListOver(start: usize, units: i32, maxEntries: i32): i32 {
  const end: usize = start + (<usize>units << 1);
  let depth: i32 = 0;
  let at: usize = start;
  while (at < end) {
    const unit = <u32>load<u16>(at);
    at += 2;
    if (unit == QUOTE) {
      at = skipString(at, end);
      if (at == TEXT_ENDED) return 0; // an unterminated string holds no list
    } else if (unit == COMMA) {
      if (depth > 0 && depth <= MAX_TRACKED_DEPTH) {
        const slot: usize = COUNTS + (<usize>depth << 2);
        const commas = load<i32>(slot);
        if (commas >= 0) {
          // n commas separate n + 1 entries.
          if (commas + 1 >= maxEntries) return 1;
          store<i32>(slot, commas + 1);
        }
      }
    } else if (unit == OPEN_LIST || unit == OPEN_OBJECT) {
      depth++;
      if (depth <= MAX_TRACKED_DEPTH) store<i32>(COUNTS + (<usize>depth << 2), unit == OPEN_LIST ? 0 : -1);
    } else if (unit == CLOSE_LIST || unit == CLOSE_OBJECT) {
      if (depth > 0) depth--;
    }
  }
  return 0;
}
