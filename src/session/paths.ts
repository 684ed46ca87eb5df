// Field paths in messages: `items[3].children[0].laneIndex`, relative to the session document (no `session.` prefix).

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The name used for the document itself when a problem concerns it as a whole. */
export const ROOT_PATH = 'session';

/**
 * Keys that cannot be kept safely in a JavaScript object: as a plain property `__proto__` sets the prototype, and
 * `constructor` / `prototype` are what prototype-pollution payloads aim at. create refuses them; decode keeps them
 * as own properties and names them in a warning.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Longest key shown in a path; longer ones are cut with `…` so a 90,000-character key costs a message 40 characters. */
export const MAX_PATH_KEY_CHARS = 40;

/** A user-supplied text shortened to `max` characters with `…` (quoted values and keys in messages). */
export function clip(text: string, max = MAX_PATH_KEY_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One object key as a path segment: `.name` for identifiers, `["key"]` otherwise (lane indices, odd or reserved names). */
export function keySegment(key: string): string {
  return key.length <= MAX_PATH_KEY_CHARS && IDENTIFIER.test(key) && !RESERVED_KEYS.has(key) ? `.${key}` : `[${JSON.stringify(clip(key))}]`;
}

/** Joins path segments: numbers as `[n]`, identifiers as `.name`, other keys (lane indices, odd field names) as `["key"]`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += keySegment(String(segment));
  }
  if (path === '') return ROOT_PATH;
  return path.startsWith('.') ? path.slice(1) : path;
}
