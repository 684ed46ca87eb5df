// File names for downloads, made from the plan's title: readable and portable, in lower-case ASCII.

const MAX_STEM = 80;

/** Letters whose usual ASCII spelling is not what dropping their accent gives. */
const SPELLED: Readonly<Record<string, string>> = {
  ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss', ẞ: 'SS',
  æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', å: 'aa', Å: 'Aa', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'Th',
};

/**
 * "Team-Offsite Q1/2027 – Strategie & Zusammenarbeit" → "team-offsite-q1-2027-strategie-zusammenarbeit.ics": umlauts
 * and ß spelled out, other accents dropped, every other character a separator. Nothing is left that a file system,
 * a shell or a mail client reads specially (no right-to-left overrides, no half of an emoji); an empty title gives
 * "sessionplan".
 */
export function downloadName(title: string, suffix: string, extension: string): string {
  const ascii = title
    .replace(/[äöüÄÖÜßẞæÆœŒøØåÅłŁđĐþÞ]/g, (letter) => SPELLED[letter] ?? letter)
    // Letters and their accents apart (NFKD), then only ASCII letters and digits are kept.
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let stem = ascii.slice(0, MAX_STEM);
  // Cut at a word's end, not inside one, when there is one in the second half.
  if (ascii.length > MAX_STEM) {
    const cut = stem.lastIndexOf('-');
    stem = cut > MAX_STEM / 2 ? stem.slice(0, cut) : stem;
  }
  const name = stem === '' ? 'sessionplan' : stem;
  return `${name}${suffix ? `-${suffix}` : ''}.${extension}`;
}
