// The sentence naming the methods a server answers in an era, for -32601: its base methods plus what its extras add.
import { PROMPT_METHODS } from './prompts.js';
import { RESOURCE_METHODS } from './resources.js';
import type { StaticResults } from './results.js';

/** "a, b or c": the era's `base` methods, then the resource and prompt methods where the server has them. */
export function methodList(base: readonly string[], results: StaticResults): string {
  const methods = [...base, ...(results.resources === undefined ? [] : RESOURCE_METHODS), ...(results.prompts === undefined ? [] : PROMPT_METHODS)];
  return `${methods.slice(0, -1).join(', ')} or ${methods.at(-1)}`;
}
