// Results per revision (tools/list, initialize, server/discover, tools/call), legacy handshake, tools/call param rules.
import { describe, expect, it } from 'vitest';
import { mcpHealth } from '../../src/mcp/handler.js';
import { WORKFLOW_INSTRUCTIONS } from '../../src/mcp/instructions.js';
import { createToolInputSchema, decodeToolOutputSchema } from '../../src/session/json-schema.js';
import { IDENTITY, legacyRequest, makePost, META_SERVER_INFO, modernHeaders, modernRequest, SAMPLE_SESSION } from '../support/mcp.js';

const post = makePost();
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const ICON = { src: IDENTITY.iconUrl, mimeType: 'image/png', sizes: ['512x512'] };

async function legacy(method: string, params: Record<string, unknown> | undefined, version?: string) {
  return post(legacyRequest(method, params), version === undefined ? {} : { 'mcp-protocol-version': version });
}
async function modern(method: string, params: Record<string, unknown> = {}) {
  return post(modernRequest(method, params), modernHeaders(method, typeof params.name === 'string' ? params.name : undefined));
}

describe('server/discover (modern)', () => {
  it('answers versions, capabilities, instructions, cache hints and identity in _meta', async () => {
    const { status, json } = await modern('server/discover');
    expect(status).toBe(200);
    expect(json.result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      instructions: WORKFLOW_INSTRUCTIONS,
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { [META_SERVER_INFO]: { name: IDENTITY.name, title: IDENTITY.title, version: IDENTITY.version, icons: [ICON] } },
    });
  });

  it('instructions carry every bullet of the workflow contract (docs/http-api.md)', () => {
    for (const phrase of ['call create_session_link with a complete session', 'call decode_session_link before reading', 'Use structuredContent.session as the source of truth', 'Patches and partial updates are not supported', 'Return structuredContent.link verbatim', 'supply a #data=v2:... snapshot link instead']) {
      expect(WORKFLOW_INSTRUCTIONS).toContain(phrase);
    }
  });
});

