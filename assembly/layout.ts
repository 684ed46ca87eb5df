// Manual linear-memory layout: every call lays its regions out afresh from the heap base and grows
// memory only as far as the budgets require (asconfig maximumMemory caps it behind that).

import { DICTIONARY_ENTRIES, MAX_CODES, OUTPUT_BYTES, PAYLOAD_CHARS } from "./budgets";

/** First free byte after static data, 16-byte aligned. */
const HEAP_START: usize = (__heap_base + 15) & ~(<usize>15);

/** Slack after buffers that word-wise copies and multi-character writes may overrun. */
const SLACK: usize = 16;

// Compression regions (set by layoutCompress).
export let compressInput: usize = 0;
export let unitTable: usize = 0;
export let hashTable: usize = 0;
export let hashBits: i32 = 0;
export let compressOutput: usize = 0;

// Decompression regions (set by layoutDecompress).
export let decompressInput: usize = 0;
/** One u64 per code: start offset in the output (low 32 bits) and length (high 32 bits). */
export let entryTable: usize = 0;
export let decompressOutput: usize = 0;

/** Bytes of memory the last layout needs; reported with MEMORY_LIMIT. */
export let requiredBytes: usize = 0;

function align(value: usize): usize {
  return (value + 15) & ~(<usize>15);
}

/** Grows memory to cover `end` bytes; false when the cap forbids it. */
function ensureMemory(end: usize): bool {
  requiredBytes = end;
  const neededPages = <i32>((end + 0xffff) >>> 16);
  const currentPages = memory.size();
  if (neededPages <= currentPages) return true;
  return memory.grow(neededPages - currentPages) >= 0;
}

/**
 * Input (UTF-16) | first-seen table (65,536 × u32) | phrase hash table | payload bytes.
 * The hash table holds at most one slot per input unit and never more than the entry budget
 * needs, at a load factor ≤ 0.5.
 */
export function layoutCompress(units: i32): bool {
  compressInput = HEAP_START;
  unitTable = align(compressInput + (<usize>units << 1) + SLACK);
  hashTable = align(unitTable + (<usize>65536 << 2));
  const phrases = min(units, DICTIONARY_ENTRIES);
  let bits = 10;
  while ((1 << bits) < phrases * 2) bits++;
  hashBits = bits;
  compressOutput = align(hashTable + (<usize>1 << bits << 3));
  return ensureMemory(compressOutput + <usize>PAYLOAD_CHARS + SLACK);
}

/** Input (UTF-16) | entry table (start, length) | output (UTF-16, output budget). */
export function layoutDecompress(chars: i32): bool {
  decompressInput = HEAP_START;
  entryTable = align(decompressInput + (<usize>chars << 1) + SLACK);
  decompressOutput = align(entryTable + (<usize>MAX_CODES << 3));
  return ensureMemory(decompressOutput + <usize>OUTPUT_BYTES + SLACK);
}
