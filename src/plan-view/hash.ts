// A small, fast, stable text hash for names made from plan text (calendar UIDs, the live run's storage key).

/** FNV-1a of a text, 32 bits, as 8 hex digits; `basis` picks one of several independent hashes. */
export function fnv1a(text: string, basis = 0x811c9dc5): string {
  let hash = basis;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