describe('tools/list per revision', () => {
  it('modern: both tools in order, full shape, resultType, cache hints, _meta', async () => {
    const { json } = await modern('tools/list');
    const { tools, ...rest } = json.result;
    expect(rest).toEqual({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public', _meta: { [META_SERVER_INFO]: expect.objectContaining({ name: IDENTITY.name }) } });
    expect(tools.map((t: any) => t.name)).toEqual(['create_session_link', 'decode_session_link']);
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
      expect(tool.annotations).toEqual(ANNOTATIONS);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema.type).toBe('object');
    }
    expect(tools[0].inputSchema).toEqual(createToolInputSchema);
    expect(tools[1].outputSchema).toEqual(decodeToolOutputSchema);
  });

  it('2025-11-25 keeps the schemas whole; 2025-06-18 drops only the root $schema; 2025-03-26 has no title or outputSchema', async () => {
    const byVersion = Object.fromEntries(await Promise.all(LEGACY.map(async (v) => [v, (await legacy('tools/list', undefined, v)).json.result])));
    for (const v of LEGACY) {
      expect(Object.keys(byVersion[v])).toEqual(['tools']);
      expect(byVersion[v].tools.map((t: any) => t.name)).toEqual(['create_session_link', 'decode_session_link']);
      for (const tool of byVersion[v].tools) expect(tool.annotations).toEqual(ANNOTATIONS);
    }
    expect(byVersion['2025-11-25'].tools[0].inputSchema).toEqual(createToolInputSchema);
    const { $schema: _dialect, ...withoutDialect } = createToolInputSchema;
    expect(byVersion['2025-06-18'].tools[0].inputSchema).toEqual(withoutDialect);
    expect(byVersion['2025-06-18'].tools[0].title).toBe('Create Sessionplan link');
    expect(Object.keys(byVersion['2025-06-18'].tools[1].outputSchema)).not.toContain('$schema');
    for (const tool of byVersion['2025-03-26'].tools) {
      expect(Object.keys(tool).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    }
  });

  // Every client puts this result into a model's context on every turn. It was 18,278 bytes (modern) before the
  // schemas shared their definitions, 8,524 with $defs and plain keywords; src/session/json-schema.ts says what took it
  // under 7 KB with the same information. Bytes of the whole JSON-RPC answer as sent (UTF-8), not characters, with the
  // MCP App's `_meta.ui` on both tools (MCP_APPS on, the default).
  it('the tools/list result stays under 7 KB: at most 7,168 bytes, each revision, _meta.ui included', async () => {
    const withApp = makePost(undefined, undefined, 'http', { html: '<!doctype html>' });
    const sizes: Record<string, number> = {};
    const answer = await withApp(modernRequest('tools/list'), modernHeaders('tools/list'));
    expect(answer.json.result.tools[0]._meta.ui.resourceUri).toMatch(/^ui:\/\//);
    sizes['2026-07-28'] = Buffer.byteLength(answer.raw!);
    for (const v of LEGACY) sizes[v] = Buffer.byteLength((await withApp(legacyRequest('tools/list'), { 'mcp-protocol-version': v })).raw!);
    console.log(`tools/list bytes per revision (whole JSON-RPC answer, _meta.ui included): ${JSON.stringify(sizes)}`);
    for (const size of Object.values(sizes)) expect(size).toBeLessThanOrEqual(7_168);
    expect(Buffer.byteLength(JSON.stringify(createToolInputSchema))).toBeLessThanOrEqual(3_600);
    expect(Buffer.byteLength(JSON.stringify(decodeToolOutputSchema))).toBeLessThanOrEqual(1_800);
  });

  it('a legacy request without a version header gets the 2025-03-26 shape', async () => {
    const { json } = await legacy('tools/list', undefined);
    expect(json.result.tools[0]).not.toHaveProperty('outputSchema');
  });
});

describe('legacy handshake', () => {
  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
    ['garbage', '2025-11-25'],
  ])('initialize asking %s answers %s', async (requested, answered) => {
    const { status, json } = await legacy('initialize', { protocolVersion: requested, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(status).toBe(200);
    expect(json.result.protocolVersion).toBe(answered);
    expect(json.result.capabilities).toEqual({ tools: {} });
    expect(json.result.instructions).toBe(WORKFLOW_INSTRUCTIONS);
    expect(json.result).not.toHaveProperty('resultType');
  });

  it('serverInfo: title from 2025-06-18, icons from 2025-11-25', async () => {
    const info = async (v: string) => (await legacy('initialize', { protocolVersion: v, capabilities: {} })).json.result.serverInfo;
    expect(await info('2025-03-26')).toEqual({ name: IDENTITY.name, version: IDENTITY.version });
    expect(await info('2025-06-18')).toEqual({ name: IDENTITY.name, title: IDENTITY.title, version: IDENTITY.version });
    expect(await info('2025-11-25')).toEqual({ name: IDENTITY.name, title: IDENTITY.title, version: IDENTITY.version, icons: [ICON] });
  });

  it('initialize without a protocolVersion string → 200 -32602 naming the field', async () => {
    const { json } = await legacy('initialize', { capabilities: {} });
    expect(json.error).toEqual({ code: -32602, message: 'Invalid params: params.protocolVersion must be a string' });
  });

  it('ping → {}, server/discover → 200 -32601, params that are not an object → -32602', async () => {
    expect((await legacy('ping', undefined, '2025-11-25')).json.result).toEqual({});
    const discover = await legacy('server/discover', {});
    expect(discover.status).toBe(200);
    expect(discover.json.error.code).toBe(-32601);
    const arrayParams = await post({ jsonrpc: '2.0', id: 1, method: 'ping', params: [] });
    expect(arrayParams.json.error.code).toBe(-32602);
  });
});

describe('tools/call results per revision', () => {
  const revisions = ['2026-07-28', ...LEGACY] as const;
  async function call(revision: string, name: string, args: Record<string, unknown>) {
    return revision === '2026-07-28' ? modern('tools/call', { name, arguments: args }) : legacy('tools/call', { name, arguments: args }, revision);
  }

  it.each(revisions)('%s: success has the JSON text block, the usage block, and structuredContent where the revision has it', async (revision) => {
    const { json } = await call(revision, 'create_session_link', { session: SAMPLE_SESSION });
    const result = json.result;
    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(2);
    const structured = JSON.parse(result.content[0].text);
    expect(structured).toEqual({ link: expect.stringMatching(/^https:\/\/sessionplan\.de\/#data=v2:/), summary: { title: 'Workshop', blockCount: 0, totalDuration: 0 } });
    expect(result.content[1]).toEqual({ type: 'text', text: expect.stringContaining('Do not reconstruct, shorten, normalize or edit') });
    if (revision === '2025-03-26') expect(result).not.toHaveProperty('structuredContent');
    else expect(result.structuredContent).toEqual(structured);
    if (revision === '2026-07-28') {
      expect(result.resultType).toBe('complete');
      expect(result._meta[META_SERVER_INFO].name).toBe(IDENTITY.name);
    } else {
      expect(result).not.toHaveProperty('resultType');
      expect(result).not.toHaveProperty('_meta');
    }
    const decoded = await call(revision, 'decode_session_link', { link: structured.link });
    expect(JSON.parse(decoded.json.result.content[0].text)).toEqual({ session: SAMPLE_SESSION });
    expect(decoded.json.result.content[1].text).toContain('structuredContent.session');
  });

  it.each(revisions)('%s: tool error is isError with one text block starting with the code, no structuredContent', async (revision) => {
    for (const [name, args, code] of [
      ['create_session_link', {}, 'SESSION_VALIDATION_FAILED'],
      ['create_session_link', { session: 'text' }, 'SESSION_VALIDATION_FAILED'],
      ['decode_session_link', { link: 42 }, 'SESSION_DECODE_FAILED'],
    ] as const) {
      const { status, json } = await call(revision, name, args);
      expect(status).toBe(200);
      expect(json.result.isError).toBe(true);
      expect(json.result.content).toHaveLength(1);
      expect(json.result.content[0].type).toBe('text');
      expect(json.result.content[0].text.startsWith(`${code}: `)).toBe(true);
      expect(json.result).not.toHaveProperty('structuredContent');
      expect(json.result.resultType).toBe(revision === '2026-07-28' ? 'complete' : undefined);
    }
  });
});

describe('tools/call param rules (both eras)', () => {
  const rules: Array<[string, unknown, number, string]> = [
    ['params missing', undefined, -32602, 'params must be an object'],
    ['name missing', { arguments: {} }, -32602, 'params.name must be a string'],
    ['name not a string', { name: 5 }, -32602, 'params.name must be a string'],
    ['arguments an array', { name: 'create_session_link', arguments: [] }, -32602, 'params.arguments must be an object'],
    ['arguments null', { name: 'create_session_link', arguments: null }, -32602, 'params.arguments must be an object'],
    ['arguments a string', { name: 'decode_session_link', arguments: 'x' }, -32602, 'params.arguments must be an object'],
    ['undeclared argument', { name: 'decode_session_link', arguments: { link: 'x', session: {} } }, -32602, 'params.arguments.session is not an argument of decode_session_link'],
    ['unknown tool', { name: 'delete_everything', arguments: {} }, -32601, 'params.name must be one of create_session_link, decode_session_link'],
    ['tool name differing in case', { name: 'Create_Session_Link' }, -32601, 'params.name must be one of'],
  ];
  it.each(rules)('legacy: %s → %s', async (_label, params, code, detail) => {
    const { status, json } = await post(params === undefined ? legacyRequest('tools/call') : legacyRequest('tools/call', params as Record<string, unknown>));
    expect(status).toBe(200);
    expect(json.error.code).toBe(code);
    expect(json.error.message).toContain(detail);
  });
  it.each(rules.filter(([label]) => label !== 'params missing'))('modern: %s → %s', async (_label, params, code, detail) => {
    const p = params as Record<string, unknown>;
    const { status, json } = await post(modernRequest('tools/call', p), modernHeaders('tools/call', typeof p.name === 'string' ? p.name : undefined));
    expect(status).toBe(200);
    expect(json.error.code).toBe(code);
    expect(json.error.message).toContain(detail);
  });

  it('absent arguments reach the operation as a tool error, not a protocol error', async () => {
    const { json } = await post(legacyRequest('tools/call', { name: 'create_session_link' }));
    expect(json.result.isError).toBe(true);
  });
});

describe('observer events', () => {
  it('reports one event per create/decode call with the outcome, and none for unknown tools', async () => {
    const events: Array<{ tool: string; outcome: string; durationMs: number }> = [];
    const observed = makePost(undefined, { onToolCall: (e) => events.push(e) });
    await observed(legacyRequest('tools/call', { name: 'create_session_link', arguments: { session: SAMPLE_SESSION } }));
    await observed(legacyRequest('tools/call', { name: 'decode_session_link', arguments: { link: 'nope' } }));
    await observed(legacyRequest('tools/call', { name: 'decode_session_link', arguments: { link: 'x', other: 1 } }));
    await observed(modernRequest('tools/call', { name: 'create_session_link', arguments: {} }), modernHeaders('tools/call', 'wrong'));
    await observed(legacyRequest('tools/call', { name: 'other_tool', arguments: {} }));
    await observed(legacyRequest('tools/list'));
    expect(events.map(({ tool, outcome }) => [tool, outcome])).toEqual([
      ['create_session_link', 'success'],
      ['decode_session_link', 'tool_error'],
      ['decode_session_link', 'protocol_error'],
      ['create_session_link', 'protocol_error'],
    ]);
    for (const e of events) expect(e.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a throwing observer never changes the answer', async () => {
    const observed = makePost(undefined, { onToolCall: () => { throw new Error('metrics down'); } });
    const { json } = await observed(legacyRequest('tools/call', { name: 'create_session_link', arguments: { session: SAMPLE_SESSION } }));
    expect(JSON.parse(json.result.content[0].text).link).toMatch(/^https:/);
  });
});

it('mcpHealth lists the identity and all four versions', () => {
  expect(mcpHealth(IDENTITY)).toEqual({ status: 'ok', name: IDENTITY.name, version: IDENTITY.version, protocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] });
});
