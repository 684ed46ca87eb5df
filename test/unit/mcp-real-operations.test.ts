// The MCP layer over the real session operations and WASM codec: tool errors the model can act on, in every revision.
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { validateForCreate } from '../../src/session/validate.js';
import { block, minimalSession, planOfSize, richSession } from '../fixtures/sessions.js';
import { legacyRequest, makePost, modernHeaders, modernRequest } from '../support/mcp.js';

const post = makePost(createSessionOperations(loadCodec));
const REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

async function call(revision: string, name: string, args: Record<string, unknown> | undefined) {
  const params = args === undefined ? { name } : { name, arguments: args };
  const answer = revision === '2026-07-28'
    ? await post(modernRequest('tools/call', params), modernHeaders('tools/call', name))
    : await post(legacyRequest('tools/call', params), { 'mcp-protocol-version': revision });
  expect(answer.status).toBe(200);
  return answer.json.result as { content: Array<{ type: string; text: string }>; isError?: boolean; structuredContent?: any };
}

describe.each(REVISIONS)('%s over the real operations', (revision) => {
  it('create encodes the normalized plan exactly like lz-string and decode gives it back', async () => {
    const created = await call(revision, 'create_session_link', { session: richSession() });
    const { link, summary } = JSON.parse(created.content[0]!.text);
    expect(summary).toEqual({ title: 'Team offsite', blockCount: 6, totalDuration: 120 });
    const normalized = validateForCreate(richSession()).json;
    expect(LZString.decompressFromEncodedURIComponent(link.slice(link.indexOf('#data=v2:') + 9))).toBe(normalized);
    const decoded = await call(revision, 'decode_session_link', { link });
    expect(JSON.parse(decoded.content[0]!.text).session).toEqual(JSON.parse(normalized));
    if (revision !== '2025-03-26') expect(decoded.structuredContent.session).toEqual(JSON.parse(normalized));
  });

  it.each([
    ['missing arguments', 'create_session_link', undefined, /^SESSION_VALIDATION_FAILED: session: /],
    ['missing session', 'create_session_link', {}, /^SESSION_VALIDATION_FAILED: session: /],
    ['session of the wrong type', 'create_session_link', { session: [1] }, /^SESSION_VALIDATION_FAILED: session: /],
    ['a broken field', 'create_session_link', { session: { ...minimalSession(), items: [block('a', { duration: -5 })] } }, /^SESSION_VALIDATION_FAILED: items\[0\]\.duration: /],
    ['missing link', 'decode_session_link', {}, /^SESSION_DECODE_FAILED: link: /],
    ['link of the wrong type', 'decode_session_link', { link: 42 }, /^SESSION_DECODE_FAILED: link: /],
    ['a corrupt link', 'decode_session_link', { link: 'https://sessionplan.de/#data=v2:%%%' }, /^SESSION_DECODE_FAILED: /],
  ])('%s → tool error naming the field', async (_label, name, args, message) => {
    const result = await call(revision, name, args as Record<string, unknown> | undefined);
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0]!.text).toMatch(message);
    expect(result.content[0]!.text.length).toBeLessThanOrEqual(800);
    expect(result).not.toHaveProperty('structuredContent');
  });
});

it('a ~3 KB plan survives the round trip through the protocol layer', async () => {
  const plan = planOfSize(3_000);
  const created = await call('2026-07-28', 'create_session_link', { session: plan });
  expect(created.isError).toBeUndefined();
  const decoded = await call('2026-07-28', 'decode_session_link', { link: created.structuredContent.link });
  expect(decoded.structuredContent.session).toEqual(JSON.parse(validateForCreate(plan).json));
});
