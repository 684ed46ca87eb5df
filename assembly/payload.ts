// Payload characters ↔ the LSB-first bit stream the LZW loops work on, in place, in one pass each (docs/codec.md).
//
// compress.ts writes its codes into bytes with a branch-free 64-bit writer and bitsToCharacters turns every
// 6 bits into one character afterwards; decompress.ts has charactersToBits pack the payload first and then reads
// every code with one unaligned 64-bit load. Either way the table lookups (alphabet.ts, which also absorb
// lz-string's bit order) leave the LZW loops, where the 1–6 characters per code cost a mispredicted loop exit each.

import { BITS_TO_CHAR, CHAR_TO_BITS, NOT_IN_ALPHABET } from "./alphabet";

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

/** The character charactersToBits stopped at (outside the alphabet), read before the packing overwrote it. */
export let foreignCharacter: u32 = 0;

/** The 6 stream bits of payload character `index` (a UTF-16 unit for T = u16, a byte for T = u8), or NOT_IN_ALPHABET. */
@inline function charBits<T>(input: usize, index: i32): u32 {
  const char = <u32>load<T>(input + (<usize>index << <usize>(sizeof<T>() >> 1)));
  return char < 128 ? <u32>load<u8>(CHAR_TO_BITS + <usize>char) : <u32>NOT_IN_ALPHABET;
}

/**
 * Packs the payload characters at `input` into their bit stream, in place (3 bytes per 4 characters, written
 * behind the characters still to be read), up to the first character outside the alphabet; returns how many
 * characters it packed. The 8 bytes after the stream are zero, so a 64-bit read at any bit of it is safe.
 * A foreign character's code unit is kept in foreignCharacter.
 */
export function charactersToBits<T>(input: usize, chars: i32): i32 {
  let index: i32 = 0;
  let out: usize = input;
  while (index + 4 <= chars) {
    const a = charBits<T>(input, index);
    const b = charBits<T>(input, index + 1);
    const c = charBits<T>(input, index + 2);
    const d = charBits<T>(input, index + 3);
    if ((a | b | c | d) & 0x80) break;
    store<u32>(out, a | (b << 6) | (c << 12) | (d << 18));
    out += 3;
    index += 4;
  }
  // The last group, or the group with a foreign character: one character at a time.
  let group: u32 = 0;
  let shift: u32 = 0;
  while (index < chars) {
    const bits = charBits<T>(input, index);
    if (bits == <u32>NOT_IN_ALPHABET) {
      // Still unwritten: every store so far ended inside a group of characters already read.
      foreignCharacter = <u32>load<T>(input + (<usize>index << <usize>(sizeof<T>() >> 1)));
      break;
    }
    group |= bits << shift;
    shift += 6;
    index++;
    if (shift == 24) {
      store<u32>(out, group);
      out += 3;
      group = 0;
      shift = 0;
    }
  }
  store<u32>(out, group);
  store<u64>(out, 0, 3);
  return index;
}
