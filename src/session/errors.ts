// Tool error codes of the session operations (one table) and the one error class that carries them.
import { clip } from './paths.js';

/** Every failure of create/decode is one of these; the MCP and REST layers map them, nothing else. */
export const SESSION_ERROR_CODES = {
  /** create: the document breaks the schema, a rule, a size limit or a codec budget. */
  SESSION_VALIDATION_FAILED: 'correct the indicated field or reduce the plan when a size limit was reached, then submit the complete session again',
  /** decode: the link is not a usable v2 snapshot, or its data is not a session. */
  SESSION_DECODE_FAILED: 'check that the complete unmodified snapshot was supplied; a size-limit failure requires a smaller source plan',
} as const;

export type SessionErrorCode = keyof typeof SESSION_ERROR_CODES;

/**
 * What a problem is, with the figures a sentence needs: the API words it in English (`message`), and the page words
 * it again in its own language from this (planner/i18n). Every problem the checks of a document find has one.
 */
export type ProblemRule =
  | { readonly kind: 'missing' }
  | { readonly kind: 'wrongType'; readonly expected: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'tooFewCharacters'; readonly minimum: number }
  | { readonly kind: 'tooManyCharacters'; readonly maximum: number }
  | { readonly kind: 'tooFewEntries'; readonly minimum: number }
  | { readonly kind: 'tooManyEntries'; readonly maximum: number }
  | { readonly kind: 'belowMinimum'; readonly minimum: number }
  | { readonly kind: 'aboveMaximum'; readonly maximum: number }
  | { readonly kind: 'notAllowed' }
  | { readonly kind: 'wrongItemKind' }
  | { readonly kind: 'format'; readonly format: 'date' | 'time' | 'color' | 'id' }
  | { readonly kind: 'unknownField' }
  | { readonly kind: 'reservedKey' }
  | { readonly kind: 'duplicateId' }
  | { readonly kind: 'undeclaredCategory' }
  | { readonly kind: 'undeclaredPerson' }
  | { readonly kind: 'laneOutsideBreakout' }
  | { readonly kind: 'laneInSameProgramme' }
  | { readonly kind: 'laneBeyondBreakout'; readonly lanes: number }
  | { readonly kind: 'planTooLarge' }
  | { readonly kind: 'brokenCharacters' }
  | { readonly kind: 'notJson' }
  | { readonly kind: 'moreProblems'; readonly count: number };

export type ProblemRuleKind = ProblemRule['kind'];

/** Every kind, for tests that hold each language's table to it. */
export const PROBLEM_RULE_KINDS: readonly ProblemRuleKind[] = [
  'missing', 'wrongType', 'empty', 'tooFewCharacters', 'tooManyCharacters', 'tooFewEntries', 'tooManyEntries', 'belowMinimum',
  'aboveMaximum', 'notAllowed', 'wrongItemKind', 'format', 'unknownField', 'reservedKey', 'duplicateId', 'undeclaredCategory',
  'undeclaredPerson', 'laneOutsideBreakout', 'laneInSameProgramme', 'laneBeyondBreakout', 'planTooLarge', 'brokenCharacters',
  'notJson', 'moreProblems',
];

/** One problem: the field path inside the session document (or `session` / `link` for the argument itself) and a sentence. */
export interface Problem {
  readonly path: string;
  readonly message: string;
  /** What it is, for readers that word it themselves. */
  readonly rule?: ProblemRule;
}

/** How many problems the message lists before summarizing the rest. */
export const MAX_LISTED_PROBLEMS = 5;
/** The longest message (docs/http-api.md, "Bounds of an answer"). */
export const MAX_MESSAGE_CHARS = 800;

/** Collapses all white space runs (newlines from user values included) into single spaces. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `CODE: path: sentence. path: sentence. (and N more problems)`, whitespace-normalized, at most 800 characters.
 * `more`: the check stopped early with further problems it did not count (then "(and more problems)").
 */
export function formatSessionErrorMessage(code: SessionErrorCode, problems: readonly Problem[], more = false): string {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `${p.path}: ${endSentence(p.message)}`);
  const rest = problems.length - listed.length;
  if (more) listed.push(rest > 0 ? `(and more than ${rest} more problems)` : '(and more problems)');
  else if (rest > 0) listed.push(`(and ${rest} more problem${rest === 1 ? '' : 's'})`);
  const text = normalizeWhitespace(`${code}: ${listed.join(' ')}`);
  return text.length <= MAX_MESSAGE_CHARS ? text : `${text.slice(0, MAX_MESSAGE_CHARS - 1).trimEnd()}…`;
}

function endSentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The single error class of create/decode; `message` starts with `${code}: `. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: SessionErrorCode;
  /** The problems found (the message lists only the first few). */
  readonly problems: readonly Problem[];
  /** True when checking stopped early: there are further problems, neither listed nor counted. */
  readonly more: boolean;

  constructor(code: SessionErrorCode, problems: readonly Problem[], more = false) {
    super(formatSessionErrorMessage(code, problems, more));
    this.code = code;
    this.problems = problems;
    this.more = more;
  }
}

/** Quotes a user-supplied value for a message: JSON-quoted, shortened, so messages stay one readable line. */
export function quoteValue(value: string, max = 40): string {
  return JSON.stringify(clip(value, max));
}

/**
 * Not a failure: decode stopped before making the document's text because the caller's weigh
 * (OperationsOptions.weighDecode) found it costlier than it wants to decode here. The caller answers the request
 * elsewhere (the server's offload threads); `cost` is the weigh's figure.
 */
export class DecodeDeclined extends Error {
  override readonly name = 'DecodeDeclined';
  readonly cost: number;

  constructor(cost: number) {
    super('decode declined here: costlier than this caller decodes in place');
    this.cost = cost;
  }
}
