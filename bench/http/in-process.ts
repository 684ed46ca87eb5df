// The MCP handler's own cost for one request, without sockets: what a small create costs before HTTP is added.
// Runs the built dist/ (as the servers in this bench do), not src/ through tsx.
const dist = new URL('../../dist/', import.meta.url);
const { loadCodec } = (await import(new URL('codec/node.js', dist).href)) as typeof import('../../src/codec/node.js');
const { createMcpHandler } = (await import(new URL('mcp/handler.js', dist).href)) as typeof import('../../src/mcp/handler.js');
const { createSessionOperations } = (await import(new URL('session/operations.js', dist).href)) as typeof import('../../src/session/operations.js');

const IDENTITY = { name: 'sessionplan-mcp', title: 'Sessionplan snapshot links', version: 'bench', iconUrl: 'https://sessionplan.de/icon.png' };

/** Median µs per call over batches of sequential calls (after a warm-up), headers lower-cased as the adapters hand them. */
export async function measureHandler(body: string, headers: Record<string, string>, batches = 15, perBatch = 200): Promise<number> {
  const handle = createMcpHandler({ operations: createSessionOperations(loadCodec), identity: IDENTITY });
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (let i = 0; i < 500; i++) await handle({ headers: lower, body });
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i++) await handle({ headers: lower, body });
    perCall.push(((performance.now() - t0) * 1000) / perBatch);
  }
  return perCall.sort((x, y) => x - y)[perCall.length >> 1]!;
}
