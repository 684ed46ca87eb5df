// The built product on whatever Node runs this file (CI: 20, and 22/24 via npx -p node@N): start, SDK clients of both
// revisions, REST, CLI, viewer files, adapter choice, WORKERS=2, SIGTERM. Each server is a real child process.
import { existsSync, readFileSync } from 'node:fs';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import lz from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSupportsReusePort } from '../../src/transport/select.js';
import { minimalSession } from '../fixtures/sessions.js';

const TITLE = (minimalSession() as { workshop: { title: string } }).workshop.title;
import { post, send } from '../support/http.js';
import { cli } from '../support/cli.js';
import { logLines, ROOT, startMainProcess } from '../support/main-process.js';
import type { MainProcess } from '../support/main-process.js';

const NODE = process.versions.node;
/** The pinned uWebSockets.js build ships native binaries for Node ABI 93/108/115 (Node 16, 18, 20). */
const UWS_NATIVE = ['93', '108', '115'].includes(process.versions.modules);

for (const file of ['dist/process/main.js', 'dist/cli.js', 'dist/viewer/index.html']) {
  if (!existsSync(`${ROOT}${file}`)) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does).`);
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

describe(`Node ${NODE}: the default server (node:http)`, () => {
  let server: MainProcess;
  beforeAll(async () => {
    server = await startMainProcess({ LOG_LEVEL: 'info', RATE_LIMIT: '1000' }, { built: true });
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) await server.stop();
  });

  it('names node:http and this Node in the ready line and the health JSON', async () => {
    expect(server.stdout()).toContain(`(MCP endpoint http://127.0.0.1:${server.port}/mcp, node:http v${NODE})`);
    const health = (await send(server.port)).json();
    expect(health).toMatchObject({ status: 'ok', name: 'sessionplan-mcp', transport: { adapter: 'node', version: `node:http v${NODE}` } });
  });

  it('serves the SDK v1 client (legacy handshake) and the SDK v2 client pinned to 2026-07-28', async () => {
    const url = new URL(`http://127.0.0.1:${server.port}/mcp`);
    const v1 = new ClientV1({ name: 'smoke-v1', version: '1.0.0' });
    const v1Transport = new TransportV1(url);
    await v1.connect(v1Transport);
    const v2 = new ClientV2({ name: 'smoke-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await v2.connect(new TransportV2(url));
    try {
      expect(v1Transport.protocolVersion).toBe('2025-11-25');
      expect(v2.getProtocolEra()).toBe('modern');
      for (const client of [v1, v2] as unknown as { listTools(): Promise<{ tools: { name: string }[] }>; callTool(p: unknown): Promise<unknown> }[]) {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['create_session_link', 'decode_session_link']);
        const created = (await client.callTool({ name: 'create_session_link', arguments: { session: minimalSession() } })) as ToolResult;
        const link = created.structuredContent?.link as string;
        expect(JSON.parse(lz.decompressFromEncodedURIComponent(link.slice(link.indexOf('v2:') + 3)) ?? 'null').workshop.title).toBe(TITLE);
        const decoded = (await client.callTool({ name: 'decode_session_link', arguments: { link } })) as ToolResult;
        expect(decoded.isError).toBeFalsy();
        expect((decoded.structuredContent?.session as { version: string }).version).toBe('1.0');
      }
    } finally {
      await v1.close();
      await v2.close();
    }
  });

  it('serves REST create and decode, the viewer page and its assets', async () => {
    const created = await post(server.port, '/api/session-links', { session: minimalSession() });
    expect(created.status).toBe(200);
    const decoded = await post(server.port, '/api/session-links/decode', { link: created.json().link });
    expect(decoded.json().session.workshop.title).toBe(TITLE);
    const page = await send(server.port, { path: '/' });
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    const manifest = JSON.parse(readFileSync(`${ROOT}dist/viewer/manifest.json`, 'utf8')) as { assets: Record<string, string> };
    const types = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', wasm: 'application/wasm' };
    for (const [kind, name] of Object.entries(manifest.assets)) {
      const file = await send(server.port, { path: `/assets/${name}` });
      expect([file.status, file.headers['content-type']], name).toEqual([200, types[kind as keyof typeof types]]);
    }
  });

  it('stops on SIGTERM with exit 0 and no stderr', async () => {
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe('');
    expect(logLines(server.stdout()).at(-1)?.msg).toBe('stopped');
  });
});

