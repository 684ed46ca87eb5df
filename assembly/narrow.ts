// Decompressed text rewritten as one byte per unit, in place, when every unit fits: the JS side can then read it as a
// one-byte string, half the memory of UTF-16 (a decoded plan is mostly ASCII, or Latin-1 with German umlauts).

/**
 * When each of the `units` UTF-16 units at `start` is below `limit` (a power of two ≤ 65,536), stores them as bytes
 * from `start` on and returns 1; otherwise returns 0 and leaves the units as they are.
 */
export function narrowUnits(start: usize, units: i32, limit: u32): i32 {
  // First a pass that only reads, so that a unit that does not fit leaves the text untouched.
  const high: u16 = <u16>(~(limit - 1) & 0xffff);
  const highLanes = i16x8.splat(high);
  let seen = i16x8.splat(0);
  let index: i32 = 0;
  while (index + 8 <= units) {
    seen = v128.or(seen, v128.load(start + (<usize>index << 1)));
    index += 8;
  }
  let tail: u16 = 0;
  for (let i = index; i < units; i++) tail |= load<u16>(start + (<usize>i << 1));
  if (v128.any_true(v128.and(seen, highLanes)) || (tail & high) != 0) return 0;

  // Then 16 units per step into 16 bytes. A step stores below the first unit it has not read yet: it writes bytes
  // i..i+15 after reading bytes 2i..2i+31, and the next step reads from 2i+32 on.
  index = 0;
  while (index + 16 <= units) {
    const source: usize = start + (<usize>index << 1);
    store<v128>(start + <usize>index, i8x16.narrow_i16x8_u(v128.load(source), v128.load(source, 16)));
    index += 16;
  }
  for (; index < units; index++) store<u8>(start + <usize>index, <u8>load<u16>(start + (<usize>index << 1)));
  return 1;
}
