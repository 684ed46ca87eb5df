// Validation of both directions: strict checks before create, tolerant reading (with warnings) after decode.
import { MAX_LISTED_PROBLEMS, SessionError, type Problem } from './errors.js';
import { jsonText, type JsonText } from './json-pieces.js';
import { describeType } from './issues.js';
import { oversizedListProblem } from './overflow.js';
import { countOpeners, nestsDeeperThan, SCAN_BEFORE_PARSE_OPENERS, textNestsDeeperThan } from './json-scan.js';
import { estimatedSizeProblem, jsonSizeProblem } from './json-size.js';
import { MAX_DECODED_DEPTH } from './limits.js';
import { MAX_ITEMS } from './constants.js';
import { checkRules, countRawItems, tooManyItemsProblem } from './rules.js';
import { sessionSchema, tolerantSessionSchema, type Session, type TolerantSession } from './schema.js';
import { checkShape, isUnchanged, unchangedMembers } from './walk.js';

/**
 * A valid document in normalized form and its JSON text (keys in the order of docs/import-guide.md, defaults filled):
 * one string, or pieces (json-pieces.ts) for a long text when asked for them.
 */
export interface ValidatedSession<Json extends JsonText = string> {
  readonly session: Session;
  readonly json: Json;
}

export interface ValidateOptions {
  /** Give a long JSON text in pieces (for large requests, which are answered in offload threads). */
  readonly large: boolean;
  /**
   * For an input that is already canonical: its JSON text as it came, if that is exactly what JSON.stringify would
   * write for a value of `members` object members (own keys summed over every object), else undefined. Saves serializing it again.
   */
  readonly ownJson?: (members: number) => string | undefined;
}

/** A decoded document and the canonical rules it breaks (tolerated, reported). */
export interface ReadSession {
  readonly session: TolerantSession;
  readonly warnings: readonly string[];
}

/**
 * Decoding reads documents up to this many times over the item and list limits (with warnings); beyond, it refuses:
 * a 2 MB document of 5,000 broken items would cost the schema about a second to report.
 */
export const DECODE_TOLERANCE = 2;

/** Warnings listed in a decode result before the rest is summarized. */
export const MAX_WARNINGS = 20;
/** Longest warning (path and sentence); longer ones are cut with `…`. Keys in paths are cut at 40 characters already. */
export const MAX_WARNING_CHARS = 300;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(problems: readonly Problem[]): SessionError {
  return new SessionError('SESSION_VALIDATION_FAILED', problems);
}

/**
 * The checks of create that need no JSON text (shape, rules, item and list limits), cheap refusals first, and the
 * normalized document. What a reader of a create input needs (the MCP App's view draws its plan); create itself
 * also checks the size of the JSON text (validateForCreate).
 */
export function checkForCreate(input: unknown): Session {
  return checkedForCreate(input).session;
}

/** checkForCreate, and the object members of an input that is its own normalized form (-1 for one that was walked). */
function checkedForCreate(input: unknown): { session: Session; members: number } {
  if (!isObject(input)) throw invalid([{ path: 'session', message: `must be a session document (a JSON object), not ${describeType(input)}`, rule: { kind: 'wrongType', expected: 'object' } }]);

  // Before anything walks the whole tree: too many items (or cyclic ones) are refused at once.
  const rawCount = countRawItems(input);
  if (rawCount > MAX_ITEMS) throw invalid([tooManyItemsProblem(rawCount, false)]);
  const oversized = oversizedListProblem(input);
  if (oversized) throw invalid([oversized]);

  // A canonical document needs no schema walk. Anything else is walked once: the walk stops at the first problem past
  // the listed ones and never enters unknown values, and its output's size is checked on its JSON below.
  let session: Session;
  const members = unchangedMembers(sessionSchema, input, 'create');
  if (members >= 0) session = input as Session;
  else {
    // The message lists MAX_LISTED_PROBLEMS; the walk stops at the next one (the message then says "and more").
    const checked = checkShape(sessionSchema, input, { mode: 'create', limit: MAX_LISTED_PROBLEMS, build: true });
    if (!checked.ok) throw new SessionError('SESSION_VALIDATION_FAILED', checked.problems, checked.more);
    session = checked.data;
  }
  // Rules before serializing: a document of 450,000 dangling IDs is refused without writing its 2 MB of JSON.
  const ruleProblems = checkRules(session);
  if (ruleProblems.length > 0) throw invalid(ruleProblems);
  return { session, members };
}

