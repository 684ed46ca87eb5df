// What the plan view's benchmarks feed it: the largest in-budget plan, the view document and real tool results, all
// from a running server (test/support/viewer-harness.ts) through the official MCP client.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadCodec } from '../src/codec/node.js';
import { PLAN_VIEW_URI } from '../src/mcp/app-view.js';
import { createSessionOperations } from '../src/session/operations.js';
import { ensureAppViewBuilt } from '../test/support/app-host.js';
import { ensureViewerBuilt, startViewerServer } from '../test/support/viewer-harness.js';
import { largestInBudgetPlan } from '../test/support/viewer-plans.js';

export type ViewTool = 'create_session_link' | 'decode_session_link';

export interface AppViewInputs {
  /** The running server's address (its viewer page opens the same link). */
  readonly serverUrl: string;
  /** The view document as `resources/read` returns it. */
  readonly html: string;
  /** The plan: the create's input. */
  readonly plan: Record<string, unknown>;
  /** The link create made of it: the decode's input. */
  readonly link: string;
  /** The decode's whole CallToolResult, as the host forwards it. */
  readonly decoded: unknown;
  /** The tool's definition from tools/list (the host context's `toolInfo.tool`). */
  tool(name: ViewTool): unknown;
  close(): Promise<void>;
}

/** Builds what is missing, starts a server and asks it for the view and both tools' results. */
export async function appViewInputs(): Promise<AppViewInputs> {
  ensureViewerBuilt();
  ensureAppViewBuilt();
  const operations = createSessionOperations(loadCodec, { baseUrl: 'https://sessionplan.de/' });
  const plan = await largestInBudgetPlan((candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
  const server = await startViewerServer({ RATE_LIMIT: '1000000' });
  const client = new Client({ name: 'bench-host', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const { tools } = await client.listTools();
    const html = ((await client.readResource({ uri: PLAN_VIEW_URI })).contents[0] as { text: string }).text;
    const created = (await client.callTool({ name: 'create_session_link', arguments: { session: plan } })) as { structuredContent: { link: string } };
    const link = created.structuredContent.link;
    const decoded = await client.callTool({ name: 'decode_session_link', arguments: { link } });
    return {
      serverUrl: server.url,
      html,
      plan,
      link,
      decoded,
      tool: (name) => tools.find((candidate) => candidate.name === name),
      async close() {
        await client.close();
        await server.close();
      },
    };
  } catch (error) {
    await client.close();
    await server.close();
    throw error;
  }
}
