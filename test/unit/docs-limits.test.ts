// docs/http-api.md states the limits the code enforces: its limits table is the table of src/limits/table.ts, row by row.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatLimit } from '../../src/limits/format.js';
import { LIMITS, type Limit } from '../../src/limits/table.js';

const doc = (name: string): string => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const httpApi = doc('http-api.md');

/** The limits table as docs/http-api.md must show it, rendered from the declarations. */
function renderedTable(): string {
  const rows = ['| limit | value | beyond it | with `TRANSPORT=uws` |', '|---|---|---|---|'];
  for (const limit of Object.values(LIMITS) as Limit[]) {
    if (limit.docs === undefined) continue;
    const value = limit.docs.value === undefined ? formatLimit(limit) : limit.docs.value.replace('{}', formatLimit(limit));
    const shown = limit.setting === undefined ? value : `\`${limit.setting}\` (${value})`;
    rows.push(`| ${limit.docs.limit} | ${shown} | ${limit.docs.beyond} | ${limit.docs.uws ?? 'the same'} |`);
  }
  return rows.join('\n');
}

describe('the limits of docs/http-api.md', () => {
  it('has the table of src/limits/table.ts exactly (paste the expected text below into the doc when a limit changes)', () => {
    const start = httpApi.indexOf('| limit | value | beyond it |');
    expect(start).toBeGreaterThan(0);
    const end = httpApi.indexOf('\n\n', start);
    expect(httpApi.slice(start, end)).toBe(renderedTable());
  });

  it('states in prose the limits that have no row: heavy bodies, the session JSON text, Retry-After of a busy server', () => {
    expect(httpApi).toContain(`bodies of ${formatLimit(LIMITS.heavyBody)} or more`);
    expect(doc('import-guide.md')).toContain(formatLimit(LIMITS.sessionJsonBytes));
    expect(httpApi).toContain(`Retry-After: ${LIMITS.busyRetryAfter.value}`);
  });

  it('names, for every limit, the files under src/ that read it (a setting: where its value is resolved)', () => {
    for (const [name, limit] of Object.entries(LIMITS) as [string, Limit][]) {
      for (const file of limit.checkedIn.split(', ')) {
        const source = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
        const reads = source.includes(`LIMITS.${name}`) || (limit.setting !== undefined && source.includes(`'${limit.setting}'`));
        expect(reads, `${name} in ${file}`).toBe(true);
      }
    }
  });
});
