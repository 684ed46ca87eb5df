// MCP Apps in the protocol layer: the resources capability, resources/list and resources/read in both eras through the
// same checks as every method, `_meta.ui` on both tools, and MCP_APPS off giving the plain surface (tools only).
import { describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, PLAN_VIEW_URI } from '../../src/mcp/app-view.js';
import { IDENTITY, legacyRequest, makePost, META_SERVER_INFO, modernHeaders, modernRequest, SAMPLE_SESSION } from '../support/mcp.js';

const VIEW = { html: '<!doctype html><html lang="en"><head><title>plan</title></head><body><main id="app"></main></body></html>' };
const apps = makePost(undefined, undefined, 'http', VIEW);
const seed = makePost();
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const REVISIONS = ['2026-07-28', ...LEGACY] as const;
const TOOL_META = { ui: { resourceUri: PLAN_VIEW_URI }, 'ui/resourceUri': PLAN_VIEW_URI };

type Post = typeof apps;
function request(post: Post, revision: string, method: string, params?: Record<string, unknown>, headers?: Record<string, string>) {
  if (revision === '2026-07-28') return post(modernRequest(method, params), headers ?? modernHeaders(method, typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : undefined));
  return post(legacyRequest(method, params), { 'mcp-protocol-version': revision });
}

