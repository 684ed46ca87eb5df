// Endpoints for large requests (offload threads) serialize in pieces: every answer joined is exactly the ordinary one.
import { describe, expect, it } from 'vitest';
import { createEndpoints } from '../../src/endpoints/endpoints.js';
import { textBody } from '../../src/http/body.js';
import type { AnswerBody } from '../../src/http/ports.js';
import { hostileCases, linkOf, maximalDocument } from '../fixtures/hostile-cases.js';
import { planOfSize, richSession } from '../fixtures/sessions.js';

const hooks = { recordEvent: () => {}, onInternalError: () => {} };
const ordinary = createEndpoints('https://sessionplan.de/', hooks);
const large = createEndpoints('https://sessionplan.de/', hooks, { largeTexts: true });

const asText = (body: AnswerBody): string => (body === null ? '' : typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : body.join(''));

const REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

function mcpCall(revision: (typeof REVISIONS)[number], name: string, args: string): { headers: Record<string, string>; body: string } {
  const meta = revision === '2026-07-28' ? ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}' : '';
  const headers: Record<string, string> = { 'mcp-protocol-version': revision };
  if (revision === '2026-07-28') Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': name });
  return { headers, body: `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"${name}","arguments":${args}${meta}}}` };
}

describe('answers of the endpoints for large requests', () => {
  const cases = hostileCases();
  const documents = [
    JSON.stringify(planOfSize(1_500_000)),
    JSON.stringify(maximalDocument()),
    JSON.stringify(richSession()),
    ...cases.filter((c) => c.operation === 'decode').map((c) => JSON.stringify(JSON.parse(c.argumentJson))),
  ];

  it('decodes: the same text on REST and in every MCP revision, for large, hostile and small documents', { timeout: 120_000 }, async () => {
    let inPieces = 0;
    for (const argument of documents) {
      const link = argument.startsWith('"') ? argument : JSON.stringify(linkOf(argument));
      const rest = [await ordinary.rest.decode(textBody(`{"link":${link}}`)), await large.rest.decode(textBody(`{"link":${link}}`))];
      expect(asText(rest[1]!.body) === asText(rest[0]!.body)).toBe(true);
      expect(rest[1]!.status).toBe(rest[0]!.status);
      for (const revision of REVISIONS) {
        const call = mcpCall(revision, 'decode_session_link', `{"link":${link}}`);
        const [a, b] = [await ordinary.mcp({ headers: call.headers, body: textBody(call.body) }), await large.mcp({ headers: call.headers, body: textBody(call.body) })];
        expect(b.status).toBe(a.status);
        expect(asText(b.body) === asText(a.body), `${revision}`).toBe(true);
        if (Array.isArray(b.body)) inPieces++;
      }
    }
    expect(inPieces).toBeGreaterThan(8);
  });

  it('creates: the same links and refusals, large documents in pieces included', { timeout: 120_000 }, async () => {
    const creates = [JSON.stringify(planOfSize(1_500_000)), JSON.stringify(maximalDocument()), JSON.stringify(richSession()), ...cases.filter((c) => c.operation === 'create' && !c.name.includes('nested')).map((c) => c.argumentJson)];
    for (const session of creates) {
      const body = `{"session":${session}}`;
      const [a, b] = [await ordinary.rest.create(textBody(body)), await large.rest.create(textBody(body))];
      expect([b.status, asText(b.body)]).toEqual([a.status, asText(a.body)]);
      const call = mcpCall('2026-07-28', 'create_session_link', `{"session":${session}}`);
      const [c, d] = [await ordinary.mcp({ headers: call.headers, body: textBody(call.body) }), await large.mcp({ headers: call.headers, body: textBody(call.body) })];
      expect(asText(d.body) === asText(c.body)).toBe(true);
    }
  });
});
