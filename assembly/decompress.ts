// lz-string 1.5.0 `_decompress(payload, 32, URI alphabet)` with budgets and strict validation.
//
// Every dictionary entry is a contiguous run of the output so far, so an entry is just
// (start, length), packed in 5 bytes, and decoding is copying (docs/codec.md, "Memory").
// The payload (UTF-16 units or, when JS wrote an ASCII payload as bytes, bytes) is packed into its bit stream
// first. Budgets are checked before anything is written, so a bomb stops at the first entry that would cross one
// (the content budget, which no payload can cross before the others, once at the end as a backstop).
// Stricter than lz-string: every character must be in the alphabet, the stream must end with the
// end code inside the payload, and only lz-string's zero flush may follow it.

import { CONTENT_BYTES, DICTIONARY_ENTRIES, OUTPUT_BYTES, PAYLOAD_CHARS } from "./budgets";
import { fail } from "./failure";
import { ENTRY_BYTES, decompressInput, decompressOutput, entryTable } from "./layout";
import { charactersToBits, foreignCharacter } from "./payload";
import {
  CONTENT_BUDGET,
  DICTIONARY_BUDGET,
  INVALID_PAYLOAD,
  OUTPUT_BUDGET,
  PAYLOAD_TOO_LONG,
  REASON_BAD_CHARACTER,
  REASON_EMPTY,
  REASON_FIRST_CODE_3,
  REASON_TRAILING_DATA,
  REASON_TRUNCATED,
  REASON_UNKNOWN_CODE,
} from "./status";

const OUTPUT_UNITS: i32 = OUTPUT_BYTES >> 1;

/** The payload budget is checked before any decoding. */
export function checkDecompressInput(chars: i32): i32 {
  if (chars > PAYLOAD_CHARS) return fail(PAYLOAD_TOO_LONG, 0, chars, 0);
  if (chars == 0) return fail(INVALID_PAYLOAD, REASON_EMPTY, 0, 0);
  return 0;
}

// Bit reader state between the slices of the hot loop (decodeRun) and for the slow paths: the payload packed into
// its bit stream (payload.ts) and the position of the next bit to read.
let streamBits: i64 = 0;
let bitPosition: i64 = 0;
let payloadChars: i32 = 0;
/** First payload character outside the alphabet (where the stream ends), or -1. */
let badCharacter: i32 = -1;
// Dictionary and output state between slices of the hot loop (decodeRun).
let savedDictSize: i32 = 0;
let savedOutLength: i32 = 0;
let savedWStart: i32 = 0;
let savedWLength: i32 = 0;
/** Codes per slice of the hot loop. */
const RUN_CODES: i32 = 4096;
/** decodeRun's "call me again": below every status. */
const PAUSED: i32 = i32.MIN_VALUE;

function saveRun(dict: i32, length: i32, start: i32, previousLength: i32): void {
  savedDictSize = dict;
  savedOutLength = length;
  savedWStart = start;
  savedWLength = previousLength;
}

/**
 * Packs a dictionary entry into 40 bits: where it starts in the output (21 bits: < 2^21 units in the output
 * budget) and how many units it has (19 bits: an entry is at most one unit longer than an older one, so no
 * length exceeds the entry count + 1 ≤ 65,540). 5 bytes instead of 8 per entry: the table is fresh memory
 * on a page's first decode, and first touches of fresh pages dominate that call (docs/codec.md).
 */
@inline function entry(start: i32, length: i32): u64 {
  return <u64><u32>start | (<u64><u32>length << 21);
}

/** Stores entry `code`. The 8-byte store also writes 3 bytes of the next slot, which is always written later. */
@inline function storeEntry(entries: usize, code: i32, packed: u64): void {
  store<u64>(entries + <usize>code * ENTRY_BYTES, packed);
}

@inline function loadEntry(entries: usize, code: i32): u64 {
  return load<u64>(entries + <usize>code * ENTRY_BYTES) & 0xff_ffff_ffff;
}

/** `width` (≤ 32) stream bits from bit `position`: one unaligned 64-bit load, whatever the alignment. */
@inline function readBits(stream: usize, position: i64, width: i32): u32 {
  return <u32>((load<u64>(stream + <usize>(position >> 3)) >> <u64>(position & 7)) & ((<u64>1 << <u64>width) - 1));
}

/** The payload characters a failure is reported at: those holding the bits read so far. */
@inline function charactersRead(position: i64): i32 {
  return <i32>((position + 5) / 6);
}