describe('MCP Apps on', () => {
  it('advertises resources beside tools in initialize (each legacy revision) and server/discover', async () => {
    for (const version of LEGACY) {
      const { json } = await apps(legacyRequest('initialize', { protocolVersion: version, capabilities: {} }));
      expect(json.result.capabilities).toEqual({ tools: {}, resources: {} });
    }
    const { json } = await request(apps, '2026-07-28', 'server/discover');
    expect(json.result.capabilities).toEqual({ tools: {}, resources: {} });
  });

  it.each(REVISIONS)('%s: both tools carry _meta.ui.resourceUri and the flat ui/resourceUri key', async (revision) => {
    const { json } = await request(apps, revision, 'tools/list');
    expect(json.result.tools.map((tool: { _meta: unknown }) => tool._meta)).toEqual([TOOL_META, TOOL_META]);
  });

  it.each(REVISIONS)('%s: resources/list lists the one ui:// resource in the revision’s shape', async (revision) => {
    const { status, json } = await request(apps, revision, 'resources/list');
    expect(status).toBe(200);
    const [resource, ...others] = json.result.resources;
    expect(others).toEqual([]);
    expect(resource).toMatchObject({ uri: PLAN_VIEW_URI, name: 'plan', mimeType: APP_MIME_TYPE, description: expect.stringContaining('opens it in Sessionplan') });
    if (revision === '2025-03-26') expect(resource).not.toHaveProperty('title');
    else expect(resource.title).toBe('Sessionplan plan view');
    if (revision === '2026-07-28') {
      expect(json.result).toMatchObject({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public', _meta: { [META_SERVER_INFO]: expect.objectContaining({ name: IDENTITY.name }) } });
    } else {
      expect(Object.keys(json.result)).toEqual(['resources']);
    }
  });

  it.each(REVISIONS)('%s: resources/read returns the document as text/html;profile=mcp-app (static: public, long TTL in 2026-07-28)', async (revision) => {
    const { status, json } = await request(apps, revision, 'resources/read', { uri: PLAN_VIEW_URI });
    expect(status).toBe(200);
    expect(json.result.contents).toEqual([{ uri: PLAN_VIEW_URI, mimeType: APP_MIME_TYPE, text: VIEW.html, _meta: { ui: { prefersBorder: true } } }]);
    if (revision === '2026-07-28') expect(json.result).toMatchObject({ resultType: 'complete', ttlMs: 86_400_000, cacheScope: 'public', _meta: { [META_SERVER_INFO]: expect.any(Object) } });
    else expect(Object.keys(json.result)).toEqual(['contents']);
  });

  it('an unknown URI is -32602 in 2026-07-28 and -32002 in the legacy revisions, with the URI in error.data', async () => {
    const uri = 'ui://sessionplan/other';
    const modern = await request(apps, '2026-07-28', 'resources/read', { uri });
    expect(modern.status).toBe(200);
    expect(modern.json.error).toEqual({ code: -32602, message: `Invalid params: params.uri names no resource of this server; its resources are ${PLAN_VIEW_URI}`, data: { uri } });
    for (const revision of LEGACY) {
      const legacy = await request(apps, revision, 'resources/read', { uri });
      expect(legacy.status).toBe(200);
      expect(legacy.json.error).toEqual({ code: -32002, message: `Resource not found: params.uri names no resource of this server; its resources are ${PLAN_VIEW_URI}`, data: { uri } });
    }
    // A long URI is echoed clipped, as every echo of client text is.
    const long = await request(apps, '2025-11-25', 'resources/read', { uri: `ui://${'x'.repeat(1000)}` });
    expect(long.json.error.data.uri).toHaveLength(128);
  });

  it('params rules: uri must be a string, params an object (both eras)', async () => {
    for (const revision of REVISIONS) {
      const { json } = await request(apps, revision, 'resources/read', { uri: 5 });
      expect(json.error).toMatchObject({ code: -32602, message: 'Invalid params: params.uri must be a string' });
    }
    const notObject = await apps({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: [] });
    expect(notObject.json.error.code).toBe(-32602);
  });

  it('modern resources/read goes through the header checks: Mcp-Method, and Mcp-Name equal to the URI (400 -32020)', async () => {
    const body = modernRequest('resources/read', { uri: PLAN_VIEW_URI });
    const ok = await apps(body, modernHeaders('resources/read', PLAN_VIEW_URI));
    expect(ok.status).toBe(200);
    const base64 = await apps(body, modernHeaders('resources/read', `=?base64?${Buffer.from(PLAN_VIEW_URI).toString('base64')}?=`));
    expect(base64.status).toBe(200);
    for (const [headers, message] of [
      [modernHeaders('resources/read'), 'the Mcp-Name header is required on resources/read'],
      [modernHeaders('resources/read', 'ui://sessionplan/other'), 'the Mcp-Name header must equal params.uri'],
      [modernHeaders('resources/read', 'create_session_link'), 'the Mcp-Name header must equal params.uri'],
      [modernHeaders('resources/list', PLAN_VIEW_URI), 'the Mcp-Method header must equal method'],
    ] as const) {
      const answer = await apps(body, headers);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toEqual({ code: -32020, message: `Header mismatch: ${message}` });
    }
    // The version checks come first, as for every method.
    const unsupported = await apps(body, { ...modernHeaders('resources/read', PLAN_VIEW_URI), 'mcp-protocol-version': '2025-11-25' });
    expect(unsupported.json.error.code).toBe(-32020);
  });

  it('the unknown-method sentences name the resource methods', async () => {
    const modern = await request(apps, '2026-07-28', 'prompts/list');
    expect(modern.status).toBe(404);
    expect(modern.json.error.message).toBe('Method not found: method must be server/discover, tools/list, tools/call, resources/list or resources/read in protocol version 2026-07-28');
    const legacy = await request(apps, '2025-11-25', 'resources/templates/list');
    expect(legacy.json.error.message).toBe('Method not found: method must be initialize, ping, tools/list, tools/call, resources/list or resources/read');
  });

  it.each(REVISIONS)('%s: tool results are byte for byte what the server answers without the app (text content unchanged)', async (revision) => {
    for (const [name, args] of [
      ['create_session_link', { session: SAMPLE_SESSION }],
      ['create_session_link', { session: 'broken' }],
      ['decode_session_link', { link: 'v2:abc' }],
    ] as const) {
      const withApp = await request(apps, revision, 'tools/call', { name, arguments: args });
      const without = await request(seed, revision, 'tools/call', { name, arguments: args });
      expect(withApp.raw).toBe(without.raw);
    }
  });
});

describe('MCP Apps off (MCP_APPS=off): the plain surface (tools only)', () => {
  it('capabilities are { tools: {} }, tools have no _meta, and the resource methods do not exist', async () => {
    for (const version of LEGACY) {
      expect((await seed(legacyRequest('initialize', { protocolVersion: version, capabilities: {} }))).json.result.capabilities).toEqual({ tools: {} });
    }
    expect((await request(seed, '2026-07-28', 'server/discover')).json.result.capabilities).toEqual({ tools: {} });
    for (const revision of REVISIONS) {
      const { json } = await request(seed, revision, 'tools/list');
      for (const tool of json.result.tools) expect(tool).not.toHaveProperty('_meta');
      const read = await request(seed, revision, 'resources/read', { uri: PLAN_VIEW_URI });
      expect(read.status).toBe(revision === '2026-07-28' ? 404 : 200);
      expect(read.json.error.code).toBe(-32601);
    }
    expect((await request(seed, '2026-07-28', 'resources/list')).json.error.message).toBe('Method not found: method must be server/discover, tools/list or tools/call in protocol version 2026-07-28');
    expect((await request(seed, '2025-11-25', 'resources/list')).json.error.message).toBe('Method not found: method must be initialize, ping, tools/list or tools/call');
  });
});
