// WASM exports of the codec: numeric only (lengths, pointers, statuses); src/codec/core.ts is the glue.
//
// Protocol per call: `xBegin(n)` lays out memory for n input units and returns where to write them
// (or a negative status), the caller writes the input, `x(n)` runs and returns the output length
// (or a negative status) with the output at `outputPointer()`. A payload may instead be written as one
// byte per character and decoded with `decompressAscii(n)` (the JS side checked it is ASCII), and a decompressed
// output may be checked for over-long JSON lists (`outputHasListOver`) and narrowed to one byte per unit with
// `narrowOutput(n, limit)` before it is read.

import { initAlphabet } from "./alphabet";
import { checkCompressInput, compressUnits, lastContentBytes, lastEntries } from "./compress";
import { checkDecompressInput, decompressChars } from "./decompress";
import { clearFailure, fail, failAmount, failPosition, failReason } from "./failure";
import { hasListOver } from "./json-lists";
import { measureJson, shapeContainers, shapeLoneSurrogates, shapeLooseNumbers, shapeValues } from "./json-shape";
import { findCanonicalSpan } from "./json-span";
import { narrowUnits } from "./narrow";
import { compressInput, compressOutput, decompressInput, decompressOutput, layoutCompress, layoutDecompress, requiredBytes } from "./layout";
import { MEMORY_LIMIT } from "./status";

initAlphabet();

let output: usize = 0;

/** Checks the input against the budgets and reserves memory; returns the UTF-16 input pointer. */
export function compressBegin(units: i32): i32 {
  clearFailure();
  const check = checkCompressInput(units);
  if (check < 0) return check;
  if (!layoutCompress(units)) return memoryLimit();
  return <i32>compressInput;
}

/** Compresses the units written at compressBegin's pointer; returns the payload length (ASCII bytes). */
export function compress(units: i32): i32 {
  clearFailure();
  if (!layoutCompress(units)) return memoryLimit();
  output = compressOutput;
  return compressUnits(units);
}

/** After a successful compress: the dictionary entries its payload makes the decoder create (budget 65,536). */
export function compressedEntries(): i32 {
  return lastEntries;
}

/** After a successful compress: the dictionary entry content in bytes its decoding counts (budget 8,000,000). */
export function compressedContentBytes(): i32 {
  return lastContentBytes;
}

/** Checks the payload length (before decoding) and reserves memory; returns the UTF-16 input pointer. */
export function decompressBegin(chars: i32): i32 {
  clearFailure();
  const check = checkDecompressInput(chars);
  if (check < 0) return check;
  if (!layoutDecompress(chars)) return memoryLimit();
  return <i32>decompressInput;
}

/** Decodes the payload written at decompressBegin's pointer; returns the number of UTF-16 units. */
export function decompress(chars: i32): i32 {
  return decompressWritten(chars, false);
}

/** decompress() for a payload written at decompressBegin's pointer as one byte per character (ASCII). */
export function decompressAscii(chars: i32): i32 {
  return decompressWritten(chars, true);
}

function decompressWritten(chars: i32, asBytes: bool): i32 {
  clearFailure();
  const check = checkDecompressInput(chars);
  if (check < 0) return check;
  if (!layoutDecompress(chars)) return memoryLimit();
  output = decompressOutput;
  // Bytes are decoded where they are (no widening pass: it touched twice the input memory).
  return asBytes ? decompressChars<u8>(chars) : decompressChars<u16>(chars);
}

/**
 * After a decompression: when every one of its `units` output units is below `limit` (128 or 256), rewrites the output
 * as one byte per unit at outputPointer() and returns 1; otherwise returns 0 and leaves it as UTF-16.
 */
export function narrowOutput(units: i32, limit: i32): i32 {
  return narrowUnits(output, units, <u32>limit);
}

/**
 * After a decompression, before narrowOutput: 1 when the output, read as JSON text, has a list of more than
 * `maxEntries` entries, else 0.
 */
export function outputHasListOver(units: i32, maxEntries: i32): i32 {
  return hasListOver(output, units, maxEntries);
}

/**
 * After a decompression, before narrowOutput: measures the output as JSON text (json-shape.ts) and returns the bytes
 * JSON.stringify would write for its parsed value, at most (a count below 2^31: each unit gives at most 25);
 * `jsonValues()` and `jsonContainers()` then tell how many values and objects or arrays it holds. It stops once past
 * `maxValues` scalars (strings aside) or `maxContainers` objects and arrays: the counts then pass the limit.
 */
export function outputJsonShape(units: i32, maxValues: i32, maxContainers: i32): i32 {
  return <i32>measureJson(output, units, maxValues, maxContainers);
}

export function jsonValues(): i32 {
  return shapeValues;
}

export function jsonContainers(): i32 {
  return shapeContainers;
}

/** Numbers counted at the most bytes a number can be written as (any but integers of up to 15 digits). */
export function jsonLooseNumbers(): i32 {
  return shapeLooseNumbers;
}

/** Unpaired surrogates in the measured text's strings, raw or escaped. */
export function jsonLoneSurrogates(): i32 {
  return shapeLoneSurrogates;
}

/**
 * For a JSON text written at compressBegin's pointer (`units` units, then `pathKeys` keys: a unit of length and the
 * key's units each): where the value at that path starts when it is written exactly as JSON.stringify writes it, or
 * -1; `spanEnd()` and `spanMembers()` tell where it ends and how many object members it holds (json-span.ts).
 */
export function canonicalSpan(units: i32, pathKeys: i32): i32 {
  return findCanonicalSpan(compressInput, units, pathKeys);
}

export { spanEnd, spanMembers } from "./json-span";

/** Where the last successful call left its output. */
export function outputPointer(): i32 {
  return <i32>output;
}

export function errorReason(): i32 {
  return failReason;
}

export function errorAmount(): i32 {
  return failAmount;
}

export function errorPosition(): i32 {
  return failPosition;
}

function memoryLimit(): i32 {
  return fail(MEMORY_LIMIT, 0, <i32>min(requiredBytes, <usize>i32.MAX_VALUE), 0);
}