describe(`Node ${NODE}: CLI`, () => {
  it('encodes a plan from stdin and decodes the link back', async () => {
    const encoded = await cli(['encode', '-'], { stdin: JSON.stringify(minimalSession()) });
    expect([encoded.status, encoded.stderr]).toEqual([0, '']);
    const decoded = await cli(['decode', encoded.stdout.trim()]);
    expect(decoded.status).toBe(0);
    expect(JSON.parse(decoded.stdout).workshop.title).toBe(TITLE);
  });
});

describe(`Node ${NODE}: adapter choice`, () => {
  it(UWS_NATIVE ? 'TRANSPORT=uws serves natively' : 'TRANSPORT=uws stops start-up with one line saying what to do', async () => {
    if (UWS_NATIVE) {
      const server = await startMainProcess({ TRANSPORT: 'uws', LOG_LEVEL: 'info' }, { built: true });
      expect((await send(server.port)).json().transport.adapter).toBe('uws');
      expect((await server.stop()).code).toBe(0);
      return;
    }
    const failed = startMainProcess({ TRANSPORT: 'uws', LOG_LEVEL: 'info' }, { built: true });
    await expect(failed).rejects.toThrow(/exited with 1/);
    await expect(failed).rejects.toThrow(
      new RegExp(`TRANSPORT=uws: uWebSockets\\.js has no native binary that loads on Node v${NODE.replaceAll('.', '\\.')} \\(ABI ${process.versions.modules}, .*\\)[^\\n]*Use Node 20 for the pinned uWebSockets\\.js build, or TRANSPORT=node\\.`),
    );
  });

  it(`TRANSPORT=auto serves with ${UWS_NATIVE ? 'uWS' : 'node:http and one warning line'}`, async () => {
    const server = await startMainProcess({ TRANSPORT: 'auto', LOG_LEVEL: 'info' }, { built: true });
    try {
      expect((await send(server.port)).json().transport.adapter).toBe(UWS_NATIVE ? 'uws' : 'node');
      const warnings = logLines(server.stdout()).filter((line) => line.level === 40);
      expect(warnings.map((line) => line.msg)).toEqual(UWS_NATIVE ? [] : [expect.stringMatching(/serving with node:http instead\. For the uWS fast path use Node 20 for the pinned uWebSockets\.js build \(see docs\/deployment\.md\)/)]);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it(nodeSupportsReusePort() ? 'WORKERS=2 with node:http shares the port between both workers' : 'WORKERS=2 with node:http says it needs Node 22.12', async () => {
    if (!nodeSupportsReusePort()) {
      const failed = startMainProcess({ WORKERS: '2', LOG_LEVEL: 'info' }, { built: true });
      await expect(failed).rejects.toThrow(/WORKERS=2 with the node:http adapter needs Node 22\.12 or newer/);
      return;
    }
    const server = await startMainProcess({ WORKERS: '2', LOG_LEVEL: 'info', RATE_LIMIT: '1000' }, { built: true });
    // Fresh connections, so the kernel's SO_REUSEPORT spread can reach both workers.
    for (let i = 0; i < 40; i++) expect((await post(server.port, '/mcp', { jsonrpc: '2.0', id: i, method: 'ping' })).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const byWorker = [0, 1].map((w) => logLines(server.stdout()).filter((l) => l.msg === 'request' && l.worker === w).length);
    expect(byWorker.every((n) => n > 0), `requests per worker: ${byWorker.join('/')}`).toBe(true);
  });
});
