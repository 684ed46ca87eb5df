// The MCP App on the real server (both adapters' shared core, port 0): the official SDK clients find and read the
// ui:// resource, and resources go through the same rate limit, origin rules, metrics and offload threads as tools.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { getToolUiResourceUri, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VIEW_FILE, loadAppView } from '../../src/assets/app-view.js';
import { PLAN_VIEW_URI } from '../../src/mcp/app-view.js';
import { ensureAppViewBuilt } from '../support/app-host.js';
import { post, startTestServer, type TestServer } from '../support/http.js';

const READ = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: PLAN_VIEW_URI } };
const BUILT = (): string => readFileSync(APP_VIEW_FILE, 'utf8');

beforeAll(() => ensureAppViewBuilt());

describe('a server with MCP_APPS on (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_BASE_URL: 'https://plans.example.org/team/', RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SDK v2 (modern): tools point at the resource, which reads as the built document completed with PUBLIC_BASE_URL', async () => {
    const client = new ClientV2({ name: 'apps-v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(new URL(`${server.url}/mcp`)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerCapabilities()).toEqual({ tools: {}, prompts: {}, resources: {} });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => getToolUiResourceUri(tool))).toEqual([PLAN_VIEW_URI, PLAN_VIEW_URI]);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([[PLAN_VIEW_URI, RESOURCE_MIME_TYPE], ['sessionplan://templates', 'application/json']]);
      const read = await client.readResource({ uri: PLAN_VIEW_URI });
      const [content] = read.contents as { uri: string; mimeType: string; text: string }[];
      expect(content?.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(content?.text).toBe(BUILT().replace('%PUBLIC_BASE_URL%', 'https://plans.example.org/team/'));
      await expect(client.readResource({ uri: 'ui://sessionplan/nothing' })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('SDK v1 (legacy handshake): the same resource; an unknown URI is -32002', async () => {
    const client = new ClientV1({ name: 'apps-v1', version: '1' });
    await client.connect(new TransportV1(new URL(`${server.url}/mcp`)));
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: {}, prompts: {}, resources: {} });
      const read = await client.readResource({ uri: PLAN_VIEW_URI });
      expect((read.contents[0] as { text: string }).text).toContain('<meta name="sessionplan-base-url" content="https://plans.example.org/team/">');
      await expect(client.readResource({ uri: 'ui://sessionplan/nothing' })).rejects.toMatchObject({ code: -32002 });
    } finally {
      await client.close();
    }
  });

  it('the document is self-contained: no external URL to load, script and style inline', () => {
    const html = BUILT();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).not.toMatch(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=/i);
    expect(html).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html.match(/<script type="module">/g)).toHaveLength(1);
    expect(html.match(/<style>/g)).toHaveLength(1);
  });

  it('the view\'s script starts with V8\'s compile hint, so its functions compile at load and not in the first render', () => {
    // Without it, ~65 functions compile lazily inside the first render of a plan (~2.5 ms, docs/benchmarks.md).
    const script = BUILT().split('<script type="module">')[1] ?? '';
    expect(script.split('\n', 1)[0]).toBe('//# allFunctionsCalledOnLoad');
  });

  it('the document is at most 200 KiB (its gzip size is reported)', () => {
    const bytes = Buffer.byteLength(BUILT());
    console.log(`plan view document: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB), gzip -9 ${gzipSync(BUILT(), { level: 9 }).length} bytes`);
    expect(bytes).toBeLessThanOrEqual(200 * 1024);
  });

  it('a resources/read from a disallowed Origin is refused like a tool call (403)', async () => {
    const reply = await post(server.port, '/mcp', READ, { origin: 'https://evil.example' });
    expect(reply.status).toBe(403);
    expect(reply.json().error.code).toBe(-32600);
  });

  it('is counted in the HTTP metrics of the mcp route', async () => {
    const count = async (): Promise<number> => {
      const { body } = await server.metrics.render();
      const line = body.split('\n').find((row) => row.startsWith('sessionplan_http_requests_total{') && row.includes('route="mcp"') && row.includes('status="200"') && row.includes('method="POST"'));
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const before = await count();
    expect((await post(server.port, '/mcp', READ)).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('a large legacy resources/read (a 100 KB body) is answered by an offload thread with the same document', async () => {
    const small = await post(server.port, '/mcp', READ);
    const large = await post(server.port, '/mcp', { ...READ, params: { uri: PLAN_VIEW_URI, _meta: { padding: 'x'.repeat(100_000) } } });
    expect(large.status).toBe(200);
    expect(large.text).toBe(small.text);
  });
});

describe('rate limit', () => {
  it('resources/read counts against the same 60-per-window limit as every POST (429 -32000 past it)', async () => {
    const server = await startTestServer({ RATE_LIMIT: '2' });
    try {
      expect((await post(server.port, '/mcp', READ)).status).toBe(200);
      expect((await post(server.port, '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
      const limited = await post(server.port, '/mcp', READ);
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('60');
      expect(limited.json().error.code).toBe(-32000);
    } finally {
      await server.close();
    }
  });
});

describe('MCP_APPS=off', () => {
  it('with MCP_PROMPTS=off too, serves the plain surface (tools only) and needs no built view', async () => {
    const server = await startTestServer({ MCP_APPS: 'off', MCP_PROMPTS: 'off' });
    try {
      const init = await post(server.port, '/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      expect(init.json().result.capabilities).toEqual({ tools: {} });
      const list = await post(server.port, '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' });
      expect(list.text).not.toContain('_meta');
      expect((await post(server.port, '/mcp', READ)).json().error.code).toBe(-32601);
    } finally {
      await server.close();
    }
  });

  it('a bad value stops start-up naming the variable', async () => {
    await expect(startTestServer({ MCP_APPS: 'yes' })).rejects.toThrow('MCP_APPS must be "on" or "off" (got "yes")');
  });
});

describe('loading the built view', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sessionplan-app-view-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes PUBLIC_BASE_URL into its one placeholder, escaped for an attribute', async () => {
    const file = join(dir, 'one.html');
    writeFileSync(file, '<meta name="sessionplan-base-url" content="%PUBLIC_BASE_URL%">');
    expect((await loadAppView('https://a.example/x"y&z/', pathToFileURL(file))).html).toBe('<meta name="sessionplan-base-url" content="https://a.example/x&quot;y&amp;z/">');
  });

  it('refuses a missing or foreign file with what to run', async () => {
    await expect(loadAppView('https://a.example/', pathToFileURL(join(dir, 'missing.html')))).rejects.toThrow(/is not built .* run `npm run build`, or set MCP_APPS=off/);
    const file = join(dir, 'two.html');
    writeFileSync(file, '%PUBLIC_BASE_URL% %PUBLIC_BASE_URL%');
    await expect(loadAppView('https://a.example/', pathToFileURL(file))).rejects.toThrow(/must name %PUBLIC_BASE_URL% once/);
  });
});
