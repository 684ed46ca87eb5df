// The values of a table's cells as a plan has them: minutes from "30", "1:30" or "1,5 h"; a clock time from "9:00",
// "09.00" or "9 Uhr"; people from "Jana, Timo und Özlem"; and a cell our download kept from being run as a formula.

/** Minutes, or null when the text is no duration. `hours`: the column counts hours ("Dauer (h)"), so "1,5" is 90. */
export function parseDuration(text: string, hours: boolean): number | null {
  const value = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const clock = /^(\d{1,2}):([0-5]\d)(?::00)?$/.exec(value);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  const parts = /^(?:(\d+(?:[.,]\d+)?) ?(?:h|hrs?|hours?|std\.?|stunden?))?(?: ?(\d+) ?(?:m|min\.?|mins?|minutes?|minuten))?$/.exec(value);
  if (parts && (parts[1] !== undefined || parts[2] !== undefined)) {
    const minutes = Number((parts[1] ?? '0').replace(',', '.')) * 60 + Number(parts[2] ?? '0');
    return Number.isInteger(minutes) ? minutes : null;
  }
  const number = /^\d+(?:[.,]\d+)?$/.exec(value);
  if (number === null) return null;
  const minutes = Number(value.replace(',', '.')) * (hours ? 60 : 1);
  return Number.isInteger(minutes) ? minutes : null;
}

/** "HH:MM", or null when the text is no time of day. */
export function parseClock(text: string): string | null {
  const value = text.trim().toLowerCase();
  const match = /^(\d{1,2})(?:[:.](\d{2})(?::\d{2})?)?(?: ?(?:uhr|h))?$/.exec(value);
  if (match === null || (match[2] === undefined && !/(uhr|h)$/.test(value))) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Names in a cell, in order: split at commas, semicolons, slashes, "&", "und" and "and"; "Name (Role)" keeps its role. */
export function splitPeople(text: string): { name: string; role: string }[] {
  return text
    .split(/\s*(?:[,;/&+]|\bund\b|\band\b)\s*/i)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const role = /^(.*?)\s*\(([^)]*)\)$/.exec(part);
      return role ? { name: role[1]!.trim(), role: role[2]!.trim() } : { name: part, role: '' };
    });
}

/** A cell as written before the download put an apostrophe in front of it ("'=x" → "=x"; see table-csv.ts). */
export function unescapedCell(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/** A cell a spreadsheet would run: it starts with "=". */
export function isFormula(text: string): boolean {
  return text.trimStart().startsWith('=');
}

/** Text that went through two encodings (UTF-8 read as Latin-1): "Ã¤" for "ä", "â€“" for "–". */
export function looksDoublyEncoded(text: string): boolean {
  return /[ÃÂ][\u0080-\u00bf]|â€/.test(text);
}
