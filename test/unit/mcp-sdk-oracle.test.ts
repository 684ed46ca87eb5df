// The official SDKs as oracles for the protocol layer, with the real session operations and WASM codec behind it:
// every response validated by @modelcontextprotocol/client's spec schemas, and the v1/v2 clients driving the handler.
import { joinText } from '../../src/session/json-pieces.js';
import { Client as ClientV2, specTypeSchemas, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { createMcpHandler } from '../../src/mcp/handler.js';
import { createSessionOperations } from '../../src/session/operations.js';
import { richSession } from '../fixtures/sessions.js';
import { IDENTITY, legacyRequest, makePost, modernHeaders, modernRequest } from '../support/mcp.js';

const operations = createSessionOperations(loadCodec);
const post = makePost(operations);
const handle = createMcpHandler({ operations, identity: IDENTITY });

function expectValid(type: keyof typeof specTypeSchemas, value: unknown): void {
  const outcome = specTypeSchemas[type]['~standard'].validate(value);
  if ('then' in outcome) throw new Error('spec schemas are synchronous');
  expect(outcome.issues ?? [], `${type}: ${JSON.stringify(outcome.issues)}`).toEqual([]);
}

describe('responses validate against the official spec schemas', () => {
  it('modern discover, tools/list, tools/call success and tool error, and every error response', async () => {
    expectValid('DiscoverResult', (await post(modernRequest('server/discover'), modernHeaders('server/discover'))).json.result);
    const list = await post(modernRequest('tools/list'), modernHeaders('tools/list'));
    expectValid('JSONRPCResultResponse', list.json);
    expectValid('ListToolsResult', list.json.result);
    for (const tool of list.json.result.tools) expectValid('Tool', tool);
    const created = await post(modernRequest('tools/call', { name: 'create_session_link', arguments: { session: richSession() } }), modernHeaders('tools/call', 'create_session_link'));
    expectValid('CallToolResult', created.json.result);
    expect(created.json.result.structuredContent.summary).toEqual({ title: 'Team offsite', blockCount: 6, totalDuration: expect.any(Number) });
    const failed = await post(modernRequest('tools/call', { name: 'decode_session_link', arguments: { link: 'v2:@@@' } }), modernHeaders('tools/call', 'decode_session_link'));
    expectValid('CallToolResult', failed.json.result);
    expect(failed.json.result.content[0].text).toMatch(/^SESSION_DECODE_FAILED: /);
    for (const [body, headers] of [
      [modernRequest('ping'), modernHeaders('ping')],
      [modernRequest('tools/list'), { ...modernHeaders('tools/list'), 'mcp-method': 'x' }],
      [modernRequest('tools/call', { name: 'x' }), modernHeaders('tools/call', 'x')],
      [legacyRequest('tools/call', { name: 5 }), {}],
    ] as const) {
      expectValid('JSONRPCErrorResponse', (await post(body, headers)).json);
    }
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('legacy %s initialize, tools/list, tools/call', async (version) => {
    expectValid('InitializeResult', (await post(legacyRequest('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } }))).json.result);
    const headers = { 'mcp-protocol-version': version };
    expectValid('ListToolsResult', (await post(legacyRequest('tools/list'), headers)).json.result);
    const created = await post(legacyRequest('tools/call', { name: 'create_session_link', arguments: { session: richSession() } }), headers);
    expectValid('CallToolResult', created.json.result);
    const link = JSON.parse(created.json.result.content[0].text).link as string;
    const decoded = await post(legacyRequest('tools/call', { name: 'decode_session_link', arguments: { link } }), headers);
    expectValid('CallToolResult', decoded.json.result);
    expect(JSON.parse(decoded.json.result.content[0].text).session.workshop.title).toBe('Team offsite');
  });
});

/** Hands the clients' requests straight to the handler: POST → handler, anything else → 405 (no SSE stream here). */
async function inProcessFetch(_url: string | URL, init?: RequestInit): Promise<Response> {
  if ((init?.method ?? 'GET') !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  const answer = await handle({ headers, body: String(init?.body) });
  return new Response(answer.body === null ? null : joinText(answer.body), { status: answer.status, headers: answer.body === null ? {} : { 'content-type': 'application/json; charset=utf-8' } });
}

const URL_ = new URL('http://127.0.0.1/mcp');

async function exercise(client: { listTools(): Promise<any>; callTool(p: any): Promise<any> }): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t: any) => t.name)).toEqual(['create_session_link', 'decode_session_link']);
  const created = await client.callTool({ name: 'create_session_link', arguments: { session: richSession() } });
  expect(created.isError ?? false).toBe(false);
  const link = JSON.parse(created.content[0].text).link as string;
  expect(link).toMatch(/^https:\/\/sessionplan\.de\/.*#data=v2:/);
  const decoded = await client.callTool({ name: 'decode_session_link', arguments: { link } });
  expect(JSON.parse(decoded.content[0].text).session).toMatchObject({ workshop: { title: 'Team offsite' } });
  const failed = await client.callTool({ name: 'create_session_link', arguments: { session: { version: '1.0' } } });
  expect(failed.isError).toBe(true);
  expect(failed.content[0].text).toMatch(/^SESSION_VALIDATION_FAILED: /);
  await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32601 });
}

describe('official clients drive the handler', () => {
  it.each([
    ['v2 pinned 2026-07-28', { mode: { pin: '2026-07-28' } }, 'modern'],
    ['v2 auto', { mode: 'auto' }, 'modern'],
    ['v2 default (legacy handshake)', undefined, 'legacy'],
  ] as const)('%s', async (_label, versionNegotiation, era) => {
    const client = new ClientV2({ name: 'oracle', version: '1.0.0' }, versionNegotiation ? { versionNegotiation: versionNegotiation as never } : {});
    await client.connect(new TransportV2(URL_, { fetch: inProcessFetch }));
    expect(client.getProtocolEra()).toBe(era);
    if (era === 'modern') expect(client.getDiscoverResult()?.instructions).toContain('create_session_link');
    await exercise(client as never);
    await client.close();
  });

  it('v1 SDK client (legacy handshake, 2025-11-25)', async () => {
    const client = new ClientV1({ name: 'oracle', version: '1.0.0' });
    const transport = new TransportV1(URL_, { fetch: inProcessFetch });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()).toMatchObject({ name: IDENTITY.name, version: IDENTITY.version });
    expect(client.getInstructions()).toContain('decode_session_link');
    await client.ping();
    await exercise(client as never);
    await client.close();
  });
});