/** Status for a read that needs bits past the stream: a foreign character ended it, or the payload did. */
function starved(): i32 {
  if (badCharacter >= 0) return fail(INVALID_PAYLOAD, REASON_BAD_CHARACTER, <i32>foreignCharacter, badCharacter);
  return fail(INVALID_PAYLOAD, REASON_TRUNCATED, 0, payloadChars);
}

/** After the end code: lz-string writes only zero bits up to the next character boundary, plus a
 *  whole 'A' when the end code ended exactly on one. Anything else is refused. */
function checkEnding(): i32 {
  const expectedChars: i64 = bitPosition / 6 + 1;
  // Without the flush character the payload was cut right after the end code: truncated too.
  if (<i64>payloadChars < expectedChars) return fail(INVALID_PAYLOAD, REASON_TRUNCATED, 0, payloadChars);
  if (<i64>payloadChars > expectedChars) {
    return fail(INVALID_PAYLOAD, REASON_TRAILING_DATA, payloadChars - <i32>expectedChars, <i32>expectedChars);
  }
  // The flush character itself may be the foreign one.
  if (badCharacter >= 0) return starved();
  if (readBits(decompressInput, bitPosition, <i32>(expectedChars * 6 - bitPosition)) != 0) {
    return fail(INVALID_PAYLOAD, REASON_TRAILING_DATA, 0, payloadChars - 1);
  }
  return 0;
}

/**
 * Decodes `chars` payload characters at decompressInput, each a UTF-16 unit (T = u16) or a byte (T = u8:
 * an ASCII payload JS wrote with encodeInto); returns the decoded unit count or a status. The payload is
 * packed into its bit stream first, in place (payload.ts): the hot loop then reads each code with one load
 * instead of refilling an accumulator character by character, and has no refill branch to mispredict.
 */
export function decompressChars<T>(chars: i32): i32 {
  const inputCheck = checkDecompressInput(chars);
  if (inputCheck < 0) return inputCheck;
  payloadChars = chars;
  const packed = charactersToBits<T>(decompressInput, chars);
  badCharacter = packed < chars ? packed : -1;
  streamBits = <i64>packed * 6;
  bitPosition = 0;

  const stream = decompressInput;
  if (streamBits < 2) return starved();
  const first = <i32>readBits(stream, 0, 2);
  bitPosition = 2;
  if (first == 2) {
    const ending = checkEnding();
    return ending < 0 ? ending : 0;
  }
  if (first == 3) return fail(INVALID_PAYLOAD, REASON_FIRST_CODE_3, 3, 0);
  const firstWidth = first == 0 ? 8 : 16;
  if (bitPosition + firstWidth > streamBits) return starved();
  const firstUnit = <u16>readBits(stream, bitPosition, firstWidth);
  bitPosition += firstWidth;

  store<u16>(decompressOutput, firstUnit);
  storeEntry(entryTable, 3, entry(0, 1));
  saveRun(4, 1, 0, 1);
  // The loop runs in slices (see decodeRun); two call sites keep Binaryen from inlining it here.
  let result = decodeRun();
  while (result == PAUSED) result = decodeRun();
  return result;
}

/**
 * Decodes up to RUN_CODES codes, then saves its state and returns PAUSED. Why slices: engines run a page's
 * first call of a function in baseline code (V8's Liftoff) and compile optimised code in the background,
 * but a call already running never switches (no on-stack replacement for WASM). One call for the whole
 * payload ran entirely in baseline code on a page's first decode; with slices, the later ones run the
 * optimised code as soon as it is ready. Returns the decoded unit count, a status, or PAUSED.
 */
