// The compressor's bit stream → URI-alphabet characters, in place, after the LZW loop (docs/codec.md).
//
// compress.ts writes its codes LSB first into bytes with a branch-free 64-bit writer; here every 6 bits become
// one character through BITS_TO_CHAR, which also absorbs lz-string's bit order (alphabet.ts). Converting in one
// pass at the end keeps the table lookups out of the LZW loop, where the 1–6 characters per code cost a
// mispredicted loop exit each.

import { BITS_TO_CHAR } from "./alphabet";

/**
 * Turns the first `bits` stream bits at `start` into lz-string's characters at `start` (the bytes past the
 * stream must be zero up to 8 bytes on) and returns their number: one per 6 bits plus lz-string's final flush
 * character, which is a whole 'A' when the stream ends on a character boundary.
 * Runs from the end: group j reads bytes 3j..3j+2 and writes characters 4j..4j+3, never a byte still unread.
 */
export function bitsToCharacters(start: usize, bits: u64): i32 {
  const chars = <i32>(bits / 6) + 1;
  let group: i32 = (chars + 3) >> 2;
  while (group > 0) {
    group--;
    const source: usize = start + <usize>group * 3;
    const value: u32 = (<u32>load<u8>(source)) | (<u32>load<u8>(source, 1) << 8) | (<u32>load<u8>(source, 2) << 16);
    const packed: u32 =
      <u32>load<u8>(BITS_TO_CHAR + <usize>(value & 63)) |
      (<u32>load<u8>(BITS_TO_CHAR + <usize>((value >> 6) & 63)) << 8) |
      (<u32>load<u8>(BITS_TO_CHAR + <usize>((value >> 12) & 63)) << 16) |
      (<u32>load<u8>(BITS_TO_CHAR + <usize>(value >> 18)) << 24);
    store<u32>(start + (<usize>group << 2), packed);
  }
  return chars;
}

