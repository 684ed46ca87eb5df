// Reads expected-failures.yml: the conformance CLI's baseline format (`server:` list of `scenario:check-id`), where every
// entry must be preceded by a `#` comment saying why the failure is expected.
import { readFileSync } from 'node:fs';

export interface ExpectedFailure {
  scenario: string;
  check: string;
  reason: string;
}

export function readBaseline(file: string): ExpectedFailure[] {
  const entries: ExpectedFailure[] = [];
  let comment: string[] = [];
  let inServer = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === '') return;
      if (line.startsWith('#')) {
        comment.push(line.replace(/^#\s?/, ''));
        return;
      }
      if (/^[a-z]+:$/.test(line)) {
        inServer = line === 'server:';
        comment = [];
        return;
      }
      const m = /^- ([a-z0-9-]+):([a-z0-9-]+)$/.exec(line);
      if (!m || !inServer) throw new Error(`${file}:${i + 1}: expected "- scenario:check-id" under "server:", got ${JSON.stringify(raw)}`);
      if (comment.length === 0) throw new Error(`${file}:${i + 1}: ${m[1]}:${m[2]} has no comment above it saying why it is expected to fail`);
      entries.push({ scenario: m[1]!, check: m[2]!, reason: comment.join(' ') });
      comment = [];
    });
  return entries;
}
