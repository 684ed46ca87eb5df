// The MCP prompts (plan_workshop, revise_plan): what a chat sends to start a plan or change one, and their param rules.
import { TEMPLATES } from '../library/templates.js';
import { isPlainObject } from './envelope.js';
import { clipEcho, rpcError } from './errors.js';
import type { Reply, RequestId } from './types.js';
import { MODERN_PROTOCOL_VERSION, type ProtocolRevision } from './version.js';
import { resultReply } from './wire.js';

/** The prompt methods, for the "method must be …" sentences. */
export const PROMPT_METHODS = ['prompts/list', 'prompts/get'] as const;

export function isPromptMethod(method: string): boolean {
  return method === 'prompts/list' || method === 'prompts/get';
}

/** The resource that lists the plans to start from (and the methods), served with the prompts. */
export const TEMPLATES_URI = 'sessionplan://templates';

interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

interface PromptDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** The user message, from arguments already checked (every required one is a string). */
  text(args: Readonly<Record<string, string>>): string;
}

const TEMPLATE_KEYS = TEMPLATES.map((template) => template.key);

export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'plan_workshop',
    title: 'Plan a workshop',
    description: 'Design a complete workshop plan for a goal and return its Sessionplan snapshot link.',
    arguments: [
      { name: 'goal', description: 'What the workshop is for, and for whom.', required: true },
      { name: 'duration', description: 'How long it may take, e.g. "90 minutes" or "9:00 to 17:00".', required: false },
      { name: 'participants', description: 'How many people, and who they are.', required: false },
      { name: 'template', description: `A plan to start from: ${TEMPLATE_KEYS.join(', ')} (resource ${TEMPLATES_URI}).`, required: false },
      { name: 'language', description: 'de or en: the language of the plan (default: the language of the goal).', required: false },
    ],
    text(args) {
      const lines = [`Design a workshop plan for this goal: ${args['goal']}`];
      if (args['duration']) lines.push(`It may take: ${args['duration']}.`);
      if (args['participants']) lines.push(`Participants: ${args['participants']}.`);
      if (args['language']) lines.push(`Write the plan in ${args['language'] === 'de' ? 'German' : 'English'}.`);
      if (args['template']) {
        lines.push(
          `Start from the template "${args['template']}": read the resource ${TEMPLATES_URI} and take that template's document in the plan's language as the first draft, then adapt it to the goal.`,
        );
      } else {
        lines.push(`Plans to start from, and facilitation methods with their durations, are in the resource ${TEMPLATES_URI}.`);
      }
      lines.push(
        'Give every block a clear title, a duration in minutes, a description participants can follow and notes for the facilitator; group related blocks, use a breakout where people work in parallel, and plan breaks.',
        'Then call create_session_link with the complete session document (the schema is in its input schema) and return structuredContent.link verbatim, with a short summary of the plan.',
      );
      return lines.join('\n');
    },
  },
  {
    name: 'revise_plan',
    title: 'Revise a plan',
    description: 'Change an existing Sessionplan plan as asked and return the new snapshot link.',
    arguments: [
      { name: 'link', description: 'The snapshot link of the plan (a #data=v2:… URL).', required: true },
      { name: 'change', description: 'What to change, in plain words.', required: true },
    ],
    text(args) {
      return [
        `Call decode_session_link with this link and use structuredContent.session as the source of truth: ${args['link']}`,
        `Make this change to the plan: ${args['change']}`,
        'Keep everything else as it is, and keep the timings consistent (durations add up, breaks stay).',
        'Then submit the complete updated session to create_session_link (patches are not supported) and return structuredContent.link verbatim, saying briefly what changed.',
      ].join('\n');
    },
  },
];

/** A prompt as prompts/list shows it in one revision: `title` exists from 2025-06-18. */
export function listedPrompt(prompt: PromptDefinition, revision: ProtocolRevision): Record<string, unknown> {
  const listed: Record<string, unknown> = { name: prompt.name };
  if (revision !== '2025-03-26') listed.title = prompt.title;
  listed.description = prompt.description;
  listed.arguments = prompt.arguments.map((argument) => ({ name: argument.name, description: argument.description, required: argument.required }));
  return listed;
}

const ARGUMENT_CHARS = 10_000;

/**
 * prompts/get: the prompt's messages for its arguments. An unknown prompt, a missing required argument, one of the
 * wrong type or one the prompt does not declare is -32602, naming it.
 */
export function getPrompt(id: RequestId, params: unknown, revision: ProtocolRevision, modernMeta: string): Reply {
  const name = isPlainObject(params) ? params.name : undefined;
  if (typeof name !== 'string') return rpcError('invalidParams', id, 'params.name must be a string');
  const prompt = PROMPTS.find((entry) => entry.name === name);
  if (prompt === undefined) return rpcError('invalidParams', id, `params.name names no prompt of this server; its prompts are ${PROMPTS.map((entry) => entry.name).join(' and ')}`, { name: clipEcho(name) });
  const raw = (params as Record<string, unknown>).arguments;
  if (raw !== undefined && !isPlainObject(raw)) return rpcError('invalidParams', id, 'params.arguments must be an object');
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    const declared = prompt.arguments.find((argument) => argument.name === key);
    if (declared === undefined) return rpcError('invalidParams', id, `params.arguments has "${clipEcho(key)}", which ${prompt.name} does not take`);
    if (typeof value !== 'string') return rpcError('invalidParams', id, `params.arguments.${key} must be a string`);
    if (value.length > ARGUMENT_CHARS) return rpcError('invalidParams', id, `params.arguments.${key} has more than ${ARGUMENT_CHARS.toLocaleString('en-US')} characters`);
    args[key] = value.trim();
  }
  for (const argument of prompt.arguments) {
    if (argument.required && !args[argument.name]) return rpcError('invalidParams', id, `params.arguments.${argument.name} is required`);
  }
  const template = args['template'];
  if (template && !TEMPLATE_KEYS.includes(template)) return rpcError('invalidParams', id, `params.arguments.template must be one of ${TEMPLATE_KEYS.join(', ')}`);
  const language = args['language'];
  if (language && language !== 'de' && language !== 'en') return rpcError('invalidParams', id, 'params.arguments.language must be de or en');
  const result = JSON.stringify({ description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }] });
  return resultReply(id, revision === MODERN_PROTOCOL_VERSION ? `{"resultType":"complete",${result.slice(1, -1)},"_meta":${modernMeta}}` : result);
}
