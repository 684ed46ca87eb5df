// Tool error codes of the session operations (one table) and the one error class that carries them.

/** Every failure of create/decode is one of these; the MCP and REST layers map them, nothing else. */
export const SESSION_ERROR_CODES = {
  /** create: the document breaks the schema, a rule, a size limit or a codec budget. */
  SESSION_VALIDATION_FAILED: 'correct the indicated field or reduce the plan when a size limit was reached, then submit the complete session again',
  /** decode: the link is not a usable v2 snapshot, or its data is not a session. */
  SESSION_DECODE_FAILED: 'check that the complete unmodified snapshot was supplied; a size-limit failure requires a smaller source plan',
} as const;

export type SessionErrorCode = keyof typeof SESSION_ERROR_CODES;

/** One problem: the field path inside the session document (or `session` / `link` for the argument itself) and a sentence. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

/** How many problems the message lists before summarizing the rest. */
export const MAX_LISTED_PROBLEMS = 5;
/** The message limit of the owner's contract. */
export const MAX_MESSAGE_CHARS = 800;

/** Collapses all white space runs (newlines from user values included) into single spaces. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `CODE: path: sentence. path: sentence. (and N more problems)`, whitespace-normalized, at most 800 characters. */
export function formatSessionErrorMessage(code: SessionErrorCode, problems: readonly Problem[]): string {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `${p.path}: ${endSentence(p.message)}`);
  const rest = problems.length - listed.length;
  if (rest > 0) listed.push(`(and ${rest} more problem${rest === 1 ? '' : 's'})`);
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
  /** All problems found (the message lists only the first few). */
  readonly problems: readonly Problem[];

  constructor(code: SessionErrorCode, problems: readonly Problem[]) {
    super(formatSessionErrorMessage(code, problems));
    this.code = code;
    this.problems = problems;
  }
}

/** Quotes a user-supplied value for a message: JSON-quoted, shortened, so messages stay one readable line. */
export function quoteValue(value: string, max = 40): string {
  const short = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(short);
}
