// What the plan view makes of a tool's input and result (src/mcp-app/tool-data.ts), with the real session code and codec.
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { linkToOpen, planOfCreateInput, planOfDecodeResult, structuredOf, toolKindOf } from '../../src/mcp-app/tool-data.js';
import { SessionError } from '../../src/session/errors.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { readDecodedSession } from '../../src/session/validate.js';
import { workshopPlan } from '../support/viewer-plans.js';

const BASE = 'https://plans.example.org/team/';
const operations = createSessionOperations(loadCodec, { baseUrl: 'https://sessionplan.de/' });

describe('which tool the view shows', () => {
  it('takes the host context’s tool name first, else tells by the arguments or the result', () => {
    expect(toolKindOf('create_session_link', { link: 'x' }, undefined)).toBe('create');
    expect(toolKindOf('decode_session_link', undefined, undefined)).toBe('decode');
    expect(toolKindOf(undefined, { session: {} }, undefined)).toBe('create');
    expect(toolKindOf(undefined, { link: 'v2:x' }, undefined)).toBe('decode');
    expect(toolKindOf(undefined, undefined, { structuredContent: { link: 'https://x/#data=v2:a', summary: {} } })).toBe('create');
    expect(toolKindOf(undefined, undefined, { content: [{ type: 'text', text: '{"session":{}}' }] })).toBe('decode');
    expect(toolKindOf('other_tool', {}, { content: [] })).toBeUndefined();
  });

  it('reads the structured result from the first text block when the host’s revision has no structuredContent', () => {
    expect(structuredOf({ content: [{ type: 'text', text: '{"link":"https://x/#data=v2:a"}' }] })).toEqual({ link: 'https://x/#data=v2:a' });
    expect(structuredOf({ structuredContent: { session: 1 }, content: [{ type: 'text', text: '{"link":"y"}' }] })).toEqual({ session: 1 });
    expect(structuredOf({ content: [{ type: 'text', text: 'SESSION_DECODE_FAILED: link: …' }] })).toBeUndefined();
    expect(structuredOf({ content: [{ type: 'text', text: '{broken' }] })).toBeUndefined();
  });
});

describe('the plan', () => {
  it('of a create: the input normalized by the session code (defaults filled), refused when invalid', () => {
    const session = workshopPlan() as { items: Record<string, unknown>[] };
    delete session.items[0]!.laneIndex;
    const plan = planOfCreateInput({ session });
    expect(plan.items[0]).toMatchObject({ id: 'welcome', laneIndex: 0 });
    expect(plan.workshop.title).toBe('Design Sprint Kickoff');
    expect(() => planOfCreateInput({ session: { ...session, version: '9' } })).toThrow(SessionError);
    expect(() => planOfCreateInput({})).toThrow(/SESSION_VALIDATION_FAILED: session: must be a session document/);
  });

  it('of a decode: the result’s session as it is when complete (as the tool sends it), filled in when not, with its warnings', async () => {
    const { link } = await operations.createSessionLink(workshopPlan());
    const decoded = await operations.decodeSessionLink(link);
    const canonical = planOfDecodeResult({ session: decoded.session });
    expect(canonical.plan).toBe(decoded.session);
    expect(canonical.warnings).toEqual([]);
    // An older document as the tool returns it: read through the tolerant schema on the server, not again in the view.
    const read = readDecodedSession(JSON.stringify({ workshop: { title: 'Alt' }, items: [{ type: 'block', title: 'A'.repeat(300), duration: 5, colour: 'red' }] }));
    const sent = JSON.parse(JSON.stringify(read.session)) as unknown;
    expect(planOfDecodeResult({ session: sent, warnings: read.warnings }).plan).toBe(sent);
    const older = planOfDecodeResult({ session: { workshop: { title: 'Alt' }, items: [{ type: 'block', title: 'A', duration: 5 }] }, warnings: ['items[0].id: missing', 7] });
    expect(older.plan).toMatchObject({ version: '1.0', blockTypes: [], persons: [], items: [{ type: 'block', id: '', title: 'A', personIds: [], laneIndex: 0 }] });
    expect(older.warnings).toEqual(['items[0].id: missing']);
    expect(() => planOfDecodeResult({ session: { items: 'none' } })).toThrow(/^SESSION_DECODE_FAILED: items: /);
    expect(() => planOfDecodeResult({ session: { ...decoded.session, items: [{ ...decoded.session.items[0], type: '"><script>' }] } })).toThrow(/^SESSION_DECODE_FAILED: items\[0\]/);
  });
});

describe('the link the button opens', () => {
  it('a create: the snapshot of its structuredContent.link on PUBLIC_BASE_URL', () => {
    expect(linkToOpen('create', { session: {} }, { link: `${BASE}#data=v2:abc` }, BASE)).toEqual({ url: `${BASE}#data=v2:abc` });
    expect(linkToOpen('create', { session: {} }, { link: 'https://sessionplan.de/#data=v2:abc' }, BASE)).toEqual({ url: `${BASE}#data=v2:abc`, otherOrigin: 'https://sessionplan.de' });
    expect(linkToOpen('create', undefined, { link: 'javascript:alert(1)//#data=v2:abc' }, BASE)).toEqual({ url: `${BASE}#data=v2:abc` });
    expect(linkToOpen('create', undefined, undefined, BASE)).toBeUndefined();
  });

  it('a decode: the snapshot on PUBLIC_BASE_URL, whatever origin the given link had; another origin is named, not opened', () => {
    expect(linkToOpen('decode', { link: `  ${BASE}#data=v2:abc  ` }, undefined, BASE)).toEqual({ url: `${BASE}#data=v2:abc` });
    expect(linkToOpen('decode', { link: 'v2:abc' }, undefined, BASE)).toEqual({ url: `${BASE}#data=v2:abc` });
    expect(linkToOpen('decode', { link: '#data=v2:abc' }, undefined, BASE)).toEqual({ url: `${BASE}#data=v2:abc` });
    expect(linkToOpen('decode', { link: 'javascript:alert(1)//#data=v2:abc' }, undefined, BASE)).toEqual({ url: `${BASE}#data=v2:abc` });
    const lookAlikes = [
      ['https://plans.example.org.evil.example/team/#data=v2:abc', 'https://plans.example.org.evil.example'],
      ['https://plans.example.org@evil.example/team/#data=v2:abc', 'https://evil.example'],
      ['https://plans.example.org:8443/team/#data=v2:abc', 'https://plans.example.org:8443'],
      ['http://plans.example.org/team/#data=v2:abc', 'http://plans.example.org'],
      ['https://xn--plns-loa.example.org/#data=v2:abc', 'https://xn--plns-loa.example.org'],
      ['https://evil.example/\u202egro.elpmaxe.snalp/#data=v2:abc', 'https://evil.example'],
    ];
    for (const [link, origin] of lookAlikes) expect(linkToOpen('decode', { link }, undefined, BASE), link).toEqual({ url: `${BASE}#data=v2:abc`, otherOrigin: origin });
    expect(linkToOpen('decode', { link: 'https://sessionplan.de/s/abc' }, undefined, BASE)).toBeUndefined();
    expect(linkToOpen('decode', { link: 42 }, undefined, BASE)).toBeUndefined();
  });
});
