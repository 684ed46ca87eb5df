// Turns zod issues into problems: the field path plus one plain sentence saying what is wrong.
import type * as z from 'zod';
import type { Problem, ProblemRule } from './errors.js';
import { formatPath, RESERVED_KEYS } from './paths.js';

type Issue = z.core.$ZodIssue;

/** Fields whose "unset" value is null, so a missing one gets that hint. */
const NULLABLE_FIELDS = new Set(['date', 'startTime', 'blockTypeId', 'fixedStartTime']);

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

/** JSON-ish name of a value's type, as a user would call it. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      // JSON.parse reads a number beyond the double range (1e400) as ±Infinity: say what the client wrote.
      if (!Number.isFinite(value)) return 'a number too large to represent';
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    default:
      return `a ${typeof value} (not JSON)`;
  }
}

/** create reports unknown fields as errors; decode keeps them and says so in a warning. */
export type IssueMode = 'create' | 'decode';

/** The rule a zod issue stands for (errors.ts ProblemRule). */
function issueRule(issue: Issue, field: PropertyKey | undefined, mode: IssueMode): ProblemRule {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? { kind: 'missing' } : { kind: 'wrongType', expected: issue.expected };
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? { kind: 'empty' } : { kind: 'tooFewCharacters', minimum: Number(issue.minimum) };
      if (issue.origin === 'array') return { kind: 'tooFewEntries', minimum: Number(issue.minimum) };
      return { kind: 'belowMinimum', minimum: Number(issue.minimum) };
    case 'too_big':
      if (issue.origin === 'string') return { kind: 'tooManyCharacters', maximum: Number(issue.maximum) };
      if (issue.origin === 'array') return { kind: 'tooManyEntries', maximum: Number(issue.maximum) };
      return { kind: 'aboveMaximum', maximum: Number(issue.maximum) };
    case 'invalid_value':
      return issue.input === undefined ? { kind: 'missing' } : { kind: 'notAllowed' };
    case 'invalid_union':
      return { kind: 'wrongItemKind' };
    case 'invalid_key':
      return { kind: 'notAllowed' };
    case 'unrecognized_keys':
      return mode === 'create' && typeof field === 'string' && RESERVED_KEYS.has(field) ? { kind: 'reservedKey' } : { kind: 'unknownField' };
    case 'invalid_format':
      // The schema's own messages (schema.ts) say which pattern a regex check holds.
      return { kind: 'format', format: issue.format === 'date' ? 'date' : /HH:MM/.test(issue.message) ? 'time' : /#rrggbb/.test(issue.message) ? 'color' : 'id' };
    default:
      return { kind: 'notAllowed' };
  }
}

function issueSentence(issue: Issue, field: PropertyKey | undefined, mode: IssueMode): string {
  switch (issue.code) {
    case 'invalid_type': {
      const nullable = typeof field === 'string' && NULLABLE_FIELDS.has(field);
      const expected = `${EXPECTED[issue.expected] ?? issue.expected}${nullable ? ' or null' : ''}`;
      if (issue.input === undefined) return `is missing; it is required and must be ${expected}${nullable ? ' (use null when unset)' : ''}`;
      return `must be ${expected}, not ${describeType(issue.input)}`;
    }
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must have at least ${String(issue.minimum)} characters`;
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} entries`;
      return `must be at least ${String(issue.minimum)}, not ${String(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'string')
        return `must have at most ${String(issue.maximum)} characters, not ${typeof issue.input === 'string' ? issue.input.length : 'more'}`;
      if (issue.origin === 'array') return `must have at most ${String(issue.maximum)} entries`;
      return `must be at most ${String(issue.maximum)}, not ${String(issue.input)}`;
    case 'invalid_value': {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join(' or ');
      return issue.input === undefined ? `is missing; it is required and must be ${allowed}` : `must be ${allowed}`;
    }
    case 'invalid_union':
      // zod adds the discriminator's allowed values to the issue without declaring them in its type.
      const { options } = issue as { options?: unknown };
      if (Array.isArray(options)) {
        const listed = options.map((o) => JSON.stringify(o)).join(', ');
        return `must be one of ${listed} here (top level: block, group, breakout; inside a group: block, breakout; inside a breakout: block)`;
      }
      return 'does not match any allowed form';
    case 'invalid_key':
      return 'is not a lane index; keys must be lane numbers "0" to "9" below the breakout\'s lanes';
    case 'unrecognized_keys':
      if (mode === 'create' && typeof field === 'string' && RESERVED_KEYS.has(field)) return RESERVED_KEY_SENTENCE;
      return mode === 'create'
        ? 'is not a field of this object; remove it (only documented fields are allowed)'
        : 'is not a field of the current format; it was kept as is';
    default:
      return issue.message;
  }
}

/** The sentence for a reserved key name (`__proto__`, `constructor`, `prototype`) in a create input. */
export const RESERVED_KEY_SENTENCE = 'is a reserved key name that cannot be stored safely; remove it (only documented fields are allowed)';

/**
 * One problem for one issue, its path prefixed with `prefix` (where the walker is). An `unrecognized_keys` issue is
 * expected to name one key (the walker reports each unknown key on its own, so each can be cut off by the budget).
 */
export function problemFromIssue(issue: Issue, prefix: readonly PropertyKey[], mode: IssueMode): Problem {
  const segments = issue.path.length === 0 ? prefix : [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { path: formatPath([...segments, key]), message: issueSentence(issue, key, mode), rule: issueRule(issue, key, mode) };
  }
  const field = segments[segments.length - 1];
  return { path: formatPath(segments), message: issueSentence(issue, field, mode), rule: issueRule(issue, field, mode) };
}
