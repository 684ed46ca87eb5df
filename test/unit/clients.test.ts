// The official MCP SDK clients as real peers of the real server (both adapters, port 0): SDK v1 (legacy handshake) and SDK v2 in
// pinned-modern, auto and default (legacy) negotiation — each lists tools, creates and decodes a link, sees tool errors.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import lz from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/start-server.js';
import { TRANSPORTS } from '../support/http.js';

/** A canonical document: every field present, keys in schema order, so its normalized form is itself. */
const SESSION = {
  version: '1.0',
  workshop: { title: 'Client round trip', description: 'Plan sent by an SDK client.', date: '2026-05-04', startTime: '09:30' },
  blockTypes: [{ id: 'talk', name: 'Talk', color: '#224488' }],
  persons: [
    { id: 'ana', name: 'Ana', role: 'Host' },
    { id: 'ben', name: 'Ben', role: '' },
  ],
  items: [
    {
      type: 'block', id: 'b1', title: 'Welcome ✨', duration: 15, blockTypeId: 'talk', personIds: ['ana'],
      description: 'Grüße, 👋', notes: '', material: '', fixedStartTime: '09:30', laneIndex: 0,
    },
    {
      type: 'breakout', id: 'x1', title: 'Tracks', duration: 40, description: '', notes: '', fixedStartTime: null,
      lanes: 2, sameInAllBreakouts: false, lanePersons: { '1': ['ben'] },
      children: [
        { type: 'block', id: 'b2', title: 'Track A', duration: 40, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
        { type: 'block', id: 'b3', title: 'Track B', duration: 40, blockTypeId: null, personIds: ['ben'], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 1 },
      ],
    },
    {
      type: 'group', id: 'g1', title: 'Wrap-up', duration: 20, description: '', notes: 'keep short', fixedStartTime: null,
      children: [{ type: 'block', id: 'b4', title: 'Feedback', duration: 20, blockTypeId: 'talk', personIds: ['ana', 'ben'], description: '', notes: '', material: 'Cards', fixedStartTime: null, laneIndex: 0 }],
    },
  ],
};
const SUMMARY = { title: 'Client round trip', blockCount: 4, totalDuration: 75 };
const LINK_PREFIX = 'https://sessionplan.de/#data=v2:';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** What each client flavour exposes; both SDK generations share this part of the Client API. */
interface Peer {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

let url: URL;

const flavours: { name: string; connect(): Promise<{ peer: Peer; check(): void }> }[] = [
  {
    name: '@modelcontextprotocol/sdk v1 Client (legacy initialize handshake)',
    async connect() {
      const client = new ClientV1({ name: 'sessionplan-test-v1', version: '1.0.0' });
      const transport = new TransportV1(url);
      await client.connect(transport);
      return {
        peer: client as unknown as Peer,
        check() {
          expect(transport.protocolVersion).toBe('2025-11-25');
          expect(transport.sessionId).toBeUndefined(); // stateless: no Mcp-Session-Id is ever issued
          expect(client.getServerVersion()?.name).toBe('sessionplan-mcp');
          expect(client.getInstructions()).toMatch(/create_session_link/);
        },
      };
    },
  },
  ...(['pin', 'auto'] as const).map((mode) => ({
    name: `@modelcontextprotocol/client v2 Client, versionNegotiation ${mode === 'pin' ? "{ mode: { pin: '2026-07-28' } }" : "{ mode: 'auto' }"}`,
    async connect() {
      const client = new ClientV2(
        { name: `sessionplan-test-v2-${mode}`, version: '1.0.0' },
        // The issue's `{ pin: '2026-07-28' }` is the *mode* value: the option is `{ mode: { pin } }` in client 2.4.0.
        { versionNegotiation: { mode: mode === 'pin' ? { pin: '2026-07-28' } : 'auto' } },
      );
      await client.connect(new TransportV2(url));
      return {
        peer: client as unknown as Peer,
        check() {
          expect(client.getProtocolEra()).toBe('modern');
          const discover = client.getDiscoverResult();
          expect(discover?.supportedVersions).toEqual(['2026-07-28']);
          expect(discover?.instructions).toMatch(/create_session_link/);
          expect(discover?._meta?.['io.modelcontextprotocol/serverInfo']?.name).toBe('sessionplan-mcp');
        },
      };
    },
  })),
  {
    name: '@modelcontextprotocol/client v2 Client, default negotiation (legacy)',
    async connect() {
      const client = new ClientV2({ name: 'sessionplan-test-v2-legacy', version: '1.0.0' });
      await client.connect(new TransportV2(url));
      return {
        peer: client as unknown as Peer,
        check() {
          expect(client.getProtocolEra()).toBe('legacy');
        },
      };
    },
  },
];

// Every official client against both socket adapters.
describe.each(TRANSPORTS)('%s adapter', (transport) => {
  let server: { port: number; close(): unknown } | undefined;
  beforeAll(async () => {
    server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', TRANSPORT: transport }));
    url = new URL(`http://127.0.0.1:${server.port}/mcp`);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe.each(flavours)('$name', (flavour) => {
    let peer: Peer;
    let check: () => void;
    beforeAll(async () => {
      ({ peer, check } = await flavour.connect());
    });
    afterAll(async () => {
      await peer?.close();
    });

    it('negotiated the expected protocol era', () => {
      check();
    });

    it('lists the two tools in order, each with an object input schema', async () => {
      const { tools } = await peer.listTools();
      expect(tools.map((t) => t.name)).toEqual(['create_session_link', 'decode_session_link']);
      for (const t of tools) expect(t.inputSchema).toMatchObject({ type: 'object' });
    });

    it('creates a link that lz-string decodes, then decodes it back to the normalized session', async () => {
      const created = (await peer.callTool({ name: 'create_session_link', arguments: { session: SESSION } })) as ToolResult;
      expect(created.isError).not.toBe(true);
      const { link, summary } = created.structuredContent as { link: string; summary: unknown };
      expect(link.startsWith(LINK_PREFIX)).toBe(true);
      expect(summary).toEqual(SUMMARY);
      expect(JSON.parse(created.content[0]?.text ?? 'null')).toEqual(created.structuredContent);
      expect(JSON.parse(lz.decompressFromEncodedURIComponent(link.slice(LINK_PREFIX.length)))).toEqual(SESSION);

      const decoded = (await peer.callTool({ name: 'decode_session_link', arguments: { link } })) as ToolResult;
      expect(decoded.isError).not.toBe(true);
      expect(decoded.structuredContent?.session).toEqual(SESSION);
      expect(decoded.structuredContent).not.toHaveProperty('warnings');
    });

    it('sees a dynamic server link as a tool error (isError, one text block, no structuredContent)', async () => {
      const result = (await peer.callTool({
        name: 'decode_session_link',
        arguments: { link: 'https://sessionplan.de/s/abc123' },
      })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content).toHaveLength(1);
      expect(result.content[0]?.text).toMatch(/^SESSION_DECODE_FAILED: /);
      expect(result.structuredContent).toBeUndefined();
    });

    it('gets an unknown tool as a protocol error -32601 (the errors table), thrown by the client', async () => {
      await expect(peer.callTool({ name: 'delete_session_link', arguments: {} })).rejects.toMatchObject({ code: -32601 });
    });

    it('sees an invalid session as a tool error naming the field path', async () => {
      const bad = structuredClone(SESSION);
      (bad.items[0] as { duration: number }).duration = 2000;
      const result = (await peer.callTool({ name: 'create_session_link', arguments: { session: bad } })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/^SESSION_VALIDATION_FAILED: /);
      expect(result.content[0]?.text).toContain('items[0].duration');
    });
  });
});
