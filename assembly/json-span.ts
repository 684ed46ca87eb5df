// Where a JSON text holds the value at a path of object keys, when that value is written exactly as JSON.stringify
// would write it again: a create can then compress the request's own text instead of serializing the parsed document.
//
// Why it is sound: JSON.stringify(JSON.parse(t)) differs from t only through whitespace, escapes other than the ones
// stringify writes, number spellings, keys JSON.parse merges (duplicates) and keys V8 reorders (array indices, which
// come first, ascending). The value is accepted only without whitespace, with stringify's escapes, with integers of at
// most 15 digits, and with array-index keys first and ascending; duplicates are left to the caller, who compares the member
// count found here with the keys the parsed value has (src/session/canonical.ts). Anything else is "not found", and
// the caller serializes as before.

import { BACKSLASH, CLOSE_LIST, CLOSE_OBJECT, COLON, COMMA, OPEN_LIST, OPEN_OBJECT, QUOTE, skipString, TEXT_ENDED } from "./json-text";

const MINUS: u32 = 0x2d;
const ZERO: u32 = 0x30;
const NINE: u32 = 0x39;

/** Nesting the value may have (a session document has 6 levels); deeper values are not accepted. */
const MAX_DEPTH: i32 = 64;
/** Integers JSON.stringify writes back digit for digit: below 2^53, i.e. at most 15 digits for sure. */
const MAX_INTEGER_DIGITS: i32 = 15;
/** Array indices (which every engine puts first, ascending) are below 2^32 − 1, so of at most 10 digits. */
const MAX_ARRAY_INDEX_EXCLUSIVE: i64 = 4294967295;
const MAX_INDEX_KEY_DIGITS: i32 = 10;

/** Not found (also: not written as stringify writes it, or not JSON); the same value as skipString's TEXT_ENDED. */
const NONE: usize = TEXT_ENDED;
/** In an object, the order of the keys so far: the last array-index key, -1 before any, NAMED after another key. */
const NAMED: i64 = i64.MAX_VALUE;

/** Where the value found last starts and ends (pointers), and its object members. */
let valueStart: usize = 0;
let valueEnd: usize = 0;
let members: i32 = 0;
let textStart: usize = 0;

export function spanEnd(): i32 {
  return <i32>((valueEnd - textStart) >>> 1);
}

export function spanMembers(): i32 {
  return members;
}

/**
 * The JSON text of `units` UTF-16 units at `start` is followed by `pathKeys` keys, each one unit of length and its
 * units. Returns the index where the value at that path starts, with spanEnd() and spanMembers() (object members in
 * the value), or -1. Each key on the path must occur once, unescaped, in its object.
 */
export function findCanonicalSpan(start: usize, units: i32, pathKeys: i32): i32 {
  const end = start + (<usize>units << 1);
  textStart = start;
  members = 0;
  return walkPath(skipSpace(start, end), end, end, pathKeys) == NONE ? -1 : <i32>((valueStart - start) >>> 1);
}

/** At `at` the value for the key at `key` (and the `keys` after it); returns where that value ends, or NONE. */
function walkPath(at: usize, end: usize, key: usize, keys: i32): usize {
  if (keys == 0) {
    valueStart = at;
    valueEnd = canonicalValue(at, end, 0);
    return valueEnd;
  }
  if (at >= end || <u32>load<u16>(at) != OPEN_OBJECT) return NONE;
  const keyLength = <usize>load<u16>(key);
  const nextKey = key + 2 + (keyLength << 1);
  let found = false;
  at = skipSpace(at + 2, end);
  if (at < end && <u32>load<u16>(at) == CLOSE_OBJECT) return NONE;
  while (at < end) {
    if (<u32>load<u16>(at) != QUOTE) return NONE;
    const nameStart = at + 2;
    at = skipString(nameStart, end);
    if (at == NONE) return NONE;
    const nameUnits = (at - 2 - nameStart) >>> 1;
    const matches = nameUnits == keyLength && memory.compare(nameStart, key + 2, keyLength << 1) == 0;
    at = skipSpace(at, end);
    if (at >= end || <u32>load<u16>(at) != COLON) return NONE;
    at = skipSpace(at + 2, end);
    if (matches) {
      // JSON.parse keeps the last of equal keys: a second one (or the first, had it been escaped) is not followed.
      if (found) return NONE;
      found = true;
      at = walkPath(at, end, nextKey, keys - 1);
    } else {
      if (hasEscape(nameStart, nameUnits)) return NONE;
      at = skipValue(at, end);
    }
    if (at == NONE) return NONE;
    at = skipSpace(at, end);
    if (at >= end) return NONE;
    const unit = <u32>load<u16>(at);
    if (unit == CLOSE_OBJECT) return found ? at + 2 : NONE;
    if (unit != COMMA) return NONE;
    at = skipSpace(at + 2, end);
  }
  return NONE;
}

