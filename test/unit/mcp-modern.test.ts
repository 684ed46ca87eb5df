// Modern (2026-07-28) checks in the order of docs/http-api.md, each failing alone, and the Mcp-Name `=?base64?…?=` form.
import { describe, expect, it } from 'vitest';
import { decodeMcpName } from '../../src/mcp/headers.js';
import { makeHandler, makePost, META_CAPS, META_VERSION, modernHeaders, modernMeta, SAMPLE_SESSION } from '../support/mcp.js';

const post = makePost();
const TOOL = 'create_session_link';

/** A fully correct modern tools/call; each case below breaks exactly one thing. */
function validCall() {
  return {
    body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: TOOL, arguments: { session: SAMPLE_SESSION }, _meta: modernMeta() } as Record<string, any> },
    headers: modernHeaders('tools/call', TOOL),
  };
}

type Case = { check: string; status: number; code: number; message: RegExp; breakIt(c: ReturnType<typeof validCall>): void };

const CHECKS: Case[] = [
  { check: '1 _meta missing', status: 200, code: -32602, message: /params\._meta is required/, breakIt: (c) => { delete c.body.params._meta; } },
  { check: '1 protocolVersion missing', status: 200, code: -32602, message: /protocolVersion"\] must be a string/, breakIt: (c) => { delete c.body.params._meta[META_VERSION]; } },
  { check: '1 clientCapabilities missing', status: 200, code: -32602, message: /clientCapabilities"\] must be an object/, breakIt: (c) => { delete c.body.params._meta[META_CAPS]; } },
  { check: '1 clientCapabilities not an object', status: 200, code: -32602, message: /clientCapabilities"\] must be an object/, breakIt: (c) => { c.body.params._meta[META_CAPS] = []; } },
  { check: '2 version header missing', status: 400, code: -32020, message: /MCP-Protocol-Version header is required/, breakIt: (c) => { delete c.headers['mcp-protocol-version']; } },
  { check: '2 version header differs', status: 400, code: -32020, message: /MCP-Protocol-Version header must equal/, breakIt: (c) => { c.headers['mcp-protocol-version'] = '2025-11-25'; } },
  { check: '3 version unsupported', status: 400, code: -32022, message: /must be 2026-07-28/, breakIt: (c) => { c.body.params._meta[META_VERSION] = 'v999.0.0'; c.headers['mcp-protocol-version'] = 'v999.0.0'; } },
  { check: '4 Mcp-Method missing', status: 400, code: -32020, message: /Mcp-Method header is required/, breakIt: (c) => { delete c.headers['mcp-method']; } },
  { check: '4 Mcp-Method differs in case', status: 400, code: -32020, message: /Mcp-Method header must equal/, breakIt: (c) => { c.headers['mcp-method'] = 'TOOLS/CALL'; } },
  { check: '5 Mcp-Name missing', status: 400, code: -32020, message: /Mcp-Name header is required/, breakIt: (c) => { delete c.headers['mcp-name']; } },
  { check: '5 Mcp-Name differs', status: 400, code: -32020, message: /Mcp-Name header must equal/, breakIt: (c) => { c.headers['mcp-name'] = 'decode_session_link'; } },
  { check: '6 method unknown (initialize)', status: 404, code: -32601, message: /Method not found/, breakIt: (c) => { c.body.method = 'initialize'; c.headers['mcp-method'] = 'initialize'; } },
  { check: '6 method unknown (ping)', status: 404, code: -32601, message: /Method not found/, breakIt: (c) => { c.body.method = 'ping'; c.headers['mcp-method'] = 'ping'; } },
];

describe('modern check order', () => {
  it('the unbroken request succeeds', async () => {
    const { body, headers } = validCall();
    const answer = await post(body, headers);
    expect(answer.status).toBe(200);
    expect(answer.json.result.resultType).toBe('complete');
    expect(answer.json.result.isError).toBeUndefined();
  });

  it.each(CHECKS)('check $check → HTTP $status $code', async ({ status, code, message, breakIt }) => {
    const c = validCall();
    breakIt(c);
    const answer = await post(c.body, c.headers);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code } });
    expect(answer.json.error.message).toMatch(message);
  });

  it('an earlier check wins over every later one', async () => {
    // Break check k and every check after it; the answer must be check k's. (An unknown method cannot be combined
    // with the Mcp-Name check, which exists only on tools/call; its place last is shown by the cases above.)
    const ordered = [3, 4, 6, 7, 9].map((i) => CHECKS[i]!);
    for (let k = 0; k < ordered.length; k++) {
      const c = validCall();
      for (let j = ordered.length - 1; j >= k; j--) ordered[j]!.breakIt(c);
      const answer = await post(c.body, c.headers);
      expect({ check: ordered[k]!.check, code: answer.json.error?.code, status: answer.status }).toEqual({ check: ordered[k]!.check, code: ordered[k]!.code, status: ordered[k]!.status });
      expect(answer.json.error.message).toMatch(ordered[k]!.message);
    }
  });

  it('a version header newer than the legacy ones makes the request modern, so the missing _meta is -32602', async () => {
    for (const version of ['2026-07-28', '2026-01-01', '2099-12-31']) {
      const answer = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': version, 'mcp-method': 'tools/list' });
      expect(answer.status).toBe(200);
      expect(answer.json.error.code).toBe(-32602);
    }
  });

  it('a _meta claim makes initialize and ping modern (404), even without headers the claim decides the era', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', _meta: modernMeta() } }, modernHeaders('initialize'));
    expect(answer.status).toBe(404);
    const headerless = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
    expect(headerless.status).toBe(400);
    expect(headerless.json.error.code).toBe(-32020);
  });

  it('header names are the HTTP layer’s lower-case names; values are trimmed of spaces and tabs only', async () => {
    const { body } = validCall();
    const answer = await post(body, { 'mcp-protocol-version': ' 2026-07-28\t', 'mcp-method': '\ttools/call ', 'mcp-name': '  create_session_link  ' });
    expect(answer.status).toBe(200);
    const nbsp = await post(body, { ...modernHeaders('tools/call', TOOL), 'mcp-method': '\u00a0tools/call' });
    expect(nbsp.status).toBe(400);
  });

  it('without a string params.name there is nothing for Mcp-Name to mirror: the param rule names the field', async () => {
    const c = validCall();
    delete c.body.params.name;
    delete c.headers['mcp-name'];
    const answer = await post(c.body, c.headers);
    expect(answer.status).toBe(200);
    expect(answer.json.error).toMatchObject({ code: -32602, message: 'Invalid params: params.name must be a string' });
  });
});

