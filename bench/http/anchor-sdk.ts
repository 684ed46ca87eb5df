// Anchor server: the official SDK v2 (`@modelcontextprotocol/server` createMcpHandler, JSON response mode) doing the same
// create_session_link job as ours — zod validation, lz-string compression, 750,000-char payload budget — over node:http.
// Prints "LISTENING <port>" when ready. Used only by bench/http/run.ts as the comparison peer.
import http from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import lz from 'lz-string';
import { z } from 'zod';
import { Session, summarize } from './anchor-schema.js';

const BASE = 'https://sessionplan.de/';
const MAX_PAYLOAD = 750_000;
const MAX_BODY = 2_000_000;

const Summary = z.object({ title: z.string(), blockCount: z.number(), totalDuration: z.number() });
const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function toolError(text: string): { isError: true; content: { type: 'text'; text: string }[] } {
  return { isError: true, content: [{ type: 'text', text }] };
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sessionplan-anchor', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'create_session_link',
    {
      title: 'Create session link',
      description: 'Validate a complete session document and return an immutable snapshot link.',
      inputSchema: z.object({ session: Session }),
      outputSchema: z.object({ link: z.string(), summary: Summary }),
      annotations,
    },
    async ({ session }) => {
      const payload = lz.compressToEncodedURIComponent(JSON.stringify(session));
      if (payload.length > MAX_PAYLOAD) {
        return toolError(
          `SESSION_VALIDATION_FAILED: the compressed payload has ${payload.length} characters, ` +
            `${payload.length - MAX_PAYLOAD} over the 750000 budget; make the plan smaller.`,
        );
      }
      const out = { link: `${BASE}#data=v2:${payload}`, summary: summarize(session) };
      return {
        structuredContent: out,
        content: [
          { type: 'text', text: JSON.stringify(out) },
          { type: 'text', text: 'Return the link to the user verbatim.' },
        ],
      };
    },
  );
  server.registerTool(
    'decode_session_link',
    {
      title: 'Decode session link',
      description: 'Decode a snapshot link back into its session document.',
      inputSchema: z.object({ link: z.string() }),
      annotations,
    },
    async ({ link }) => {
      const code = link.slice(link.indexOf('v2:') + 3);
      const text = lz.decompressFromEncodedURIComponent(code);
      if (!text) return toolError('SESSION_DECODE_FAILED: the link does not decompress.');
      const session = Session.safeParse(JSON.parse(text));
      if (!session.success) return toolError(`SESSION_DECODE_FAILED: ${session.error.message}`);
      const out = { session: session.data };
      return { structuredContent: out, content: [{ type: 'text', text: JSON.stringify(out) }] };
    },
  );
  return server;
}

const handler = createMcpHandler(() => buildServer(), { responseMode: 'json', maxRequestBodySize: MAX_BODY });

/** node:http → web Request → handler.fetch → node:http (what @modelcontextprotocol/node's toNodeHandler does). */
const httpServer = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
    });
    handler
      .fetch(request)
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        const reader = response.body?.getReader();
        for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) res.write(part.value);
        res.end();
      })
      .catch((err: unknown) => {
        console.error('anchor: handler failed', err);
        res.writeHead(500).end();
      });
  });
});

httpServer.listen(Number(process.env.PORT ?? '0'), process.env.HOST ?? '127.0.0.1', () => {
  const addr = httpServer.address();
  console.log(`LISTENING ${typeof addr === 'object' && addr ? addr.port : 0}`);
});
