// Every row of the errors table (docs/http-api.md) that belongs to the MCP protocol layer, envelope rules, ids 0 and "", notifications.
import { describe, expect, it } from 'vitest';
import { RPC_SITUATIONS, rpcError } from '../../src/mcp/errors.js';
import type { SessionOperations } from '../../src/session/operations.js';
import { legacyRequest, makePost, modernHeaders, modernRequest, SAMPLE_SESSION } from '../support/mcp.js';

const post = makePost();

/** The errors table of docs/http-api.md, rows with a JSON-RPC body. */
const ERRORS_TABLE: Array<[keyof typeof RPC_SITUATIONS, number, number]> = [
  ['invalidOrigin', 403, -32600],
  // The table's "Invalid Origin" row (403, -32600) also covers the Host guard; the message says which header failed.
  ['invalidHost', 403, -32600],
  ['unsupportedProtocolVersion', 400, -32022],
  ['headerMismatch', 400, -32020],
  ['unknownModernMethod', 404, -32601],
  ['unknownLegacyMethod', 200, -32601],
  ['unknownTool', 200, -32601],
  ['malformedJson', 200, -32700],
  ['invalidRequest', 200, -32600],
  ['invalidParams', 200, -32602],
  ['internalError', 200, -32603],
  ['bodyTooLarge', 413, -32600],
  ['rateLimited', 429, -32000],
  ['rateLimitStoreUnavailable', 503, -32603],
];
/** Situations of optional features (the MCP App) the table has no row for, each with the code the MCP spec gives. */
const OPTIONAL_FEATURES: Array<[keyof typeof RPC_SITUATIONS, number, number]> = [
  // MCP Apps: resources/read of an unknown URI in the legacy revisions (MCP 2025-11-25 "Resource not found").
  ['resourceNotFound', 200, -32002],
];

describe('the one error table', () => {
  it.each([...ERRORS_TABLE, ...OPTIONAL_FEATURES])('%s answers HTTP %i with JSON-RPC %i', (situation, status, code) => {
    const reply = rpcError(situation, 7);
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.body!)).toEqual({ jsonrpc: '2.0', id: 7, error: { code, message: RPC_SITUATIONS[situation].message } });
  });

  it('has no situation the table lacks, but for the optional features', () => {
    expect(Object.keys(RPC_SITUATIONS).sort()).toEqual([...ERRORS_TABLE, ...OPTIONAL_FEATURES].map(([s]) => s).sort());
  });

  it('omits the id when undefined and writes null when null', () => {
    expect(JSON.parse(rpcError('malformedJson', undefined).body!)).not.toHaveProperty('id');
    expect(JSON.parse(rpcError('malformedJson', null).body!).id).toBeNull();
  });
});

describe('rows answered by the protocol layer end to end', () => {
  const rows: Array<{ row: string; body: unknown; headers?: Record<string, string>; status: number; code: number }> = [
    { row: 'unsupported version (modern)', body: { ...modernRequest('tools/list'), params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } } }, headers: { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' }, status: 400, code: -32022 },
    { row: 'unsupported version (legacy header)', body: legacyRequest('tools/list'), headers: { 'mcp-protocol-version': '1999-01-01' }, status: 400, code: -32022 },
    { row: 'non-date version header (legacy, unsupported)', body: legacyRequest('tools/list'), headers: { 'mcp-protocol-version': 'v999.0.0' }, status: 400, code: -32022 },
    { row: 'empty version header', body: legacyRequest('ping'), headers: { 'mcp-protocol-version': ' ' }, status: 400, code: -32022 },
    { row: 'missing modern headers', body: modernRequest('tools/list'), headers: {}, status: 400, code: -32020 },
    { row: 'mismatched modern header', body: modernRequest('tools/list'), headers: modernHeaders('tools/call'), status: 400, code: -32020 },
    { row: 'unknown modern method', body: modernRequest('resources/list'), headers: modernHeaders('resources/list'), status: 404, code: -32601 },
    { row: 'unknown legacy method', body: legacyRequest('resources/list'), status: 200, code: -32601 },
    { row: 'unknown tool (legacy)', body: legacyRequest('tools/call', { name: 'nope', arguments: {} }), status: 200, code: -32601 },
    { row: 'unknown tool (modern)', body: modernRequest('tools/call', { name: 'nope', arguments: {} }), headers: modernHeaders('tools/call', 'nope'), status: 200, code: -32601 },
    { row: 'malformed JSON', body: '{"jsonrpc":"2.0",', status: 200, code: -32700 },
    { row: 'invalid envelope', body: { jsonrpc: '1.0', id: 1, method: 'ping' }, status: 200, code: -32600 },
    { row: 'invalid request id', body: { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, status: 200, code: -32600 },
    { row: 'invalid params', body: legacyRequest('tools/call', { name: 'create_session_link', arguments: [] }), status: 200, code: -32602 },
    { row: 'invalid metadata', body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 5 } } }, headers: modernHeaders('tools/list'), status: 200, code: -32602 },
    { row: 'invalid tool arguments', body: legacyRequest('tools/call', { name: 'create_session_link', arguments: { session: {}, extra: 1 } }), status: 200, code: -32602 },
  ];
  it.each(rows)('$row → HTTP $status, $code', async ({ body, headers, status, code }) => {
    const answer = await post(body, headers);
    expect(answer.status).toBe(status);
    expect(answer.json.error.code).toBe(code);
    expect(answer.json).not.toHaveProperty('result');
  });

  it('unexpected processing failure → 200 -32603 with a generic message and no trace of the cause', async () => {
    const broken: SessionOperations = {
      createSessionLink: async () => { throw new Error('boom at /srv/secret/path.ts:12'); },
      decodeSessionLink: async () => { throw new TypeError('x is undefined'); },
    };
    const failing = makePost(broken);
    for (const [name, args] of [['create_session_link', { session: SAMPLE_SESSION }], ['decode_session_link', { link: 'x' }]] as const) {
      const answer = await failing(legacyRequest('tools/call', { name, arguments: args }, 'abc'));
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32603, message: 'Internal error' } });
    }
  });

  it('-32022 carries data with all four versions and the requested one', async () => {
    const answer = await post(legacyRequest('ping'), { 'mcp-protocol-version': '1999-01-01' });
    expect(answer.json.error.data).toEqual({ supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '1999-01-01' });
  });

  it('never repeats the malformed input in the error', async () => {
    const answer = await post('{"secret-token-123": ');
    expect(answer.raw).not.toContain('secret-token-123');
  });
});