function hasEscape(at: usize, units: usize): bool {
  for (let i: usize = 0; i < units; i++) if (<u32>load<u16>(at + (i << 1)) == BACKSLASH) return true;
  return false;
}

function isSpace(unit: u32): bool {
  return unit == 0x20 || unit == 0x0a || unit == 0x0d || unit == 0x09;
}

function skipSpace(at: usize, end: usize): usize {
  while (at < end && isSpace(<u32>load<u16>(at))) at += 2;
  return at;
}

/** Past any JSON value (the text parsed already, so only its extent matters). */
function skipValue(at: usize, end: usize): usize {
  let depth: i32 = 0;
  while (at < end) {
    const unit = <u32>load<u16>(at);
    if (unit == QUOTE) {
      at = skipString(at + 2, end);
      if (at == NONE) return NONE;
      if (depth == 0) return at;
      continue;
    }
    if (unit == OPEN_OBJECT || unit == OPEN_LIST) depth++;
    else if (unit == CLOSE_OBJECT || unit == CLOSE_LIST) {
      if (depth == 0) return at; // the end of a scalar in a container
      depth--;
      if (depth == 0) return at + 2;
    } else if (depth == 0 && (unit == COMMA || isSpace(unit))) return at;
    at += 2;
  }
  return depth == 0 ? at : NONE;
}

/** A value as JSON.stringify writes it, from `at`; returns where it ends, or NONE. */
function canonicalValue(at: usize, end: usize, depth: i32): usize {
  if (at >= end) return NONE;
  const unit = <u32>load<u16>(at);
  if (unit == QUOTE) return canonicalString(at + 2, end);
  if (unit == OPEN_OBJECT) return depth < MAX_DEPTH ? canonicalEntries(at + 2, end, depth + 1, CLOSE_OBJECT) : NONE;
  if (unit == OPEN_LIST) return depth < MAX_DEPTH ? canonicalEntries(at + 2, end, depth + 1, CLOSE_LIST) : NONE;
  if (unit == MINUS || (unit >= ZERO && unit <= NINE)) return canonicalInteger(at, end);
  if (unit == 0x74) return literal(at, end, 0x74, 0x72, 0x75, 0x65, 0); // true
  if (unit == 0x66) return literal(at, end, 0x66, 0x61, 0x6c, 0x73, 0x65); // false
  if (unit == 0x6e) return literal(at, end, 0x6e, 0x75, 0x6c, 0x6c, 0); // null
  return NONE;
}

function literal(at: usize, end: usize, a: u32, b: u32, c: u32, d: u32, e: u32): usize {
  const units: usize = e == 0 ? 4 : 5;
  if (at + (units << 1) > end) return NONE;
  if (<u32>load<u16>(at) != a || <u32>load<u16>(at, 2) != b || <u32>load<u16>(at, 4) != c || <u32>load<u16>(at, 6) != d) return NONE;
  if (e != 0 && <u32>load<u16>(at, 8) != e) return NONE;
  return at + (units << 1);
}

/** -?(0|[1-9][0-9]*) with at most 15 digits, not -0, and no fraction or exponent after it. */
function canonicalInteger(at: usize, end: usize): usize {
  const negative = <u32>load<u16>(at) == MINUS;
  if (negative) at += 2;
  if (at >= end) return NONE;
  const first = <u32>load<u16>(at);
  if (first < ZERO || first > NINE) return NONE;
  let digits: i32 = 0;
  if (first == ZERO) {
    if (negative) return NONE;
    at += 2;
    digits = 1;
  } else {
    while (at < end) {
      const unit = <u32>load<u16>(at);
      if (unit < ZERO || unit > NINE) break;
      at += 2;
      digits++;
    }
  }
  if (digits > MAX_INTEGER_DIGITS) return NONE;
  if (at < end) {
    const next = <u32>load<u16>(at);
    if (next == 0x2e || next == 0x65 || next == 0x45 || (next >= ZERO && next <= NINE)) return NONE;
  }
  return at;
}

