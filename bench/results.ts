// Where a benchmark run's figures go: bench/results/local/ (git-ignored) every time; with --save also the committed
// file under bench/results/ that docs/benchmarks.md quotes (or a gate compares against).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const LOCAL = fileURLToPath(new URL('./results/local/', import.meta.url));

/** True when the command line asks to replace the committed figures (`npm run bench:… -- --save`). */
export function savingResults(argv: readonly string[] = process.argv): boolean {
  return argv.includes('--save');
}

/**
 * Writes `figures` as JSON to bench/results/local/<localName ?? name>, and with --save to bench/results/<name> too.
 * Returns the paths written, relative to the repository root, for the run's last line.
 */
export function writeResults(name: string, figures: unknown, options: { localName?: string; save?: boolean } = {}): string[] {
  const text = `${JSON.stringify(figures, null, 2)}\n`;
  mkdirSync(LOCAL, { recursive: true });
  const written = [`bench/results/local/${options.localName ?? name}`];
  writeFileSync(`${LOCAL}${options.localName ?? name}`, text);
  if (options.save ?? savingResults()) {
    writeFileSync(`${RESULTS}${name}`, text);
    written.push(`bench/results/${name}`);
  }
  return written;
}