describe('envelope', () => {
  const invalid: Array<[string, unknown]> = [
    ['a JSON array (batch)', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ['an empty array', []],
    ['a number', 42],
    ['null', null],
    ['a JSON string', '"ping"'],
    ['jsonrpc missing', { id: 1, method: 'ping' }],
    ['jsonrpc 2', { jsonrpc: 2, id: 1, method: 'ping' }],
    ['method missing', { jsonrpc: '2.0', id: 1 }],
    ['method not a string', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['id boolean', { jsonrpc: '2.0', id: true, method: 'ping' }],
    ['id array', { jsonrpc: '2.0', id: [1], method: 'ping' }],
    ['a posted response', { jsonrpc: '2.0', id: 1, result: {} }],
  ];
  it.each(invalid)('%s → 200 -32600', async (_label, body) => {
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(answer.json.error.code).toBe(-32600);
  });

  it('echoes a readable id even when the rest of the envelope is wrong', async () => {
    expect((await post({ jsonrpc: '1.0', id: 0, method: 'ping' })).json.id).toBe(0);
    expect((await post({ jsonrpc: '2.0', id: '', method: 3 })).json.id).toBe('');
  });

  it('unreadable ids: legacy writes "id": null, modern omits id', async () => {
    const legacy = await post({ jsonrpc: '2.0', id: null, method: 'ping' });
    expect(legacy.json).toHaveProperty('id', null);
    const modern = await post({ ...modernRequest('tools/list'), id: null }, modernHeaders('tools/list'));
    expect(modern.json).not.toHaveProperty('id');
    expect(modern.json.error.code).toBe(-32600);
    const parseModern = await post('{', modernHeaders('tools/list'));
    expect(parseModern.json).not.toHaveProperty('id');
    expect(parseModern.json.error.code).toBe(-32700);
    const parseLegacy = await post('{');
    expect(parseLegacy.json).toHaveProperty('id', null);
    const batchModern = await post([modernRequest('tools/list')], modernHeaders('tools/list'));
    expect(batchModern.json).not.toHaveProperty('id');
  });
});

describe('ids 0 and "" are valid and echoed exactly', () => {
  for (const id of [0, '', -1, 1.5, 'a-b']) {
    it(`id ${JSON.stringify(id)}: legacy result, legacy error, modern result, modern error`, async () => {
      expect((await post(legacyRequest('ping', undefined, id))).json).toEqual({ jsonrpc: '2.0', id, result: {} });
      expect((await post(legacyRequest('nope', undefined, id))).json.id).toStrictEqual(id);
      const modern = await post(modernRequest('tools/list', {}, id), modernHeaders('tools/list'));
      expect(modern.json.id).toStrictEqual(id);
      expect(modern.json.result.resultType).toBe('complete');
      const modernError = await post(modernRequest('ping', {}, id), modernHeaders('ping'));
      expect(modernError.status).toBe(404);
      expect(modernError.json.id).toStrictEqual(id);
    });
  }
});

describe('notifications get 202 with an empty body', () => {
  it.each([
    ['legacy notifications/initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, {}],
    ['legacy with a negotiated header', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': '2025-06-18' }],
    ['legacy unknown notification', { jsonrpc: '2.0', method: 'notifications/whatever', params: {} }, {}],
    ['modern notifications/cancelled', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, modernHeaders('notifications/cancelled')],
    ['modern header only', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': '2026-07-28' }],
  ])('%s', async (_label, body, headers) => {
    const answer = await post(body, headers);
    expect(answer.status).toBe(202);
    expect(answer.raw).toBeNull();
  });

  it('a legacy notification naming an unsupported version is refused like a request (400 -32022, id null)', async () => {
    const answer = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': '2024-01-01' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ id: null, error: { code: -32022 } });
  });

  it('notifications/initialized sent with an id is a request for an unknown method', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 3, method: 'notifications/initialized' });
    expect(answer.status).toBe(200);
    expect(answer.json.error.code).toBe(-32601);
  });
});

