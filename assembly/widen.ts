// In-place widening of one-byte characters to UTF-16 code units: lets JS hand over an ASCII payload with
// TextEncoder.encodeInto (a bulk copy) instead of a charCodeAt loop.

/**
 * Turns `count` bytes at `at` into `count` u16 units at the same address. Works from the end backwards,
 * so every write lands at or after the bytes still to be read (unit i goes to at + 2i ≥ at + i).
 */
export function widenBytes(at: usize, count: i32): void {
  let index = count;
  // The tail first, so the rest is a whole number of 4-byte groups.
  while ((index & 3) != 0) {
    index--;
    store<u16>(at + (<usize>index << 1), load<u8>(at + <usize>index));
  }
  while (index > 0) {
    index -= 4;
    const bytes = <u64>load<u32>(at + <usize>index);
    const units = (bytes & 0xff) | ((bytes & 0xff00) << 8) | ((bytes & 0xff0000) << 16) | ((bytes & 0xff000000) << 24);
    store<u64>(at + (<usize>index << 1), units);
  }
}
