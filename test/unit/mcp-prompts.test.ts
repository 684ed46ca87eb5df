// The MCP prompts and the templates resource in the protocol layer: both eras, each revision's shape, the param rules,
// Mcp-Name mirroring params.name on prompts/get, and MCP_PROMPTS off giving no prompts capability.
import { describe, expect, it } from 'vitest';
import { createMcpHandler } from '../../src/mcp/handler.js';
import { TEMPLATES_URI } from '../../src/mcp/prompts.js';
import { joinText } from '../../src/session/json-pieces.js';
import { validateForCreate } from '../../src/session/validate.js';
import { IDENTITY, inMemoryOperations, legacyRequest, modernHeaders, modernRequest } from '../support/mcp.js';

const handle = createMcpHandler({ operations: inMemoryOperations, identity: IDENTITY, prompts: true });
async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await handle({ headers, body: JSON.stringify(body) });
  return { status: res.status, json: JSON.parse(joinText(res.body!)) };
}
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const REVISIONS = ['2026-07-28', ...LEGACY] as const;
function request(revision: string, method: string, params?: Record<string, unknown>, headers?: Record<string, string>) {
  if (revision === '2026-07-28') return post(modernRequest(method, params), headers ?? modernHeaders(method, typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : undefined));
  return post(legacyRequest(method, params), { 'mcp-protocol-version': revision });
}

describe('MCP prompts', () => {
  it('are advertised beside tools and resources in initialize and server/discover', async () => {
    for (const version of LEGACY) {
      const { json } = await post(legacyRequest('initialize', { protocolVersion: version, capabilities: {} }));
      expect(json.result.capabilities).toEqual({ tools: {}, prompts: {}, resources: {} });
    }
    expect((await request('2026-07-28', 'server/discover')).json.result.capabilities).toEqual({ tools: {}, prompts: {}, resources: {} });
  });

  it.each(REVISIONS)('%s: prompts/list has plan_workshop and revise_plan with their arguments, in the revision’s shape', async (revision) => {
    const { status, json } = await request(revision, 'prompts/list');
    expect(status).toBe(200);
    const prompts = json.result.prompts as { name: string; title?: string; arguments: { name: string; required: boolean }[] }[];
    expect(prompts.map((prompt) => prompt.name)).toEqual(['plan_workshop', 'revise_plan']);
    expect(prompts[0]!.arguments.filter((argument) => argument.required).map((argument) => argument.name)).toEqual(['goal']);
    expect(prompts[1]!.arguments.filter((argument) => argument.required).map((argument) => argument.name)).toEqual(['link', 'change']);
    expect(prompts.every((prompt) => prompt.title === undefined)).toBe(revision === '2025-03-26');
    expect(json.result.resultType).toBe(revision === '2026-07-28' ? 'complete' : undefined);
  });

  it.each(REVISIONS)('%s: prompts/get gives one user message built from the arguments', async (revision) => {
    const { json } = await request(revision, 'prompts/get', { name: 'plan_workshop', arguments: { goal: 'Onboarding für neue Kolleginnen', template: 'kick-off', language: 'de' } });
    const [message, ...rest] = json.result.messages;
    expect(rest).toEqual([]);
    expect(message.role).toBe('user');
    expect(message.content.text).toContain('Onboarding für neue Kolleginnen');
    expect(message.content.text).toContain('template "kick-off"');
    expect(message.content.text).toContain('in German');
    expect(message.content.text).toContain('create_session_link');
    const revise = await request(revision, 'prompts/get', { name: 'revise_plan', arguments: { link: 'https://sessionplan.de/#data=v2:abc', change: 'add a break' } });
    expect(revise.json.result.messages[0].content.text).toMatch(/decode_session_link[\s\S]*add a break[\s\S]*create_session_link/);
  });

  it('refuses what a prompt does not take, naming it (-32602)', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: 'no_such_prompt' }, 'params.name names no prompt of this server; its prompts are plan_workshop and revise_plan'],
      [{ name: 'plan_workshop' }, 'params.arguments.goal is required'],
      [{ name: 'plan_workshop', arguments: { goal: '  ' } }, 'params.arguments.goal is required'],
      [{ name: 'plan_workshop', arguments: { goal: 'x', tone: 'funny' } }, 'params.arguments has "tone", which plan_workshop does not take'],
      [{ name: 'plan_workshop', arguments: { goal: 7 } }, 'params.arguments.goal must be a string'],
      [{ name: 'plan_workshop', arguments: { goal: 'x', template: 'picnic' } }, 'params.arguments.template must be one of retrospective, kick-off, strategy-day, design-sprint-day'],
      [{ name: 'plan_workshop', arguments: { goal: 'x', language: 'fr' } }, 'params.arguments.language must be de or en'],
      [{ name: 'revise_plan', arguments: { link: 'x' } }, 'params.arguments.change is required'],
      [{ name: 'plan_workshop', arguments: 'goal' }, 'params.arguments must be an object'],
    ];
    for (const [params, detail] of refusals) {
      for (const revision of ['2026-07-28', '2025-11-25']) {
        const { status, json } = await request(revision, 'prompts/get', params);
        expect([status, json.error.code, json.error.message]).toEqual([200, -32602, `Invalid params: ${detail}`]);
      }
    }
  });

  it('2026-07-28: Mcp-Name must mirror params.name on prompts/get', async () => {
    const params = { name: 'plan_workshop', arguments: { goal: 'x' } };
    const wrong = await request('2026-07-28', 'prompts/get', params, modernHeaders('prompts/get', 'revise_plan'));
    expect([wrong.status, wrong.json.error.code]).toEqual([400, -32020]);
    const missing = await request('2026-07-28', 'prompts/get', params, modernHeaders('prompts/get'));
    expect([missing.status, missing.json.error.code]).toEqual([400, -32020]);
  });

  it(`lists and reads ${TEMPLATES_URI}: the four templates as documents create accepts, and the methods with their licence`, async () => {
    const list = await request('2025-11-25', 'resources/list');
    expect(list.json.result.resources.map((resource: { uri: string }) => resource.uri)).toEqual([TEMPLATES_URI]);
    const { json } = await request('2026-07-28', 'resources/read', { uri: TEMPLATES_URI });
    const [content] = json.result.contents;
    expect(content.mimeType).toBe('application/json');
    const library = JSON.parse(content.text) as { templates: { key: string; documents: Record<'de' | 'en', unknown> }[]; methods: unknown[]; methodLicense: string };
    expect(library.templates.map((template) => template.key)).toEqual(['retrospective', 'kick-off', 'strategy-day', 'design-sprint-day']);
    for (const template of library.templates) for (const document of Object.values(template.documents)) expect(() => validateForCreate(document)).not.toThrow();
    expect(library.methods.length).toBeGreaterThanOrEqual(12);
    expect(library.methodLicense).toBe('https://creativecommons.org/licenses/by-sa/4.0/');
  });

  it('with the prompts off, the methods do not exist and nothing advertises them', async () => {
    const plain = createMcpHandler({ operations: inMemoryOperations, identity: IDENTITY });
    const res = await plain({ headers: { 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(legacyRequest('prompts/list')) });
    const json = JSON.parse(joinText(res.body!));
    expect(json.error).toEqual({ code: -32601, message: 'Method not found: method must be initialize, ping, tools/list or tools/call' });
  });
});
