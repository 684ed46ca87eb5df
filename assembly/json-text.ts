// JSON text in linear memory, as UTF-16 units: the characters the scanners look for and the skip over a string.

export const QUOTE: u32 = 0x22;
export const BACKSLASH: u32 = 0x5c;
export const COMMA: u32 = 0x2c;
export const COLON: u32 = 0x3a;
export const OPEN_LIST: u32 = 0x5b;
export const CLOSE_LIST: u32 = 0x5d;
export const OPEN_OBJECT: u32 = 0x7b;
export const CLOSE_OBJECT: u32 = 0x7d;

/** What a scan returns when the text ends before what it looks for (no text starts at address 0). */
export const TEXT_ENDED: usize = 0;

/** From after an opening quote to after the closing one (an escaped character skipped with its backslash), or TEXT_ENDED. */
export function skipString(at: usize, end: usize): usize {
  while (at < end) {
    const unit = <u32>load<u16>(at);
    if (unit == QUOTE) return at + 2;
    at += unit == BACKSLASH ? 4 : 2;
  }
  return TEXT_ENDED;
}
