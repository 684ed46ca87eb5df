// Snapshot links (docs/http-api.md): `<base>#data=v2:<payload>` built from a payload, and the payload read back from what a user pastes.
import { SessionError } from './errors.js';

export const DEFAULT_BASE_URL = 'https://sessionplan.de/';
export const LINK_PREFIX = 'v2:';
/** lz-string's URI-safe alphabet. */
export const PAYLOAD_PATTERN = /^[A-Za-z0-9+\-$]+$/;

/** A short scheme-like prefix such as `v1:` (the payload alphabet has no colon, so a colon means a prefix). */
const FORMAT_PREFIX = /^([A-Za-z][A-Za-z0-9]{0,9}):/;
/** A format version: `v1:` came before v2, `v3:` and later come after it. */
const VERSION_PREFIX = /^v([0-9]{1,3})$/;
/** Sessionplan's own form of a link to a plan stored on its server: `/s/<id>`, on any host that serves Sessionplan. */
const DYNAMIC_PATH = /^\/s\/[^/?#]+\/?$/;
const SUPPLY = 'supply a #data=v2:... snapshot link instead';

/**
 * What a text that yields no readable v2 payload was found to be, so that each reader (the API's message, the page's
 * sentence) can name it: nothing at all, no snapshot, Sessionplan's dynamic server link, a legacy pre-v2 code, a
 * snapshot of a newer format, or a v2 snapshot whose payload was cut or changed.
 */
export type LinkRefusalKind = 'empty' | 'no-snapshot' | 'dynamic-link' | 'legacy-code' | 'newer-format' | 'broken';

/** A decode refused for its link alone, before any payload is read; `kind` says what the text was found to be. */
export class LinkRefusal extends SessionError {
  readonly kind: LinkRefusalKind;

  constructor(kind: LinkRefusalKind, message: string) {
    super('SESSION_DECODE_FAILED', [{ path: 'link', message }]);
    this.kind = kind;
  }
}

/** The link for a payload; a fragment already on the base URL is dropped. */
export function buildLink(baseUrl: string, payload: string): string {
  const hash = baseUrl.indexOf('#');
  const base = hash === -1 ? baseUrl : baseUrl.slice(0, hash);
  return `${base}#data=${LINK_PREFIX}${payload}`;
}

function refuse(kind: LinkRefusalKind, message: string): LinkRefusal {
  return new LinkRefusal(kind, message);
}

/** The refusal of a code that has a format prefix other than `v2:` (`v1:`, `v3:`, `abc:`) or none after `#data=`. */
function otherFormat(code: string): LinkRefusal {
  const prefix = FORMAT_PREFIX.exec(code)?.[1];
  if (prefix === undefined) return refuse('legacy-code', `is a legacy pre-v2 snapshot code (no v2: prefix), which these tools do not support; ${SUPPLY}`);
  const version = VERSION_PREFIX.exec(prefix)?.[1];
  if (version !== undefined && Number(version) > 2) {
    return refuse('newer-format', `is a snapshot of a newer format ("${prefix}:") than this server reads (v2:); ${SUPPLY}, or open it with a newer Sessionplan`);
  }
  if (version !== undefined) return refuse('legacy-code', `is a legacy pre-v2 snapshot code ("${prefix}:"), which these tools do not support; ${SUPPLY}`);
  return refuse('no-snapshot', `holds no snapshot: "${prefix}:" is not a Sessionplan snapshot format; ${SUPPLY}`);
}

/** The refusal of a URL or path with no `#data=` fragment: Sessionplan's dynamic link form, or no snapshot at all. */
function noFragment(text: string): LinkRefusal {
  let path = text;
  if (URL_LIKE.test(text)) {
    try {
      path = new URL(text).pathname;
    } catch {
      path = '';
    }
  }
  if (DYNAMIC_PATH.test(path.split(/[?#]/)[0]!)) {
    return refuse('dynamic-link', `is a dynamic server link (/s/…), which these tools do not support; ${SUPPLY}`);
  }
  return refuse('no-snapshot', `holds no snapshot: the address has no #data=v2: fragment; ${SUPPLY}`);
}

/** Percent-decodes when the text contains escapes (a copied, encoded fragment); the payload alphabet never contains `%`. */
function percentDecoded(text: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw refuse('broken', `contains broken percent-encoding; ${SUPPLY}`);
  }
}

/** The value of the `data` parameter of a fragment such as `data=v2:…` or `view=1&data=v2:…`, or null. */
function dataParameter(fragment: string): string | null {
  for (const part of fragment.split('&')) if (part.startsWith('data=')) return part.slice('data='.length);
  return null;
}

/**
 * What a URL parser removes before it reads a URL: ASCII tab and newlines anywhere (a link wrapped in a mail or a
 * chat), and C0 controls and spaces at both ends; other white space around the text goes too (a pasted link).
 */
function cleaned(input: string): string {
  return input.replace(/[\t\n\r]/g, '').trim();
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The payload after `v2:` from a whole URL, a `#data=v2:…` hash or a bare `v2:…` code. Spaces inside the payload
 * are read as `+` (as lz-string does, since forms turn `+` into spaces); nothing is ever fetched.
 *
 * A link is read the way a browser reads it, so that the server and the page (which hands this function
 * `location.hash`) always see the same plan: the fragment starts at the first literal `#`, and only the fragment is
 * percent-decoded. An escaped `%23` in the path or query is not a fragment, whatever it decodes to. A text with no
 * `#` at all that is not a URL (a bare code, or a whole link percent-encoded once) is percent-decoded and read again.
 */
export function parseLink(input: string): string {
  return payloadOf(cleaned(input), true);
}

function payloadOf(text: string, mayDecodeWhole: boolean): string {
  if (text === '') throw refuse('empty', `is empty; ${SUPPLY}`);
  const hash = text.indexOf('#');
  let code: string;
  if (hash !== -1) {
    // Trimmed again: a browser keeps white space at the end of a fragment, percent-encoded.
    const data = dataParameter(percentDecoded(text.slice(hash + 1)).trim());
    if (data === null) throw noFragment(text.slice(0, hash));
    code = data;
  } else if (URL_LIKE.test(text) || text.startsWith('/')) {
    throw noFragment(text);
  } else if (mayDecodeWhole && /%[0-9A-Fa-f]{2}/.test(text)) {
    // Read once more as what it encodes: a browser cannot open it as it is, so there is no other reading to match.
    return payloadOf(cleaned(percentDecoded(text)), false);
  } else if (text.startsWith(LINK_PREFIX)) code = text;
  else if (FORMAT_PREFIX.test(text)) code = text; // a bare code with another prefix, refused below
  else throw refuse('no-snapshot', `holds no snapshot: it is not a link, and a bare code starts with v2:; ${SUPPLY}`);

  if (!code.startsWith(LINK_PREFIX)) throw otherFormat(code);
  const payload = code.slice(LINK_PREFIX.length).replace(/ /g, '+');
  if (payload === '') throw refuse('broken', `the snapshot payload after v2: is empty; ${SUPPLY}`);
  if (!PAYLOAD_PATTERN.test(payload)) {
    const bad = /[^A-Za-z0-9+\-$]/.exec(payload);
    const where = bad ? ` (${JSON.stringify(bad[0])} at position ${bad.index + 1})` : '';
    throw refuse('broken', `the snapshot payload contains a character outside A-Z a-z 0-9 + - $${where}; supply the complete unmodified snapshot link`);
  }
  return payload;
}
