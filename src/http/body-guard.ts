// A request body's JSON shape, checked before JSON.parse: how deep it nests and how wide its objects are (limits/table.ts).
import { LIMITS } from '../limits/table.js';
import { costlyJsonSentence, costlyJsonShape } from '../session/json-scan.js';

const DEPTH = LIMITS.requestDepth.value;
const MEMBERS = LIMITS.requestObjectMembers.value;

/**
 * Why this body must not be parsed, in one sentence ("the request body nests deeper than 100 levels"), or undefined. The
 * MCP endpoint answers it with -32600, on HTTP and on stdio; REST with 400.
 */
export function costlyBodyProblem(text: string): string | undefined {
  const shape = costlyJsonShape(text, DEPTH, MEMBERS);
  return shape === undefined ? undefined : costlyJsonSentence(shape, 'the request body', DEPTH, MEMBERS);
}
