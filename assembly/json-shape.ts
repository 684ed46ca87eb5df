// What a JSON text in linear memory costs once parsed and written again, read without parsing it: how many values and
// containers it holds (JSON.parse pays per value, ~0.3 µs per object) and how many bytes JSON.stringify writes for it.

import { BACKSLASH, CLOSE_LIST, CLOSE_OBJECT, COLON, COMMA, OPEN_LIST, OPEN_OBJECT, QUOTE } from "./json-text";

/** JSON values of the last measured text: strings (keys not counted), numbers, literals, objects and arrays. */
export let shapeValues: i32 = 0;
/** Objects and arrays of the last measured text. */
export let shapeContainers: i32 = 0;
/** Numbers of the last measured text counted as MAX_NUMBER_BYTES (not integers of up to 15 digits). */
export let shapeLooseNumbers: i32 = 0;
/** Unpaired surrogates in the strings of the last measured text, as units or `\u` escapes (each costs V8's slow path). */
export let shapeLoneSurrogates: i32 = 0;

/** A number's shortest form is at most this long (`-0.0000012345678901234567`), however it was written. */
const MAX_NUMBER_BYTES: i32 = 25;
/** An integer of at most this many digits is written back as it was (JSON has no leading zeros; `-0` becomes `0`). */
const EXACT_INTEGER_DIGITS: i32 = 15;

/** UTF-8 bytes JSON.stringify writes for one UTF-16 unit that is not part of a surrogate pair. */
function unitBytes(unit: u32): i32 {
  if (unit < 0x20) return unit == 0x08 || unit == 0x09 || unit == 0x0a || unit == 0x0c || unit == 0x0d ? 2 : 6;
  if (unit == QUOTE || unit == BACKSLASH) return 2;
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit <= 0xdfff) return 6; // a lone surrogate: well-formed JSON.stringify writes \udxxx
  return 3;
}

function hexValue(unit: u32): i32 {
  if (unit >= 0x30 && unit <= 0x39) return <i32>(unit - 0x30);
  if (unit >= 0x61 && unit <= 0x66) return <i32>(unit - 0x57);
  if (unit >= 0x41 && unit <= 0x46) return <i32>(unit - 0x37);
  return -1;
}

function isNumberUnit(unit: u32): bool {
  return (unit >= 0x30 && unit <= 0x39) || unit == 0x2d || unit == 0x2b || unit == 0x2e || unit == 0x65 || unit == 0x45;
}

/** Where a string's content ends (at its closing quote), adding the bytes it is written as to `written`. */
let written: i64 = 0;
/** Unpaired surrogates seen by measureString since the measure began. */
let lone: i32 = 0;

function measureString(at: usize, end: usize): usize {
  written += 2; // the quotes
  // A high surrogate waits for the unit after it: a low one makes a pair (4 bytes), anything else leaves it lone.
  let high = false;
  while (at < end) {
    let unit = <u32>load<u16>(at);
    if (unit == QUOTE) break;
    at += 2;
    if (unit == BACKSLASH && at < end) {
      const escaped = <u32>load<u16>(at);
      at += 2;
      if (escaped == 0x75 && at + 8 <= end) {
        const a = hexValue(<u32>load<u16>(at));
        const b = hexValue(<u32>load<u16>(at + 2));
        const c = hexValue(<u32>load<u16>(at + 4));
        const d = hexValue(<u32>load<u16>(at + 6));
        if ((a | b | c | d) < 0) unit = 0x3f; // not JSON: JSON.parse refuses the text anyway
        else {
          unit = <u32>((a << 12) | (b << 8) | (c << 4) | d);
          at += 8;
        }
      } else unit = escaped == 0x62 ? 0x08 : escaped == 0x66 ? 0x0c : escaped == 0x6e ? 0x0a : escaped == 0x72 ? 0x0d : escaped == 0x74 ? 0x09 : escaped;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff && high) {
      written += 4;
      high = false;
      continue;
    }
    if (high) {
      written += 6;
      lone++;
    }
    high = unit >= 0xd800 && unit <= 0xdbff;
    if (!high) {
      written += unitBytes(unit);
      if (unit >= 0xdc00 && unit <= 0xdfff) lone++;
    }
  }
  if (high) {
    written += 6;
    lone++;
  }
  return at < end ? at + 2 : end;
}

/**
 * Measures the JSON text of `units` UTF-16 units at `start`: sets shapeValues and shapeContainers and returns the
 * bytes JSON.stringify(JSON.parse(text)) writes in UTF-8, or more: exact for strings (escapes decoded and written
 * again as stringify writes them, lone surrogates as six bytes), literals, brackets and integers of up to 15 digits;
 * 25 bytes for any other number, and every member of an object even where a later duplicate key replaces it (an upper
 * bound for both).
 * White space counts nothing. A text that is not JSON gives some answer; JSON.parse then refuses it. The measure
 * stops early once it has seen more than `maxValues` values or `maxContainers` objects and arrays (the counts then say
 * so, the bytes are what was seen).
 */
export function measureJson(start: usize, units: i32, maxValues: i32, maxContainers: i32): i64 {
  const end: usize = start + (<usize>units << 1);
  written = 0;
  lone = 0;
  let strings: i32 = 0;
  let scalars: i32 = 0;
  let containers: i32 = 0;
  let keys: i32 = 0;
  let loose: i32 = 0;
  let at: usize = start;
  while (at < end) {
    const unit = <u32>load<u16>(at);
    if (unit == QUOTE) {
      strings++;
      at = measureString(at + 2, end);
    } else if (unit == OPEN_LIST || unit == OPEN_OBJECT) {
      containers++;
      written++;
      at += 2;
      if (containers > maxContainers) break;
    } else if (unit == CLOSE_LIST || unit == CLOSE_OBJECT || unit == COMMA) {
      written++;
      at += 2;
    } else if (unit == COLON) {
      keys++;
      written++;
      at += 2;
    } else if (isNumberUnit(unit)) {
      // One number token: exact when it is a plain integer, else the longest form any number can take.
      const first = at;
      let plain = true;
      let digits: i32 = 0;
      if (unit == 0x2d) at += 2;
      while (at < end) {
        const u = <u32>load<u16>(at);
        if (!isNumberUnit(u)) break;
        if (u >= 0x30 && u <= 0x39) digits++;
        else plain = false;
        at += 2;
      }
      const length = <i32>((at - first) >> 1);
      // An integer of up to 15 digits is written as it was (`-0` as `0`: one byte less), any other number in at most 25.
      if (plain && digits >= 1 && digits <= EXACT_INTEGER_DIGITS) written += length;
      else {
        written += MAX_NUMBER_BYTES;
        loose++;
      }
      scalars++;
      if (scalars > maxValues) break;
    } else if (unit == 0x74 || unit == 0x66 || unit == 0x6e) {
      // true, false, null: counted as one value, their letters one byte each.
      scalars++;
      while (at < end) {
        const u = <u32>load<u16>(at);
        if (u < 0x61 || u > 0x7a) break;
        written++;
        at += 2;
      }
    } else {
      at += 2; // white space (or what JSON.parse refuses)
    }
  }
  shapeValues = strings - keys + scalars + containers;
  shapeContainers = containers;
  shapeLooseNumbers = loose;
  shapeLoneSurrogates = lone;
  return written;
}
