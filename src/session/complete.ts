// A fast check for decoded documents that need nothing filled in: the tolerant schema would return them as they are.
import { MAX_DECODED_DEPTH } from './limits.js';
import type { TolerantSession } from './schema.js';

// Why this exists: a reader that only shows a decoded document (the MCP App's view, given the decode tool's
// structuredContent.session, which the server already read through the tolerant schema) needs every field the
// tolerant schema defines to be there with its type, and nothing more: the canonical rules (lengths, ID characters,
// patterns) are the server's warnings, not the renderers' concern, and a copy of a document that is already complete
// is work for nothing. So this only asks `typeof`, without zod, without copying, in one pass over the known fields.
// Anything else (a missing field, another type, a non-plain object, NaN, deeper nesting than a decoded document may
// have) answers false and goes to the tolerant walk, which fills it in or refuses it: this check never decides a
// refusal. test/unit/session-complete.test.ts checks the contract: accepted ⇒ the tolerant schema accepts the document and
// returns an equal one.

type Fields = Record<string, unknown>;

/** A plain object (no class, no Map or Date: zod would read those as objects with fields missing). */
function isPlainObject(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype;
}

function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

const isText = (value: unknown): boolean => typeof value === 'string';
const isTextOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
/** zod's number: finite. */
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

/** An array of strings; every index is read, so a hole (undefined) is refused as zod refuses it. */
function isTextList(value: unknown): boolean {
  if (!isPlainArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

function hasItemBasics(item: Fields): boolean {
  return isText(item.id) && isText(item.title) && isNumber(item.duration) && isText(item.description) && isText(item.notes) &&
    isTextOrNull(item.fixedStartTime);
}

function isCompleteItems(value: unknown, depth: number): boolean {
  if (!isPlainArray(value) || depth > MAX_DECODED_DEPTH) return false;
  for (let i = 0; i < value.length; i++) if (!isCompleteItem(value[i], depth)) return false;
  return true;
}

function isCompleteItem(item: unknown, depth: number): boolean {
  if (!isPlainObject(item) || !hasItemBasics(item)) return false;
  switch (item.type) {
    case 'block':
      return isTextOrNull(item.blockTypeId) && isTextList(item.personIds) && isText(item.material) && isNumber(item.laneIndex);
    case 'group':
      return isCompleteItems(item.children, depth + 1);
    case 'breakout': {
      if (!isNumber(item.lanes) || typeof item.sameInAllBreakouts !== 'boolean') return false;
      const lanePersons = item.lanePersons;
      if (!isPlainObject(lanePersons)) return false;
      for (const key of Object.keys(lanePersons)) if (!isTextList(lanePersons[key])) return false;
      return isCompleteItems(item.children, depth + 1);
    }
    default:
      return false;
  }
}

/**
 * True only when `value` is a decoded document with every field of the tolerant schema present and of its type: the
 * tolerant schema would return it unchanged, so it can be shown as it is. False says nothing; ask the tolerant walk.
 */
export function isCompleteTolerant(value: unknown): value is TolerantSession {
  if (!isPlainObject(value) || !isText(value.version)) return false;
  const workshop = value.workshop;
  if (!isPlainObject(workshop) || !isText(workshop.title) || !isText(workshop.description) || !isTextOrNull(workshop.date) || !isTextOrNull(workshop.startTime)) return false;
  const { blockTypes, persons } = value;
  if (!isPlainArray(blockTypes) || !isPlainArray(persons)) return false;
  for (let i = 0; i < blockTypes.length; i++) {
    const type = blockTypes[i];
    if (!isPlainObject(type) || !isText(type.id) || !isText(type.name) || !isText(type.color)) return false;
  }
  for (let i = 0; i < persons.length; i++) {
    const person = persons[i];
    if (!isPlainObject(person) || !isText(person.id) || !isText(person.name) || !isText(person.role)) return false;
  }
  return isCompleteItems(value.items, 1);
}
