// The MCP handler's own cost for one request, without sockets: what a small create costs before HTTP is added.
// Runs the built dist/ (as the servers in this bench do), not src/ through tsx. run.ts starts it as a child of its own,
// pinned to the servers' core (`in-process.ts <body file> <headers JSON>` prints `HANDLER_US <µs>`). In the bench's own
// process, counting wall time, the same build swung widely from round to round: on one core, V8's background threads
// (compiling, marking) take turns with the handler.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const dist = new URL('../../dist/', import.meta.url);
const { loadCodec } = (await import(new URL('codec/node.js', dist).href)) as typeof import('../../src/codec/node.js');
const { createMcpHandler } = (await import(new URL('mcp/handler.js', dist).href)) as typeof import('../../src/mcp/handler.js');
const { createSessionOperations } = (await import(new URL('session/operations.js', dist).href)) as typeof import('../../src/session/operations.js');

const IDENTITY = { name: 'sessionplan-mcp', title: 'Sessionplan snapshot links', version: 'bench', iconUrl: 'https://sessionplan.de/icon.png' };

/**
 * CPU µs per call: the process's CPU time (every thread, as the servers' CPU per request it is set next to) over 15,000
 * sequential calls after a warm-up, headers lower-cased as the adapters hand them. One total, not a median of short
 * batches: the kernel here accounts CPU time in 10 ms ticks, which a short batch of calls cannot resolve.
 */
export async function measureHandler(body: string, headers: Record<string, string>, calls = 15_000): Promise<number> {
  const handle = createMcpHandler({ operations: createSessionOperations(loadCodec), identity: IDENTITY });
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (let i = 0; i < 3_000; i++) await handle({ headers: lower, body });
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await handle({ headers: lower, body });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [bodyFile, headersJson] = process.argv.slice(2);
  if (bodyFile === undefined || headersJson === undefined) throw new Error('usage: in-process.ts <body file> <headers JSON>');
  const us = await measureHandler(readFileSync(bodyFile, 'utf8'), JSON.parse(headersJson) as Record<string, string>);
  console.log(`HANDLER_US ${us}`);
}
