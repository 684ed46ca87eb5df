// Field paths in messages: `items[3].children[0].laneIndex`, relative to the session document (no `session.` prefix).

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The name used for the document itself when a problem concerns it as a whole. */
export const ROOT_PATH = 'session';

/** One object key as a path segment: `.name` for identifiers, `["key"]` otherwise (lane indices, odd field names). */
export function keySegment(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
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
