// File names for downloads, made from the plan's title: readable, without characters file systems refuse.

const MAX_STEM = 80;

/** "Design Sprint Kickoff" → "Design-Sprint-Kickoff-agenda.md"; an empty title gives "sessionplan…". */
export function downloadName(title: string, suffix: string, extension: string): string {
  const stem = title
    .normalize('NFC')
    // Characters Windows, macOS or Linux refuse or treat specially, and control characters.
    // eslint-disable-next-line no-control-regex
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, MAX_STEM);
  const name = stem === '' ? 'sessionplan' : stem;
  return `${name}${suffix ? `-${suffix}` : ''}.${extension}`;
}
