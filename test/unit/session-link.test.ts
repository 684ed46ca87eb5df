// Snapshot links: building, and reading a URL, a #data=v2: hash or a v2: code; refusals say what to supply instead.
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/session/errors.js';
import { buildLink, DEFAULT_BASE_URL, LinkRefusal, parseLink } from '../../src/session/link.js';

const PAYLOAD = 'N4IgLgpgziBcIEEAOSA0IA2BDAJjL$-+09';

function refusal(input: string): SessionError {
  try {
    parseLink(input);
  } catch (error) {
    if (error instanceof SessionError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

describe('buildLink', () => {
  it('appends #data=v2:<payload> to the base URL', () => {
    expect(buildLink(DEFAULT_BASE_URL, PAYLOAD)).toBe(`https://sessionplan.de/#data=v2:${PAYLOAD}`);
    expect(buildLink('http://localhost:8080/plan/', 'Q')).toBe('http://localhost:8080/plan/#data=v2:Q');
  });
  it('drops a fragment already on the base URL', () => {
    expect(buildLink('https://example.org/#old', 'Q')).toBe('https://example.org/#data=v2:Q');
  });
});

describe('parseLink accepts', () => {
  it.each([
    ['a whole URL', `https://sessionplan.de/#data=v2:${PAYLOAD}`],
    ['a URL with a path and query', `https://sessionplan.de/app/?lang=de#data=v2:${PAYLOAD}`],
    ['the bare hash', `#data=v2:${PAYLOAD}`],
    ['the bare code', `v2:${PAYLOAD}`],
    ['surrounding white space', `  \n\thttps://sessionplan.de/#data=v2:${PAYLOAD} \n`],
    ['a percent-encoded fragment', `https://sessionplan.de/#data%3Dv2%3A${PAYLOAD.replace('$', '%24').replace('+', '%2B')}`],
    ['a fully percent-encoded link', encodeURIComponent(`https://sessionplan.de/#data=v2:${PAYLOAD}`)],
    ['other fragment parameters', `https://sessionplan.de/#view=print&data=v2:${PAYLOAD}&x=1`],
  ])('%s', (_name, input) => {
    expect(parseLink(input)).toBe(PAYLOAD);
  });

  it('finds the fragment at the first literal # before decoding anything, as a URL parser does', () => {
    const other = 'BYUwNmD2AEDukCc';
    expect(parseLink(`https://sessionplan.de/?q=%23data%3Dv2%3A${other}%26#data=v2:${PAYLOAD}`)).toBe(PAYLOAD);
    expect(parseLink(`https://sessionplan.de/%23data=v2:${other}%26#data=v2:${PAYLOAD}`)).toBe(PAYLOAD);
    expect(() => parseLink(`https://sessionplan.de/%23data=v2:${other}`)).toThrow(/holds no snapshot/);
  });

  it('drops tabs and line breaks anywhere, as a URL parser does', () => {
    expect(parseLink(`https://sessionplan.de/#data=v2:${PAYLOAD.slice(0, 9)}\r\n\t${PAYLOAD.slice(9)}`)).toBe(PAYLOAD);
  });

  it('reads spaces inside the payload as + (as lz-string does)', () => {
    expect(parseLink(`v2:${PAYLOAD.replace('+', ' ')}`)).toBe(PAYLOAD);
  });
});

describe('parseLink refuses, naming what it found and what to supply instead', () => {
  it.each([
    ['an empty string', '   ', 'empty', 'is empty'],
    ['a dynamic server link', 'https://sessionplan.de/s/abc123', 'dynamic-link', 'is a dynamic server link (/s/…)'],
    ['a dynamic server link of another host serving Sessionplan', 'https://plans.example.org/s/abc123/', 'dynamic-link', 'is a dynamic server link'],
    ['a server path', '/s/abc123', 'dynamic-link', 'is a dynamic server link'],
    ['a dynamic server link with another fragment', 'https://sessionplan.de/s/abc#top', 'dynamic-link', 'is a dynamic server link'],
    ['the bare site', 'https://sessionplan.de/', 'no-snapshot', 'holds no snapshot: the address has no #data=v2: fragment'],
    ['another page', 'https://example.com/page', 'no-snapshot', 'holds no snapshot'],
    ['another page with a fragment', 'https://example.com/page#intro', 'no-snapshot', 'holds no snapshot'],
    ['a file path', '/home/anna/plans/offsite.json', 'no-snapshot', 'holds no snapshot'],
    ['a file URL', 'file:///home/anna/plans/offsite.json', 'no-snapshot', 'holds no snapshot'],
    ['a path under /s/ that goes deeper', 'https://example.com/s/abc/edit', 'no-snapshot', 'holds no snapshot'],
    ['a legacy code without prefix', `https://sessionplan.de/#data=${PAYLOAD}`, 'legacy-code', 'is a legacy pre-v2 snapshot code (no v2: prefix)'],
    ['a v1 code in a link', `#data=v1:${PAYLOAD}`, 'legacy-code', 'is a legacy pre-v2 snapshot code ("v1:")'],
    ['a bare v1 code', `v1:${PAYLOAD}`, 'legacy-code', 'is a legacy pre-v2 snapshot code ("v1:")'],
    ['a v3 snapshot', `https://sessionplan.de/#data=v3:${PAYLOAD}`, 'newer-format', 'is a snapshot of a newer format ("v3:") than this server reads (v2:)'],
    ['a bare v10 code', `v10:${PAYLOAD}`, 'newer-format', 'newer format ("v10:")'],
    ['another prefix', `#data=abc:${PAYLOAD}`, 'no-snapshot', 'holds no snapshot: "abc:" is not a Sessionplan snapshot format'],
    ['a bare payload', PAYLOAD, 'no-snapshot', 'holds no snapshot: it is not a link'],
    ['a sentence', 'see the plan I sent yesterday', 'no-snapshot', 'holds no snapshot'],
    ['an empty payload', 'https://sessionplan.de/#data=v2:', 'broken', 'payload after v2: is empty'],
    ['an empty bare code', 'v2:', 'broken', 'payload after v2: is empty'],
  ])('%s', (_name, input, kind, phrase) => {
    const error = refusal(input);
    expect(error).toBeInstanceOf(LinkRefusal);
    expect((error as LinkRefusal).kind).toBe(kind);
    expect(error.code).toBe('SESSION_DECODE_FAILED');
    expect(error.message.startsWith('SESSION_DECODE_FAILED: link: ')).toBe(true);
    expect(error.message).toContain(phrase);
    expect(error.message).toContain('supply a #data=v2:... snapshot link');
    if (kind !== 'dynamic-link') expect(error.message).not.toContain('dynamic');
    if (kind !== 'legacy-code') expect(error.message).not.toContain('legacy');
  });

  it('characters outside the alphabet, naming the character and position', () => {
    const error = refusal(`v2:AB!CD`);
    expect(error.code).toBe('SESSION_DECODE_FAILED');
    expect(error.message).toBe(
      'SESSION_DECODE_FAILED: link: the snapshot payload contains a character outside A-Z a-z 0-9 + - $ ("!" at position 3); supply the complete unmodified snapshot link.',
    );
  });

  it('broken percent-encoding', () => {
    expect(refusal('#data=v2:%E0%A4%A').message).toContain('broken percent-encoding');
  });
});
