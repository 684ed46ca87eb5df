// Export of the plan as a readable JSON file and the file's name.
import type { Session } from '../session/schema.js';

/** The document as a readable JSON file (two-space indent; keys in schema order). */
export function exportJson(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/** A file name from the workshop: `sessionplan-<title>-<date>.json`, letters and digits kept, the rest dashes. */
export function exportFileName(session: Session): string {
  const slug = session.workshop.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const parts = ['sessionplan', slug, session.workshop.date ?? ''].filter((part) => part !== '');
  return `${parts.join('-')}.json`;
}
