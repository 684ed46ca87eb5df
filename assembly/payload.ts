// Payload characters ↔ the LSB-first bit stream the LZW loops work on, in place, in one pass each (docs/codec.md).
//
// compress.ts writes its codes into bytes with a branch-free 64-bit writer and bitsToCharacters turns every
// 6 bits into one character afterwards; decompress.ts has charactersToBits pack the payload first and then reads
// every code with one unaligned 64-bit load. Either way the table lookups (alphabet.ts, which also absorb
// lz-string's bit order) leave the LZW loops, where the 1–6 characters per code cost a mispredicted loop exit each.
// Both passes take 16 characters per step with wasm SIMD (byte shuffles, and the tables as swizzles of 16 entries).

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
  // The last groups one by one until the rest are whole blocks of 4 groups (16 characters from 12 bytes).
  while (group & 3) {
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
  // Block b reads bytes 12b..12b+15 (using 12) and writes characters 16b..16b+15: for b ≥ 1 that is above every
  // byte a lower block still reads (12b + 4), and block 0 reads before it writes.
  const table0 = v128.load(BITS_TO_CHAR);
  const table1 = v128.load(BITS_TO_CHAR, 16);
  const table2 = v128.load(BITS_TO_CHAR, 32);
  const table3 = v128.load(BITS_TO_CHAR, 48);
  const zero = i32x4.splat(0);
  while (group > 0) {
    group -= 4;
    const bytes = v128.load(start + <usize>group * 3);
    // Each 32-bit lane gets 3 bytes, i.e. 4 characters' bits; then each 6-bit group moves to a byte of its own.
    const lanes = i8x16.shuffle(bytes, zero, 0, 1, 2, 16, 3, 4, 5, 16, 6, 7, 8, 16, 9, 10, 11, 16);
    const sextets = v128.or(
      v128.or(v128.and(lanes, i32x4.splat(0x3f)), v128.and(i32x4.shl(lanes, 2), i32x4.splat(0x3f00))),
      v128.or(v128.and(i32x4.shl(lanes, 4), i32x4.splat(0x3f0000)), v128.and(i32x4.shl(lanes, 6), i32x4.splat(0x3f000000))),
    );
    store<v128>(start + (<usize>group << 2), lookup64(table0, table1, table2, table3, sextets));
  }
  return chars;
}

/** A 64-entry byte table lookup for 16 indices < 64: a swizzle gives 0 for indices ≥ 16, so each quarter adds its own. */
@inline function lookup64(table0: v128, table1: v128, table2: v128, table3: v128, indices: v128): v128 {
  return v128.or(
    v128.or(i8x16.swizzle(table0, indices), i8x16.swizzle(table1, i8x16.sub(indices, i8x16.splat(16)))),
    v128.or(i8x16.swizzle(table2, i8x16.sub(indices, i8x16.splat(32))), i8x16.swizzle(table3, i8x16.sub(indices, i8x16.splat(48)))),
  );
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
  // 16 characters per step: bytes (a UTF-16 unit above 255 saturates to 0 or 255, both outside the alphabet),
  // their 6 bits each by a 128-entry lookup, then packed into 12 bytes. The 16-byte store ends 4 bytes later,
  // still behind the characters left to read. A block with a foreign character is left to the loops below.
  const t0 = v128.load(CHAR_TO_BITS);
  const t1 = v128.load(CHAR_TO_BITS, 16);
  const t2 = v128.load(CHAR_TO_BITS, 32);
  const t3 = v128.load(CHAR_TO_BITS, 48);
  const t4 = v128.load(CHAR_TO_BITS, 64);
  const t5 = v128.load(CHAR_TO_BITS, 80);
  const t6 = v128.load(CHAR_TO_BITS, 96);
  const t7 = v128.load(CHAR_TO_BITS, 112);
  while (index + 16 <= chars) {
    let ascii: v128;
    if (sizeof<T>() == 1) {
      ascii = v128.load(input + <usize>index);
    } else {
      const units: usize = input + (<usize>index << 1);
      ascii = i8x16.narrow_i16x8_u(v128.load(units), v128.load(units, 16));
    }
    const sextets = v128.or(
      v128.or(
        v128.or(i8x16.swizzle(t0, ascii), i8x16.swizzle(t1, i8x16.sub(ascii, i8x16.splat(16)))),
        v128.or(i8x16.swizzle(t2, i8x16.sub(ascii, i8x16.splat(32))), i8x16.swizzle(t3, i8x16.sub(ascii, i8x16.splat(48)))),
      ),
      v128.or(
        v128.or(i8x16.swizzle(t4, i8x16.sub(ascii, i8x16.splat(64))), i8x16.swizzle(t5, i8x16.sub(ascii, i8x16.splat(80)))),
        v128.or(i8x16.swizzle(t6, i8x16.sub(ascii, i8x16.splat(96))), i8x16.swizzle(t7, i8x16.sub(ascii, i8x16.splat(112)))),
      ),
    );
    // Characters ≥ 128 look up nothing (0); NOT_IN_ALPHABET and they both have the top bit.
    if (v128.any_true(v128.and(v128.or(sextets, ascii), i8x16.splat(<i8>0x80)))) break;
    // Pairs of 6 bits into 12 (16-bit lanes), pairs of those into 24 (32-bit lanes), then 3 bytes per lane.
    const twelve = v128.or(v128.and(sextets, i16x8.splat(0x3f)), v128.and(i16x8.shr_u(sextets, 2), i16x8.splat(0xfc0)));
    const twentyFour = v128.or(v128.and(twelve, i32x4.splat(0xfff)), v128.and(i32x4.shr_u(twelve, 4), i32x4.splat(0xfff000)));
    store<v128>(out, i8x16.shuffle(twentyFour, twentyFour, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15));
    out += 12;
    index += 16;
  }
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
