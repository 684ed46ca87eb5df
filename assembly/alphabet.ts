// The URI-safe alphabet as two lookup tables that also absorb lz-string's bit order (docs/codec.md, "Format").
//
// lz-string writes every value LSB first into 6-bit characters filled from their top bit down.
// We keep the bit stream LSB-first in a 64-bit accumulator instead, so each 6-bit group must be
// bit-reversed on its way to or from a character; the tables do that reversal for free.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

/** Marks a character outside the alphabet in CHAR_TO_BITS. */
export const NOT_IN_ALPHABET: u8 = 0xff;

/** 6 stream bits (first bit in bit 0) → ASCII character. */
export const BITS_TO_CHAR: usize = memory.data(64);
/** ASCII character (< 128) → 6 stream bits (first bit in bit 0), or NOT_IN_ALPHABET. */
export const CHAR_TO_BITS: usize = memory.data(128);

function reverse6(value: i32): i32 {
  let reversed = 0;
  for (let bit = 0; bit < 6; bit++) reversed |= ((value >> bit) & 1) << (5 - bit);
  return reversed;
}

export function initAlphabet(): void {
  memory.fill(CHAR_TO_BITS, NOT_IN_ALPHABET, 128);
  for (let index = 0; index < 64; index++) {
    const char = ALPHABET.charCodeAt(index);
    const bits = reverse6(index);
    store<u8>(BITS_TO_CHAR + bits, <u8>char);
    store<u8>(CHAR_TO_BITS + char, <u8>bits);
  }
  // lz-string's decoder reads a space as '+', because '+' often becomes a space in query strings.
  store<u8>(CHAR_TO_BITS + 0x20, load<u8>(CHAR_TO_BITS + 0x2b));
}