/** The entries of a list or an object (`close` says which), from after its opening bracket; returns where it ends. */
function canonicalEntries(at: usize, end: usize, depth: i32, close: u32): usize {
  if (at < end && <u32>load<u16>(at) == close) return at + 2;
  // Engines put array-index keys first, ascending: they must already stand so.
  let keyOrder: i64 = -1;
  while (at < end) {
    if (close == CLOSE_OBJECT) {
      if (<u32>load<u16>(at) != QUOTE) return NONE;
      const nameStart = at + 2;
      at = canonicalString(nameStart, end);
      if (at == NONE || at >= end || <u32>load<u16>(at) != COLON) return NONE;
      members++;
      const index = indexKey(nameStart, (at - 2 - nameStart) >>> 1);
      if (index < 0) keyOrder = NAMED;
      else if (index <= keyOrder) return NONE;
      else keyOrder = index;
      at += 2;
    }
    at = canonicalValue(at, end, depth);
    if (at == NONE || at >= end) return NONE;
    const unit = <u32>load<u16>(at);
    if (unit == close) return at + 2;
    if (unit != COMMA) return NONE;
    at += 2;
  }
  return NONE;
}

/** A key's value when it is an array index (the canonical decimal of an integer below 2^32 − 1), else -1. */
function indexKey(at: usize, units: usize): i64 {
  if (units == 0 || units > <usize>MAX_INDEX_KEY_DIGITS || (units > 1 && <u32>load<u16>(at) == ZERO)) return -1;
  let value: i64 = 0;
  for (let i: usize = 0; i < units; i++) {
    const unit = <u32>load<u16>(at + (i << 1));
    if (unit < ZERO || unit > NINE) return -1;
    value = value * 10 + <i64>(unit - ZERO);
  }
  return value < MAX_ARRAY_INDEX_EXCLUSIVE ? value : -1;
}

/**
 * From after an opening quote to after the closing one, when the string is written as JSON.stringify writes it: raw
 * units except quote, backslash, controls and lone surrogates; escapes only for those. Eight units per look.
 */
function canonicalString(at: usize, end: usize): usize {
  const quotes = i16x8.splat(<i16>QUOTE);
  const backslashes = i16x8.splat(<i16>BACKSLASH);
  const controlLimit = i16x8.splat(0x20);
  const surrogateMask = i16x8.splat(<i16>0xf800);
  const surrogates = i16x8.splat(<i16>0xd800);
  while (at < end) {
    if (at + 16 <= end) {
      const lanes = v128.load(at);
      const special = v128.or(
        v128.or(i16x8.eq(lanes, quotes), i16x8.eq(lanes, backslashes)),
        v128.or(i16x8.lt_u(lanes, controlLimit), i16x8.eq(v128.and(lanes, surrogateMask), surrogates)),
      );
      const mask = i16x8.bitmask(special);
      if (mask == 0) {
        at += 16;
        continue;
      }
      // Straight to the first unit that needs a look.
      at += <usize>ctz(mask) << 1;
    }
    const unit = <u32>load<u16>(at);
    if (unit == QUOTE) return at + 2;
    if (unit == BACKSLASH) {
      at = canonicalEscape(at, end);
      if (at == NONE) return NONE;
    } else if (unit < 0x20) return NONE;
    else if ((unit & 0xfc00) == 0xd800) {
      // A high surrogate must be followed by a low one (a lone one stringify would escape).
      if (at + 2 >= end || (<u32>load<u16>(at, 2) & 0xfc00) != 0xdc00) return NONE;
      at += 4;
    } else if ((unit & 0xfc00) == 0xdc00) return NONE;
    else at += 2;
  }
  return NONE;
}

/** At a backslash: past an escape JSON.stringify writes (\" \\ \b \f \n \r \t, or \u00xx for another control). */
function canonicalEscape(at: usize, end: usize): usize {
  if (at + 2 >= end) return NONE;
  const kind = <u32>load<u16>(at, 2);
  if (kind == QUOTE || kind == BACKSLASH || kind == 0x62 || kind == 0x66 || kind == 0x6e || kind == 0x72 || kind == 0x74) return at + 4;
  if (kind != 0x75 || at + 12 > end) return NONE;
  if (<u32>load<u16>(at, 4) != ZERO || <u32>load<u16>(at, 6) != ZERO) return NONE;
  const high = <u32>load<u16>(at, 8);
  const low = <u32>load<u16>(at, 10);
  const lowValue: u32 = low >= ZERO && low <= NINE ? low - ZERO : low >= 0x61 && low <= 0x66 ? low - 0x61 + 10 : 16;
  if ((high != ZERO && high != 0x31) || lowValue == 16) return NONE;
  const control = ((high - ZERO) << 4) | lowValue;
  // \b \t \n \f \r have short forms, which stringify uses.
  if (control == 0x08 || control == 0x09 || control == 0x0a || control == 0x0c || control == 0x0d) return NONE;
  return at + 12;
}
