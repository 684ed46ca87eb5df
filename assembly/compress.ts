// lz-string 1.5.0 `_compress(text, 6, URI alphabet)` with integer codes, a hash table and budgets.
//
// Output is bit-identical to compressToEncodedURIComponent (docs/codec.md), including the
// `__proto__` quirk: lz-string's object dictionary can never store that phrase, so its code is
// consumed but the phrase is never found. Budgets are counted exactly as decompress.ts counts them
// (docs/codec.md, "Budgets"): the dictionary at every new entry, the content (which cannot cross its
// budget here) once at the end.

import { CONTENT_BYTES, DICTIONARY_ENTRIES, OUTPUT_BYTES, PAYLOAD_CHARS } from "./budgets";
import { fail } from "./failure";
import * as layout from "./layout";
import { bitsToCharacters } from "./payload";
import { CONTENT_BUDGET, DICTIONARY_BUDGET, OUTPUT_BUDGET, PAYLOAD_TOO_LONG } from "./status";

/** Set in a first-seen table slot while the unit has not yet been written as a literal. */
const PENDING: u32 = 0x80000000;
/** First-seen slots hold `PENDING? | generation << CODE_BITS | code`; codes stay below 2^17 in budget. */
const CODE_BITS: u32 = 17;
const CODE_MASK: u32 = (1 << CODE_BITS) - 1;
/**
 * Hash slots hold `key << CODE_FIELD_BITS | code`, a key being `prefix code << 16 | unit`, so a hit compares one
 * shift and its low field, shifted by 16, is the found phrase's key bits. Whether a slot is in use is its tag's
 * business (below), so a slot never needs clearing.
 */
const CODE_FIELD_BITS: u64 = 24;
const FIBONACCI: u64 = 0x9e3779b97f4a7c15;
const SLOT_SHIFT: u64 = 64 - <u64>layout.HASH_BITS_MAX;
/** A tag is 0x80 | 7 hash bits below the slot bits, so 0 means empty and other phrases rarely match. */
const TAG_SHIFT: u64 = SLOT_SHIFT - 7;

/**
 * The first-seen table outlives a call (layout.ts). Instead of clearing its 256 KB per call, every call takes the
 * next generation (1..16,383) and slots of other generations read as unseen; it is really cleared only when the
 * generation wraps or a decompression has overwritten it. The tag bytes (≤ 128 KB) are simply cleared per call.
 */
const GENERATION_LIMIT: u32 = 16383;
let generation: u32 = 0;

/** Starts a generation and clears the tags of the 2^hashBits hash slots this call uses. */
function nextGeneration(unitTable: usize, tagTable: usize, hashBits: i32): u32 {
  memory.fill(tagTable, 0, <usize>1 << hashBits);
  if (!layout.compressTablesIntact || generation >= GENERATION_LIMIT) {
    memory.fill(unitTable, 0, 65536 << 2);
    generation = 0;
    layout.markCompressTablesIntact();
  }
  return ++generation;
}

/** "__proto__" as code units; index k is the unit that extends the k-unit prefix. */
const PROTO: usize = memory.data<u16>([95, 95, 112, 114, 111, 116, 111, 95, 95]);
const PROTO_LAST_STEP: i32 = 8;

/**
 * The budget counts of the last successful compression, exactly what decoding its payload will count: dictionary
 * entries and entry content bytes. Read by callers that show how near a plan is to the budgets (the planner page).
 */
export let lastEntries: i32 = 0;
export let lastContentBytes: i32 = 0;

/** The output budget is known up front: the decoded text is the input. */
export function checkCompressInput(units: i32): i32 {
  const bytes = <i64>units * 2;
  if (bytes > <i64>OUTPUT_BYTES) return fail(OUTPUT_BUDGET, 0, <i32>min(bytes, <i64>i32.MAX_VALUE), 0);
  return 0;
}

/** Content hash of a phrase extended by `unit`: the phrase's hash is built from its units, never from its code. */
@inline function extendHash(hash: u64, unit: u32): u64 {
  return (hash + <u64>unit + 1) * FIBONACCI;
}

/** Code width before the next write: lz-string's `numBits` after `steps` of its `enlargeIn` countdown (2, 4, 8, …). */
@inline function codeWidth(steps: u32): u64 {
  return <u64>(32 - clz<u32>(steps + 2));
}

