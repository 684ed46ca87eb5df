// Manual linear-memory layout: every call lays its regions out afresh from the heap base and grows
// memory only as far as the budgets require (asconfig maximumMemory caps it behind that).

import { DICTIONARY_ENTRIES, MAX_CODES, OUTPUT_BYTES, PAYLOAD_CHARS } from "./budgets";

/** First free byte after static data, 16-byte aligned. */
const HEAP_START: usize = (__heap_base + 15) & ~(<usize>15);

/** Slack after buffers that word-wise copies and multi-character writes may overrun. */
const SLACK: usize = 64;

// Compression regions. The two tables sit at fixed places so they survive from call to call:
// compress.ts stamps their entries with a generation instead of clearing 1.3 MB per call.
/** First-seen table: one u32 per UTF-16 code unit. */
export const unitTable: usize = HEAP_START;
/** Phrase hash table: room for the largest table (2^17 slots of u64: 65,536 phrases at load ≤ 0.5). */
export const hashTable: usize = align(unitTable + (<usize>65536 << 2));
export const HASH_BITS_MAX: i32 = 17;
/** One tag byte per hash slot (0: empty); cleared per call for the slots the call uses (compress.ts). */
export const tagTable: usize = align(hashTable + (<usize>1 << HASH_BITS_MAX << 3));
export let hashBits: i32 = 0;
export let compressInput: usize = 0;
export let compressOutput: usize = 0;
/** False once a decompression has laid its regions over the compression tables (see layoutDecompress). */
export let compressTablesIntact: bool = false;

// Decompression regions (set by layoutDecompress).
export let decompressInput: usize = 0;
/** 5 bytes per code: start offset in the output (low 21 bits) and length (next 19 bits); see decompress.ts. */
export let entryTable: usize = 0;
export const ENTRY_BYTES: usize = 5;
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
 * First-seen table | phrase hash table (fixed, see above) | input (UTF-16) | payload bytes.
 * A call uses 2^hashBits hash slots: at most one per input unit and never more than the entry
 * budget needs, at a load factor ≤ 0.5.
 */
export function layoutCompress(units: i32): bool {
  const phrases = min(units, DICTIONARY_ENTRIES);
  let bits = 10;
  while ((1 << bits) < phrases * 2) bits++;
  hashBits = bits;
  compressInput = align(tagTable + (<usize>1 << HASH_BITS_MAX));
  compressOutput = align(compressInput + (<usize>units << 1) + SLACK);
  return ensureMemory(compressOutput + <usize>PAYLOAD_CHARS + SLACK);
}

/** Called by compress.ts once it has cleared the tables again. */
export function markCompressTablesIntact(): void {
  compressTablesIntact = true;
}

/** Input (UTF-16) | entry table (start, length) | output (UTF-16, output budget). */
export function layoutDecompress(chars: i32): bool {
  // Decompression reuses the memory from the heap start, over the compression tables.
  compressTablesIntact = false;
  decompressInput = HEAP_START;
  entryTable = align(decompressInput + (<usize>chars << 1) + SLACK);
  decompressOutput = align(entryTable + <usize>MAX_CODES * ENTRY_BYTES + SLACK);
  return ensureMemory(decompressOutput + <usize>OUTPUT_BYTES + SLACK);
}
