// What a request head must be before anything else is read of it, whichever adapter parsed it: HTTP/1, few lines, a Host.
import { LIMITS } from '../limits/table.js';
import type { PlainRefusal } from './refusals.js';
import type { HttpRequest } from './types.js';

/**
 * The refusal of a head this server does not read further, or undefined: a version other than HTTP/1.x (505), more
 * header lines than LIMITS.headLines (431), an HTTP/1.1 request without Host (400, RFC 9112 §3.2).
 */
export function headRefusal(request: HttpRequest): PlainRefusal | undefined {
  if (!request.httpVersion.startsWith('1.')) return 'http-version';
  if (request.headerLines > LIMITS.headLines.value) return 'headers-too-large';
  if (request.httpVersion === '1.1' && request.headers['host'] === undefined) return 'host-missing';
  return undefined;
}
