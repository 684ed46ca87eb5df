// HTML text building for the plan view: every plan value is escaped, so untrusted text can never become markup.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/g;
/** Without the g flag: test() must not carry lastIndex from one call to the next. */
const HAS_SPECIAL = /[&<>"']/;

/** Text safe inside an element or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return HAS_SPECIAL.test(text) ? text.replace(SPECIAL, (char) => ESCAPES[char]!) : text;
}

/** `<name class="…" data-…="…">inner</name>`; `inner` must already be HTML (escaped text or other tags). */
export function tag(name: string, className: string, inner: string, data?: Record<string, string>): string {
  let attributes = className ? ` class="${className}"` : '';
  if (data) for (const key in data) attributes += ` data-${key}="${escapeHtml(data[key]!)}"`;
  return `<${name}${attributes}>${inner}</${name}>`;
}

/** Same as tag() for plain text content. */
export function textTag(name: string, className: string, text: string, data?: Record<string, string>): string {
  return tag(name, className, escapeHtml(text), data);
}