/** Checks a create input completely (shape, rules, limits); cheap refusals (item count, list lengths) come first. */
export function validateForCreate(input: unknown): ValidatedSession;
export function validateForCreate(input: unknown, options: ValidateOptions): ValidatedSession<JsonText>;
export function validateForCreate(input: unknown, options?: ValidateOptions): ValidatedSession<JsonText> {
  const { session, members } = checkedForCreate(input);
  // A walked document over the limit by a lower bound is refused without being serialized. A canonical input skips
  // this pass: it is the common case (documents that came from a link), and its JSON is checked exactly below.
  if (session !== input) {
    const estimated = estimatedSizeProblem(session);
    if (estimated) throw invalid([estimated]);
  }
  // Only JSON values got this far, so this cannot throw; it is the text the link encodes.
  const json = (session === input ? options?.ownJson?.(members) : undefined) ?? jsonText(session, options?.large === true);
  const size = jsonSizeProblem(json);
  if (size) throw invalid([size]);
  return { session, json };
}

function decodeFailed(message: string): SessionError {
  return new SessionError('SESSION_DECODE_FAILED', [{ path: 'link', message }]);
}

const tooDeep = (): SessionError => decodeFailed(`the snapshot data nests deeper than ${MAX_DECODED_DEPTH} levels, which no session document does`);

/** Reads the JSON text from a snapshot: canonical documents pass unchanged, older ones are filled in and warned about. */
export function readDecodedSession(jsonText: string): ReadSession {
  // Unknown fields are kept as they are, so their nesting must stay within what a JSON writer can serialize. A text
  // with many brackets is checked before parsing (parsing deep nesting alone is slow); any other
  // after parsing, and only when it is not canonical (the schema bounds a canonical document's nesting).
  const openers = countOpeners(jsonText, SCAN_BEFORE_PARSE_OPENERS);
  const scanned = openers > SCAN_BEFORE_PARSE_OPENERS;
  if (scanned && textNestsDeeperThan(jsonText, MAX_DECODED_DEPTH)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(jsonText);
  } catch {
    throw decodeFailed('the snapshot data is not valid JSON; the link is probably truncated or modified, so supply the complete unmodified snapshot link');
  }
  if (!isObject(value)) throw decodeFailed(`the snapshot data is ${describeType(value)}, not a session document object`);

  // Older documents may break the limits (a warning), but not by so much that reading them costs seconds.
  const rawCount = countRawItems(value, MAX_ITEMS * DECODE_TOLERANCE);
  if (rawCount > MAX_ITEMS * DECODE_TOLERANCE) throw new SessionError('SESSION_DECODE_FAILED', [tooManyItemsProblem(rawCount, false)]);
  const oversized = oversizedListProblem(value, DECODE_TOLERANCE);
  if (oversized) throw new SessionError('SESSION_DECODE_FAILED', [oversized]);

  // Links made by create are canonical: the fast check and the rule walk, nothing else.
  if (isUnchanged(sessionSchema, value, 'create')) return { session: value, warnings: toWarnings([], false, checkRules(value)) };
  if (!scanned && openers > MAX_DECODED_DEPTH && nestsDeeperThan(value, MAX_DECODED_DEPTH)) throw tooDeep();

  const tolerant = checkShape(tolerantSessionSchema, value, { mode: 'decode', limit: MAX_LISTED_PROBLEMS, build: true });
  if (!tolerant.ok) throw new SessionError('SESSION_DECODE_FAILED', tolerant.problems, tolerant.more);
  // What the document breaks of the canonical shape (unknown fields, values out of range) becomes warnings; the
  // walk stops once the warning list is full. A document that is canonical in all but key order has none.
  const shape = checkShape(sessionSchema, tolerant.data, { mode: 'decode', limit: MAX_WARNINGS, build: false });
  const shapeWarnings = shape.ok ? [] : shape.problems;
  const more = !shape.ok && shape.more;
  return { session: tolerant.data, warnings: toWarnings(shapeWarnings, more, more ? [] : checkRules(tolerant.data)) };
}

/** One warning line: whitespace-normalized and at most MAX_WARNING_CHARS long. */
function warningLine(problem: Problem): string {
  const line = `${problem.path}: ${problem.message}`.replace(/\s+/g, ' ');
  return line.length <= MAX_WARNING_CHARS ? line : `${line.slice(0, MAX_WARNING_CHARS - 1)}…`;
}

/**
 * At most MAX_WARNINGS lines, then "(and N more warnings)"; when the shape walk stopped early (`more`), the rules
 * are not checked and the count is unknown: "(and more warnings)".
 */
function toWarnings(shape: readonly Problem[], more: boolean, rules: readonly Problem[]): string[] {
  const problems = [...shape, ...rules];
  const listed = problems.slice(0, MAX_WARNINGS).map(warningLine);
  const rest = problems.length - listed.length;
  if (more) listed.push('(and more warnings)');
  else if (rest > 0) listed.push(`(and ${rest} more warning${rest === 1 ? '' : 's'})`);
  return listed;
}
