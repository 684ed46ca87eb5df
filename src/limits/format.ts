// A limit's value in the words of the docs and of the messages that name it: 2,000,000 bytes, 16 KB, 5 s, 1 KB/s.
import type { Limit } from './table.js';

const KB = 1024;
const MB = 1024 * KB;

function bytes(value: number): string {
  if (value >= MB && value % MB === 0) return `${value / MB} MB`;
  if (value >= KB && value % KB === 0) return `${value / KB} KB`;
  return `${value.toLocaleString('en-US')} bytes`;
}

/** The value of `limit` with its unit, as docs/http-api.md and the refusals that name it write it. */
export function formatLimit(limit: Pick<Limit, 'value' | 'unit'>): string {
  const { value } = limit;
  switch (limit.unit) {
    case 'bytes':
      return bytes(value);
    case 'bytes/s':
      return `${bytes(value)}/s`;
    case 'count':
      return value.toLocaleString('en-US');
    case 'ms':
      return value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`;
    case 's':
      return `${value} s`;
    case 'share':
      return `${Math.round(value * 100)} %`;
  }
}
