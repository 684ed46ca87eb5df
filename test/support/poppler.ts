// Test helper: poppler-utils (pdftotext, pdftoppm) read back the PDFs the browser prints; missing tools fail with the install line.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const INSTALL_POPPLER_HINT = 'install poppler-utils: apt-get install poppler-utils';

function tool(name: 'pdftotext' | 'pdftoppm'): string {
  const path = `/usr/bin/${name}`;
  if (!existsSync(path)) throw new Error(`${name} is not at ${path}; ${INSTALL_POPPLER_HINT}`);
  return path;
}

/** The PDF's text with its layout kept (columns side by side stay on one line); pages are separated by form feeds. */
export function pdfText(pdfPath: string): string {
  return execFileSync(tool('pdftotext'), ['-layout', '-enc', 'UTF-8', pdfPath, '-'], { encoding: 'utf8', timeout: 30_000 });
}

/** Renders every page to `<prefix>-<n>.png` at `dpi` for people to look at. */
export function pdfToPngs(pdfPath: string, prefix: string, dpi = 60): void {
  execFileSync(tool('pdftoppm'), ['-png', '-r', String(dpi), pdfPath, prefix], { timeout: 60_000 });
}