describe('Mcp-Name =?base64?…?= form', () => {
  const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
  const cases: Array<[string, string, number]> = [
    ['valid base64 of the tool name', b64(TOOL), 200],
    ['valid base64 with surrounding spaces', `  ${b64(TOOL)} `, 200],
    ['uppercase markers are a literal value', b64(TOOL).replace('base64', 'BASE64'), 400],
    ['mixed-case marker', b64(TOOL).replace('base64', 'Base64'), 400],
    ['missing suffix is a literal value', b64(TOOL).slice(0, -2), 400],
    ['missing padding', `=?base64?${Buffer.from(TOOL).toString('base64').replace(/=+$/, '')}?=`, 400],
    ['non-alphabet characters', '=?base64?Y3Jl!!!YXRl?=', 400],
    ['base64url alphabet', '=?base64?_-8=?=', 400],
    ['non-canonical trailing bits', '=?base64?YR==?=', 400],
    ['not UTF-8', '=?base64?/w==?=', 400],
    ['base64 of a different name', b64('decode_session_link'), 400],
  ];
  it.each(cases)('%s → %i', async (_label, header, status) => {
    const { body } = validCall();
    const answer = await post(body, { ...modernHeaders('tools/call'), 'mcp-name': header });
    expect(answer.status).toBe(status);
    if (status === 400) expect(answer.json.error.code).toBe(-32020);
  });

  it('decodes non-ASCII names and rejects what is not canonical', () => {
    expect(decodeMcpName(b64('über 名前'))).toBe('über 名前');
    expect(decodeMcpName('=?base64??=')).toBe('');
    expect(decodeMcpName('plain')).toBe('plain');
    expect(decodeMcpName('=?base64?=')).toBe('=?base64?=');
    expect(decodeMcpName('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeMcpName('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeMcpName('=?base64?7aCA?=')).toBeUndefined(); // encoded lone surrogate: invalid UTF-8
  });
});

describe('a stream transport (stdio) has no headers', () => {
  const streamPost = makePost(undefined, undefined, 'stream');
  it('leaves out the header checks and keeps every other check, in the same order', async () => {
    const { body } = validCall();
    const answer = await streamPost(body, {});
    expect(answer.status).toBe(200);
    expect(answer.json.result.resultType).toBe('complete');
    // Headers a stream cannot have are not looked at, even when a caller passes them.
    expect((await streamPost(body, { 'mcp-method': 'tools/list', 'mcp-name': 'other' })).json.result.resultType).toBe('complete');
    const unsupported = validCall();
    unsupported.body.params._meta[META_VERSION] = 'v999.0.0';
    expect((await streamPost(unsupported.body, {})).json.error.code).toBe(-32022);
    const noCapabilities = validCall();
    delete noCapabilities.body.params._meta[META_CAPS];
    expect((await streamPost(noCapabilities.body, {})).json.error.code).toBe(-32602);
    expect((await streamPost({ ...validCall().body, method: 'ping' }, {})).json.error.code).toBe(-32601);
    // The same request over HTTP without headers is refused (-32020).
    expect((await post(body, {})).json.error.code).toBe(-32020);
  });

  it('a legacy initialize reports the revision it negotiated, for the stream to keep', async () => {
    const handle = makeHandler('stream');
    const init = await handle({ headers: {}, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } }) });
    expect(init.negotiated).toBe('2025-06-18');
    const list = await handle({ headers: {}, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(list.negotiated).toBeUndefined();
  });
});
