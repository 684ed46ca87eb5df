// A conservative fast check for documents that are already exactly canonical; everything else goes through zod.
import * as z from 'zod';
import {
  COLOR_PATTERN,
  LANE_KEY_PATTERN,
  MAX_DURATION_MINUTES,
  MAX_LANES,
  MAX_LIST_ENTRIES,
  MAX_NAME_CHARS,
  MAX_TITLE_CHARS,
  MIN_LANES,
  SESSION_VERSION,
  TIME_PATTERN,
  type Session,
} from './schema.js';

// Why this exists: a canonical document (every link create makes, and what well-behaved clients send) needs no
// defaults and no reordering, so the only question is "valid or not". A plain walk answers that several times faster
// than zod builds its copy. It accepts only documents the zod schema would return unchanged (same keys, same order,
// same values): anything unusual, including every invalid document, falls through to zod, which stays the single
// authority for messages, defaults and normalization. test/unit/session-canonical.test.ts checks that contract.

const DATE_PATTERN = z.regexes.date;

const SESSION_KEYS = ['version', 'workshop', 'blockTypes', 'persons', 'items'];
const WORKSHOP_KEYS = ['title', 'description', 'date', 'startTime'];
const BLOCK_TYPE_KEYS = ['id', 'name', 'color'];
const PERSON_KEYS = ['id', 'name', 'role'];
const BLOCK_KEYS = ['type', 'id', 'title', 'duration', 'blockTypeId', 'personIds', 'description', 'notes', 'material', 'fixedStartTime', 'laneIndex'];
const GROUP_KEYS = ['type', 'id', 'title', 'duration', 'description', 'notes', 'fixedStartTime', 'children'];
const BREAKOUT_KEYS = ['type', 'id', 'title', 'duration', 'description', 'notes', 'fixedStartTime', 'lanes', 'sameInAllBreakouts', 'lanePersons', 'children'];

type Fields = Record<string, unknown>;

/** A plain object (JSON-like: no class, no toJSON surprises) whose own keys are exactly `keys`, in that order. */
function hasExactKeys(value: unknown, keys: readonly string[]): value is Fields {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (own[i] !== keys[i]) return false;
  return true;
}

function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

const isText = (value: unknown): boolean => typeof value === 'string';
const isBounded = (value: unknown, max: number): boolean => typeof value === 'string' && value.length >= 1 && value.length <= max;
/** ID_PATTERN as a loop: about 5× faster than the regex on short IDs, and a large plan holds 300,000 of them. */
function isId(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 128) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}
const isTimeOrNull = (value: unknown): boolean => value === null || (typeof value === 'string' && TIME_PATTERN.test(value));
const isIntIn = (value: unknown, min: number, max: number): boolean => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

function isIdList(value: unknown): boolean {
  if (!isPlainArray(value) || value.length > MAX_LIST_ENTRIES) return false;
  for (const entry of value) if (!isId(entry)) return false;
  return true;
}

function hasItemBasics(item: Fields): boolean {
  return isId(item.id) && isBounded(item.title, MAX_TITLE_CHARS) && isIntIn(item.duration, 0, MAX_DURATION_MINUTES) &&
    isText(item.description) && isText(item.notes) && isTimeOrNull(item.fixedStartTime);
}

function isBlock(item: unknown): boolean {
  return hasExactKeys(item, BLOCK_KEYS) && item.type === 'block' && hasItemBasics(item) &&
    (item.blockTypeId === null || isId(item.blockTypeId)) && isIdList(item.personIds) && isText(item.material) &&
    isIntIn(item.laneIndex, 0, MAX_LANES - 1);
}

function isBreakout(item: unknown): boolean {
  if (!hasExactKeys(item, BREAKOUT_KEYS) || item.type !== 'breakout' || !hasItemBasics(item)) return false;
  if (!isIntIn(item.lanes, MIN_LANES, MAX_LANES) || typeof item.sameInAllBreakouts !== 'boolean') return false;
  const lanePersons = item.lanePersons;
  if (typeof lanePersons !== 'object' || lanePersons === null || Object.getPrototypeOf(lanePersons) !== Object.prototype) return false;
  for (const key of Object.keys(lanePersons)) if (!LANE_KEY_PATTERN.test(key) || !isIdList((lanePersons as Fields)[key])) return false;
  return isPlainArray(item.children) && item.children.every(isBlock);
}

function isGroup(item: unknown): boolean {
  return hasExactKeys(item, GROUP_KEYS) && item.type === 'group' && hasItemBasics(item) &&
    isPlainArray(item.children) && item.children.every((child) => isBlock(child) || isBreakout(child));
}

/**
 * Object members (own keys, summed over every object) of a document isExactlyCanonical accepted: its JSON text has
 * exactly this many, unless it repeats a key (JSON.parse keeps the last).
 */
export function canonicalMemberCount(session: Session): number {
  let count = SESSION_KEYS.length + WORKSHOP_KEYS.length + session.blockTypes.length * BLOCK_TYPE_KEYS.length + session.persons.length * PERSON_KEYS.length;
  for (const item of session.items) count += itemMembers(item);
  return count;
}

function itemMembers(item: Session['items'][number]): number {
  if (item.type === 'block') return BLOCK_KEYS.length;
  let count = item.type === 'group' ? GROUP_KEYS.length : BREAKOUT_KEYS.length + Object.keys(item.lanePersons).length;
  for (const child of item.children) count += itemMembers(child);
  return count;
}

/**
 * True only when `value` is a session document that the canonical schema accepts and would return unchanged: then it
 * can be used as the normalized document as it is. False says nothing; ask the zod schema.
 */
export function isExactlyCanonical(value: unknown): value is Session {
  if (!hasExactKeys(value, SESSION_KEYS) || value.version !== SESSION_VERSION) return false;
  const workshop = value.workshop;
  if (!hasExactKeys(workshop, WORKSHOP_KEYS) || !isBounded(workshop.title, MAX_TITLE_CHARS) || !isText(workshop.description)) return false;
  if (!(workshop.date === null || (typeof workshop.date === 'string' && DATE_PATTERN.test(workshop.date))) || !isTimeOrNull(workshop.startTime)) return false;
  const { blockTypes, persons, items } = value;
  if (!isPlainArray(blockTypes) || !isPlainArray(persons) || !isPlainArray(items)) return false;
  if (blockTypes.length > MAX_LIST_ENTRIES || persons.length > MAX_LIST_ENTRIES) return false;
  for (const type of blockTypes)
    if (!hasExactKeys(type, BLOCK_TYPE_KEYS) || !isId(type.id) || !isBounded(type.name, MAX_NAME_CHARS) || typeof type.color !== 'string' || !COLOR_PATTERN.test(type.color)) return false;
  for (const person of persons)
    if (!hasExactKeys(person, PERSON_KEYS) || !isId(person.id) || !isBounded(person.name, MAX_NAME_CHARS) || !isText(person.role)) return false;
  for (const item of items) if (!isBlock(item) && !isGroup(item) && !isBreakout(item)) return false;
  return true;
}