/** Compresses `units` UTF-16 code units at compressInput; returns the payload length or a status. */
export function compressUnits(units: i32): i32 {
  const inputCheck = checkCompressInput(units);
  if (inputCheck < 0) return inputCheck;

  // The layout in locals: WASM globals are memory loads in every engine, locals stay in registers.
  const compressInput = layout.compressInput;
  const compressOutput = layout.compressOutput;
  const unitTable = layout.unitTable;
  const hashTable = layout.hashTable;
  const tagTable = layout.tagTable;
  const hashBits = layout.hashBits;
  const hashMask: u32 = (<u32>1 << hashBits) - 1;
  // Slots come from the hash's top 17 bits (a constant shift: no shift count to keep in a register), masked
  // to the 2^hashBits slots this call uses.
  const gen: u32 = nextGeneration(unitTable, tagTable, hashBits);
  const unitGeneration: u32 = gen << CODE_BITS;

  // The bit stream goes to the payload region as bytes and becomes characters at the end (payload.ts).
  // No payload check per code: within the dictionary budget at most 65,537 codes of ≤ 17 + 16 bits are
  // written, about 360,000 characters, so the 750,000-character budget cannot be reached first (checked at the end).
  let out: usize = compressOutput;
  let acc: u64 = 0;
  let accBits: u64 = 0;

  let dictSize: i32 = 3;
  // lz-string's enlargeIn countdown as a count of its steps: the width is a function of it (codeWidth).
  let steps: u32 = 0;

  // w, the phrase matched so far: the key bits it gives its extensions (code << 16), its content hash and where
  // it starts in the input.
  let wKey: u64 = 0;
  let wHash: u64 = 0;
  let wStart: usize = compressInput;
  let wUnit: u32 = 0;
  let wPending = false;
  let protoPrefix: i32 = -1;
  let protoStep: i32 = 0;
  const end: usize = compressInput + (<usize>units << 1);

  if (units > 0) {
    // The first unit can never cross a budget: it becomes entry 3 and the first w.
    const first: u32 = <u32>load<u16>(compressInput);
    store<u32>(unitTable + (<usize>first << 2), 3 | unitGeneration | PENDING);
    if (first == 95) {
      protoPrefix = 3;
      protoStep = 1;
    }
    dictSize = 4;
    wKey = <u64>3 << 16;
    wHash = extendHash(0, first);
    wUnit = first;
    wPending = true;
  }

  let next: usize = compressInput + 2;
  while (next < end) {
    // Hot loop: extend w while w + unit is a known phrase. (It cannot be while unit is unseen, so the
    // first-seen check waits until the lookup fails.) The slot comes from the phrase's content hash, which
    // depends only on the input, so the next unit's probe can start before this one's load returns (a hash
    // of (w, unit) would wait for w, a code read from the table). The loop leaves on the tag byte alone when
    // the home slot holds no phrase with this tag, as it does for most misses: the tags (≤ 128 KB) mostly stay in
    // the L2 cache, the slots (≤ 1 MiB) do not, so a miss's mispredicted exit waits for a shorter load. (A/B in
    // docs/codec-speed.md: 1.0–1.1× per shape.) A hit's slot load is predicted and overlaps the next units' probes.
    while (next < end) {
      const unit = <u32>load<u16>(next);
      const hash = extendHash(wHash, unit);
      const key = wKey | <u64>unit;
      const tag = <u32>(hash >> TAG_SHIFT) | 0x80;
      const slot = <u32>(hash >> SLOT_SHIFT) & hashMask;
      if (<u32>load<u8>(tagTable + <usize>slot) != (tag & 0xff)) break;
      const entry = load<u64>(hashTable + (<usize>slot << 3));
      if ((entry >> CODE_FIELD_BITS) != key) break;
      // The entry's low field is the found phrase's code: w's key bits, shifted.
      wKey = (entry & 0xff_ffff) << 16;
      wHash = hash;
      next += 2;
    }
    if (next >= end) break;

    // Not found in its home slot: probe on (tags 0 are empty), else it is a miss.
    const unit = <u32>load<u16>(next);
    const key = wKey | <u64>unit;
    const hash = extendHash(wHash, unit);
    const tag = (<u32>(hash >> TAG_SHIFT) | 0x80) & 0xff;
    let slot = <u32>(hash >> SLOT_SHIFT) & hashMask;
    let slotTag = <u32>load<u8>(tagTable + <usize>slot);
    let found = false;
    while (slotTag != 0) {
      if (slotTag == tag) {
        const entry = load<u64>(hashTable + (<usize>slot << 3));
        if ((entry >> CODE_FIELD_BITS) == key) {
          wKey = (entry & 0xff_ffff) << 16;
          found = true;
          break;
        }
      }
      slot = (slot + 1) & hashMask;
      slotTag = <u32>load<u8>(tagTable + <usize>slot);
    }
    if (found) {
      wHash = hash;
      next += 2;
      continue;
    }
    const i = <i32>((next - compressInput) >> 1);
    const w = <i32>((wKey >> 16) & <u64>CODE_MASK);

    // A unit seen for the first time becomes an entry at once, before w is written; w + unit is the next.
    // Either entry crossing the budget means dictSize reaches 3 + 65,536 at a creation, so one check does.
    const unitSlot: usize = unitTable + (<usize>unit << 2);
    let unitCode: u32 = load<u32>(unitSlot);
    const unseen = (unitCode & ~PENDING) >> CODE_BITS != gen;
    if (dictSize + <i32>unseen >= DICTIONARY_ENTRIES + 3) return fail(DICTIONARY_BUDGET, 0, DICTIONARY_ENTRIES + 1, i);
    if (unseen) {
      unitCode = <u32>dictSize | unitGeneration | PENDING;
      store<u32>(unitSlot, unitCode);
      if (unit == 95) {
        protoPrefix = dictSize;
        protoStep = 1;
      }
      dictSize++;
    }

    // Emit w: a pending single unit as a literal (code 0 + 8 bits or code 1 + 16 bits), else its code.
    const width = codeWidth(steps);
    let value: u64 = <u64>w;
    let written: u64 = width;
    steps++;
    if (wPending && next - wStart == 2) {
      store<u32>(unitTable + (<usize>wUnit << 2), <u32>w | unitGeneration);
      // unitCode was read before this literal was written: it is the same unit's slot when unit == wUnit.
      if (unit == wUnit) unitCode &= ~PENDING;
      const wide = wUnit >= 256;
      value = (<u64>wUnit << width) | <u64>wide;
      written = width + (wide ? 16 : 8);
      steps++;
    }
    // Branch-free bit writer: ≤ 7 bits wait in acc, a write adds ≤ 33, whole bytes go out every time.
    acc |= value << accBits;
    accBits += written;
    store<u64>(out, acc);
    out += <usize>(accBits >> 3);
    acc >>= accBits & ~(<u64>7);
    accBits &= 7;

    // Add w + unit, counted like the decoder counts it even when lz-string cannot store it.
    if (w == protoPrefix && unit == <u32>load<u16>(PROTO + (<usize>protoStep << 1))) {
      if (protoStep < PROTO_LAST_STEP) {
        store<u8>(tagTable + <usize>slot, <u8>tag);
        store<u64>(hashTable + (<usize>slot << 3), (key << CODE_FIELD_BITS) | <u64>dictSize);
        protoPrefix = dictSize;
        protoStep++;
      }
      // protoStep == 8: the phrase is "__proto__", which lz-string's dictionary silently drops.
    } else {
      store<u8>(tagTable + <usize>slot, <u8>tag);
      store<u64>(hashTable + (<usize>slot << 3), (key << CODE_FIELD_BITS) | <u64>dictSize);
    }
    dictSize++;

    wKey = <u64>(unitCode & CODE_MASK) << 16;
    wHash = extendHash(0, unit);
    // Whether w, while it is this one unit, is still to be written as a literal: no other write comes first.
    wPending = (unitCode & PENDING) != 0;
    wUnit = unit;
    wStart = next;
    next += 2;
  }

  // Emit the last w (no new phrase), then the end code 2, then flush one final character.
  const lastLength = <i32>((end - wStart) >> 1);
  if (units > 0) {
    const width = codeWidth(steps);
    let value: u64 = (wKey >> 16) & <u64>CODE_MASK;
    let written: u64 = width;
    steps++;
    if (wPending && lastLength == 1) {
      const wide = wUnit >= 256;
      value = (<u64>wUnit << width) | <u64>wide;
      written = width + (wide ? 16 : 8);
      steps++;
    }
    acc |= value << accBits;
    accBits += written;
    store<u64>(out, acc);
    out += <usize>(accBits >> 3);
    acc >>= accBits & ~(<u64>7);
    accBits &= 7;
  }
  acc |= <u64>2 << accBits;
  accBits += codeWidth(steps);
  // The last store leaves zeros after the stream's final bit, as bitsToCharacters needs.
  store<u64>(out, acc);

  // Entry content, as the decoder will count it: 1 unit per distinct unit and wLength + 1 per phrase, where
  // the phrases' ws are all the input but the last w, i.e. (units − lastLength) + (entries − distinct units) +
  // distinct units. It cannot cross the budget (≤ 2 × 2,000,000 + 2 × 65,536 units ≈ 4.3 MB of 8 MB, since the
  // output budget caps the input), so it is checked once here as a backstop, not per entry in the loop.
  const contentBytes: i64 = (<i64>(units - lastLength) + <i64>(dictSize - 3)) * 2;
  if (contentBytes > <i64>CONTENT_BYTES) return fail(CONTENT_BUDGET, 0, <i32>contentBytes, units);

  const bits: u64 = (<u64>(out - compressOutput) << 3) + accBits;
  const length = bitsToCharacters(compressOutput, bits);
  if (length > PAYLOAD_CHARS) return fail(PAYLOAD_TOO_LONG, 0, length, units);
  lastEntries = dictSize - 3;
  lastContentBytes = <i32>contentBytes;
  return length;
}
