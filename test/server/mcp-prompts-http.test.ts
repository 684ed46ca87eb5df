// The prompts and the templates resource on the real server, through the official SDK clients of both eras: listed,
// used, and read, so that a chat can start a plan from a template.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/http.js';

const TEMPLATES_URI = 'sessionplan://templates';

describe('MCP prompts (MCP_PROMPTS on, the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SDK v2 (modern): lists both prompts, gets plan_workshop with a template, reads the templates and creates a link from one', async () => {
    const client = new ClientV2({ name: 'prompts-v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(new URL(`${server.url}/mcp`)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => [prompt.name, prompt.title])).toEqual([['plan_workshop', 'Plan a workshop'], ['revise_plan', 'Revise a plan']]);
      const got = await client.getPrompt({ name: 'plan_workshop', arguments: { goal: 'A retrospective for the platform team', template: 'retrospective' } });
      const text = (got.messages[0]?.content as { text: string }).text;
      expect(text).toContain('A retrospective for the platform team');
      expect(text).toContain(TEMPLATES_URI);
      await expect(client.getPrompt({ name: 'plan_workshop', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      const read = await client.readResource({ uri: TEMPLATES_URI });
      const library = JSON.parse((read.contents[0] as { text: string }).text) as { templates: { key: string; documents: { en: unknown } }[] };
      const retrospective = library.templates.find((template) => template.key === 'retrospective')!;
      const created = await client.callTool({ name: 'create_session_link', arguments: { session: retrospective.documents.en } });
      expect((created.structuredContent as { link: string }).link).toMatch(/#data=v2:/);
    } finally {
      await client.close();
    }
  });

  it('SDK v1 (legacy handshake): the same prompts and resource', async () => {
    const client = new ClientV1({ name: 'prompts-v1', version: '1' });
    await client.connect(new TransportV1(new URL(`${server.url}/mcp`)));
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: {}, prompts: {}, resources: {} });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['plan_workshop', 'revise_plan']);
      const got = await client.getPrompt({ name: 'revise_plan', arguments: { link: 'https://sessionplan.de/#data=v2:abc', change: 'Move lunch to 12:00' } });
      expect((got.messages[0]?.content as { text: string }).text).toContain('Move lunch to 12:00');
      const read = await client.readResource({ uri: TEMPLATES_URI });
      expect((read.contents[0] as { mimeType: string }).mimeType).toBe('application/json');
    } finally {
      await client.close();
    }
  });
});

describe('MCP_PROMPTS=off', () => {
  it('has no prompts capability and no templates resource', async () => {
    const server = await startTestServer({ MCP_PROMPTS: 'off' });
    const client = new ClientV1({ name: 'plain', version: '1' });
    try {
      await client.connect(new TransportV1(new URL(`${server.url}/mcp`)));
      expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {} });
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(['ui://sessionplan/plan']);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