function decodeRun(): i32 {
  // The hot loop keeps the bit reader, the layout and the dictionary state in locals: WASM globals are
  // memory loads and stores in every engine, locals stay in registers.
  const stream = decompressInput;
  const output = decompressOutput;
  const entries = entryTable;
  const endBits = streamBits;
  let position: i64 = bitPosition;
  let dictSize: i32 = savedDictSize;
  let outLength: i32 = savedOutLength;
  let wStart: i32 = savedWStart;
  let wLength: i32 = savedWLength;
  let codesLeft: i32 = RUN_CODES;

  while (true) {
    if (--codesLeft < 0) {
      bitPosition = position;
      saveRun(dictSize, outLength, wStart, wLength);
      return PAUSED;
    }
    // lz-string's numBits/enlargeIn countdown always leaves the width at the bit length of dictSize.
    const width = 32 - <i32>clz<u32>(<u32>dictSize);
    if (position + <i64>width > endBits) return starved();
    const code = <i32>readBits(stream, position, width);
    position += <i64>width;

    const target: usize = output + (<usize>outLength << 1);
    let length: i32;
    if (code >= 3) {
      // A known code, or the KwKwK case (w + w[0]) for the code about to be made.
      if (code < dictSize) {
        const known = loadEntry(entries, code);
        length = <i32>(known >> 21);
        if (length > OUTPUT_UNITS - outLength) return outputBudget(outLength, length, position);
        copyUnits(target, output + (<usize>(known & 0x1f_ffff) << 1), length);
      } else if (code == dictSize) {
        length = wLength + 1;
        if (length > OUTPUT_UNITS - outLength) return outputBudget(outLength, length, position);
        const source: usize = output + (<usize>wStart << 1);
        copyUnits(target, source, wLength);
        store<u16>(target + (<usize>wLength << 1), load<u16>(source));
      } else {
        return fail(INVALID_PAYLOAD, REASON_UNKNOWN_CODE, code, charactersRead(position));
      }
    } else if (code == 2) {
      bitPosition = position;
      const ending = checkEnding();
      if (ending < 0) return ending;
      // Entry content, as the compressor counts it: one unit per literal entry and wLength + 1 per phrase, whose
      // ws are every piece but the last. It cannot cross its budget (≤ 2 × (2,000,000 + 65,536) bytes, since every
      // piece is in the output budget), so it is checked here once as a backstop, not per entry in the loop.
      const contentBytes: i64 = (<i64>(dictSize - 3) + <i64>outLength - <i64>wLength) * 2;
      if (contentBytes > <i64>CONTENT_BYTES) return fail(CONTENT_BUDGET, 0, <i32>min(contentBytes, <i64>i32.MAX_VALUE), charactersRead(position));
      return outLength;
    } else {
      // A literal: 8 or 16 bits that become an entry of their own, then the piece.
      const literalWidth = code == 0 ? 8 : 16;
      if (position + <i64>literalWidth > endBits) return starved();
      const literal = readBits(stream, position, literalWidth);
      position += <i64>literalWidth;
      if (dictSize - 3 >= DICTIONARY_ENTRIES) return fail(DICTIONARY_BUDGET, 0, dictSize - 2, charactersRead(position));
      storeEntry(entries, dictSize, entry(outLength, 1));
      dictSize++;
      length = 1;
      if (length > OUTPUT_UNITS - outLength) return outputBudget(outLength, length, position);
      store<u16>(target, <u16>literal);
    }

    // The new phrase w + entry[0] is the run that starts at w and ends one unit into this piece.
    if (dictSize - 3 >= DICTIONARY_ENTRIES) return fail(DICTIONARY_BUDGET, 0, dictSize - 2, charactersRead(position));
    storeEntry(entries, dictSize, entry(wStart, wLength + 1));
    dictSize++;
    wStart = outLength;
    wLength = length;
    outLength += length;
  }
}

function outputBudget(outLength: i32, length: i32, position: i64): i32 {
  return fail(OUTPUT_BUDGET, 0, <i32>min((<i64>outLength + <i64>length) * 2, <i64>i32.MAX_VALUE), charactersRead(position));
}

/**
 * Copies `units` code units from an earlier part of the output. The source always ends at or
 * before the target starts, so copying forward in 16-byte SIMD words is safe: a word that reads past the
 * source end only carries bytes that land beyond the target end, and those are written later. (Two 16-byte
 * words instead of four 8-byte ones: WASM A/B 1.01–1.18× per shape, fewer stores waiting to retire.)
 * Every copy moves at least 32 bytes (16 units, longer than most entries) without a branch on the
 * length: a length-dependent loop exit mispredicts about once per code, and each mispredict also
 * throws away the loads of the codes after it that the CPU had already started. The overrun (≤ 30
 * bytes) stays inside layout.ts's SLACK. (memory.copy is a call out of the WASM code in V8: slower here.)
 */
@inline function copyUnits(target: usize, source: usize, units: i32): void {
  store<v128>(target, v128.load(source));
  store<v128>(target, v128.load(source, 16), 16);
  if (units > 16) {
    const bytes = <usize>units << 1;
    for (let offset: usize = 32; offset < bytes; offset += 16) {
      store<v128>(target + offset, v128.load(source + offset));
    }
  }
}
