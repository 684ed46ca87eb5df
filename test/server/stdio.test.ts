// `sessionplan-mcp stdio` as a real subprocess: the official SDK clients over stdio (v1 legacy handshake, v2 auto
// negotiation), and a raw run with malformed lines, an oversized line, EOF and SIGTERM (exit 0 in under a second).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import lz from 'lz-string';
import { afterEach, describe, expect, it } from 'vitest';
import { PLAN_VIEW_URI } from '../../src/mcp/app-view.js';
import { ensureAppViewBuilt } from '../support/app-host.js';
import { rssMb } from '../support/attacks.js';
import { CLI } from '../support/cli.js';
import { LIMITS } from '../../src/limits/table.js';

const SESSION = {
  version: '1.0',
  workshop: { title: 'Über stdio', description: '', date: '2026-05-04', startTime: '09:00' },
  blockTypes: [],
  persons: [],
  items: [
    { type: 'block', id: 'a', title: 'Ankommen', duration: 15, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
  ],
};
const LINK_PREFIX = 'https://sessionplan.de/#data=v2:';

/** The environment of a client that starts the server: no PUBLIC_BASE_URL from the test runner's own environment. */
function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'PUBLIC_BASE_URL') env[key] = value;
  return { ...env, LOG_LEVEL: 'info', ...extra };
}

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

ensureAppViewBuilt();

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('official SDK clients over stdio', () => {
  it('SDK v1 StdioClientTransport: legacy handshake (2025-11-25), tools with titles, create → decode round trip, errors', async () => {
    const transport = new StdioV1({ command: process.execPath, args: [CLI, 'stdio'], env: serverEnv(), stderr: 'pipe' });
    const client = new ClientV1({ name: 'stdio-v1', version: '1.0.0' });
    closers.push(() => client.close());
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('sessionplan-mcp');
    expect(client.getInstructions()).toMatch(/create_session_link/);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['create_session_link', 'decode_session_link']);
    // The negotiated revision shapes the results: 2025-11-25 has titles and output schemas (2025-03-26 would not).
    expect(tools.map((tool) => tool.title)).toEqual(['Create Sessionplan link', 'Decode Sessionplan link']);
    expect(tools[0]?.outputSchema).toMatchObject({ type: 'object' });

    const created = (await client.callTool({ name: 'create_session_link', arguments: { session: SESSION } })) as ToolResult;
    expect(created.isError).not.toBe(true);
    const link = created.structuredContent?.link as string;
    expect(link.startsWith(LINK_PREFIX)).toBe(true);
    expect(JSON.parse(lz.decompressFromEncodedURIComponent(link.slice(LINK_PREFIX.length)))).toEqual(SESSION);
    const decoded = (await client.callTool({ name: 'decode_session_link', arguments: { link } })) as ToolResult;
    expect(decoded.structuredContent?.session).toEqual(SESSION);

    const refused = (await client.callTool({ name: 'decode_session_link', arguments: { link: 'https://sessionplan.de/s/abc' } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/^SESSION_DECODE_FAILED: /);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32601 });

    // The MCP App's resource is served over stdio too (MCP_APPS defaults to on), and the prompts (MCP_PROMPTS).
    expect(client.getServerCapabilities()).toEqual({ tools: {}, prompts: {}, resources: {} });
    const read = await client.readResource({ uri: PLAN_VIEW_URI });
    expect(read.contents[0]).toMatchObject({ uri: PLAN_VIEW_URI, mimeType: 'text/html;profile=mcp-app' });
    await expect(client.readResource({ uri: 'ui://sessionplan/nothing' })).rejects.toMatchObject({ code: -32002 });
  });

  it("SDK v2 StdioClientTransport with versionNegotiation { mode: 'auto' }: server/discover negotiates 2026-07-28", async () => {
    const client = new ClientV2({ name: 'stdio-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    closers.push(() => client.close());
    await client.connect(new StdioV2({ command: process.execPath, args: [CLI, 'stdio'], env: serverEnv(), stderr: 'pipe' }));
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getDiscoverResult()?.supportedVersions).toEqual(['2026-07-28']);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['create_session_link', 'decode_session_link']);
    const created = (await client.callTool({ name: 'create_session_link', arguments: { session: SESSION } })) as ToolResult;
    expect(created.structuredContent?.summary).toEqual({ title: 'Über stdio', blockCount: 1, totalDuration: 15 });
    const decoded = (await client.callTool({ name: 'decode_session_link', arguments: { link: created.structuredContent?.link } })) as ToolResult;
    expect(decoded.structuredContent?.session).toEqual(SESSION);
  });
});

interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Complete stdout lines so far. */
  lines: string[];
  stderr(): string;
  /** Resolves with the exit code and how long after `since` the process exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  nextLines(count: number, timeoutMs?: number): Promise<string[]>;
}

function startRaw(env: Record<string, string> = {}): RawServer {
  const child = spawn(process.execPath, [CLI, 'stdio'], { env: serverEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding('utf8').on('data', (data: string) => {
    const parts = (partial + data).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (data: string) => (stderr += data));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() })));
  closers.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let read = 0;
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    async nextLines(count, timeoutMs = 10_000) {
      const deadline = performance.now() + timeoutMs;
      while (lines.length < read + count) {
        if (performance.now() > deadline) throw new Error(`expected ${count} more stdout lines, got ${lines.length - read}; stderr: ${stderr}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      const taken = lines.slice(read, read + count);
      read += count;
      return taken;
    },
  };
}

const request = (id: number, method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('raw stdio', () => {
  it('answers malformed lines with JSON-RPC errors, refuses an oversized line without stopping, and exits 0 within 1 s of EOF', async () => {
    const server = startRaw();
    const input = server.child.stdin;
    input.write(`${request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } })}\n`);
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    input.write('\n   \n'); // blank lines are no messages
    input.write('this is not json\n');
    input.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"\n'); // truncated
    input.write('[{"jsonrpc":"2.0","id":3,"method":"ping"}]\n'); // a batch
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: true, method: 'ping' })}\n`); // an id of the wrong type
    // One message of 2,000,001 bytes, written in pieces as a pipe delivers it, then a ping that must still be answered.
    const oversized = `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"${'x'.repeat(LIMITS.requestBody.value)}"}}`;
    for (let at = 0; at < oversized.length; at += 65_536) input.write(oversized.slice(at, at + 65_536));
    input.write('\n');
    input.write(`${request(5, 'ping')}\r\n`); // CRLF line end
    // A message of exactly the limit is read: a decode whose link is padded with spaces (surrounding white space is ignored).
    const fits = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'decode_session_link', arguments: { link: 'v2:' } } });
    input.write(`${fits.replace('"v2:"', `"${' '.repeat(LIMITS.requestBody.value - Buffer.byteLength(fits))}v2:"`)}\n`);
    input.write(request(7, 'tools/list')); // the last message has no newline before EOF

    const answers = (await server.nextLines(8)).map((line) => JSON.parse(line) as Record<string, any>);
    expect(answers[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} } } });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    expect(answers[2]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(answers[3]).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('batches are not supported') } });
    expect(answers[4]).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('id must be a string or a number') } });
    expect(answers[5]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('longer than 2,000,000 bytes') } });
    expect(answers[6]).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    expect(answers[7]).toMatchObject({ id: 6, result: { isError: true, content: [{ text: expect.stringMatching(/^SESSION_DECODE_FAILED: /) }] } });

    const endedAt = performance.now();
    input.end();
    const [last] = await server.nextLines(1);
    // The negotiated 2025-06-18 shapes the later legacy results (titles exist from that revision on).
    expect(JSON.parse(last!).result.tools[0].title).toBe('Create Sessionplan link');
    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - endedAt).toBeLessThan(1_000);
    // stdout carried JSON-RPC messages only; the log lines went to stderr.
    for (const line of server.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr()).toContain('sessionplan-mcp stdio: MCP on stdin/stdout');
    expect(server.stderr()).toContain('stdin ended');
  });

  it('refuses a line that is not UTF-8 with -32700, as HTTP refuses such a body, and answers the next one', async () => {
    const server = startRaw();
    const bad = Buffer.from(`${request(1, 'tools/call', { name: 'decode_session_link', arguments: { link: 'v2:XX' } })}\n`);
    bad[bad.indexOf('XX')] = 0xff;
    server.child.stdin.write(bad);
    server.child.stdin.write(`${request(2, 'ping')}\n`);
    const answers = (await server.nextLines(2)).map((line) => JSON.parse(line) as Record<string, any>);
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('not valid UTF-8') } });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('a client that reads slowly: answers wait for it, input pauses, RSS stays within +100 MB, every answer arrives', { timeout: 90_000 }, async () => {
    // A link of ~100 bytes whose document is 300,000 characters: each MCP answer holds it twice (~600 KB).
    const link = `v2:${lz.compressToEncodedURIComponent(JSON.stringify({ workshop: { title: 'W', description: 'a'.repeat(300_000) } }))}`;
    const child = spawn(process.execPath, [CLI, 'stdio'], { env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    closers.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    child.stderr.resume();
    await new Promise((r) => setTimeout(r, 1_000));
    const baseline = rssMb(child.pid!);
    // 200 requests (~55 KB) whose answers (~120 MB) would all wait in the server's output if it answered at once.
    const count = 200;
    child.stdin.write(`${Array.from({ length: count }, (_, i) => request(i, 'tools/call', { name: 'decode_session_link', arguments: { link } })).join('\n')}\n`);
    // The reader takes at most 256 KB every 20 ms (~12 MB/s, slower than the server answers).
    let answered = 0;
    let partial = '';
    let peak = baseline;
    const t0 = performance.now();
    while (answered < count && performance.now() - t0 < 60_000) {
      const chunk = child.stdout.read(256 * 1024) as Buffer | null ?? (child.stdout.read() as Buffer | null);
      if (chunk !== null) {
        const parts = (partial + chunk.toString('latin1')).split('\n');
        partial = parts.pop()!;
        answered += parts.length;
      }
      peak = Math.max(peak, rssMb(child.pid!));
      await new Promise((r) => setTimeout(r, 20));
    }
    child.stdin.end();
    console.log(`stdio, ${count} decodes of ~600 KB answers to a reader of ~12 MB/s: ${answered} answered in ${((performance.now() - t0) / 1000).toFixed(1)} s, RSS ${baseline.toFixed(0)} → peak ${peak.toFixed(0)} MB`);
    expect(answered).toBe(count);
    expect(peak - baseline).toBeLessThan(100);
  });

  it('SIGTERM ends it with exit status 0 in under a second, and it listens on no TCP port', async () => {
    const server = startRaw();
    server.child.stdin.write(`${request(1, 'tools/list')}\n`);
    await server.nextLines(1);
    expect(tcpSocketsOf(server.child.pid!)).toEqual([]);
    const sentAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - sentAt).toBeLessThan(1_000);
    expect(server.stderr()).toContain('SIGTERM');
  });

  it('under npm, the end of the shell npm started it from stops it like SIGTERM (npx forwards signals to that shell only)', async () => {
    // As `npx sessionplan-mcp stdio` runs it: npm → sh -c → node. The shell is killed; the server's stdin (here a
    // sibling's pipe, as a client's would be) stays open, so only the shell's going can stop it.
    const shell = spawn('sh', ['-c', `sleep 30 | "${process.execPath}" "${CLI}" stdio; :`], { env: serverEnv({ npm_lifecycle_event: 'npx' }), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    shell.stderr.setEncoding('utf8').on('data', (data: string) => (stderr += data));
    await expect.poll(() => stderr, { timeout: 10_000 }).toContain('MCP on stdin/stdout');
    const children = readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    const serverPid = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('stdio'))!;
    const sleepPid = children.find((pid) => pid !== serverPid)!;
    closers.push(async () => {
      if (isAlive(sleepPid)) process.kill(sleepPid, 'SIGKILL');
    });
    shell.kill('SIGKILL');
    await expect.poll(() => isAlive(serverPid), { timeout: 2_000 }).toBe(false);
    await expect.poll(() => stderr, { timeout: 2_000 }).toContain('npm exited; exiting');
    expect(isAlive(sleepPid)).toBe(true); // its stdin was still open: the launcher's end stopped it
  });

  it('a bad environment value stops it with one line on stderr, nothing on stdout, and exit status 2', async () => {
    const server = startRaw({ PUBLIC_BASE_URL: 'not a url' });
    server.child.stdin.end();
    const exit = await server.exited;
    expect(exit.code).toBe(2);
    expect(server.lines).toEqual([]);
    expect(server.stderr()).toMatch(/^Invalid configuration: PUBLIC_BASE_URL must be an absolute http\(s\) URL/);
  });
});

function isAlive(pid: number): boolean {
  try {
    // A zombie (exited, not yet reaped by its new parent) counts as gone.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** TCP sockets (listening or connected) the process holds: its socket inodes found in /proc/net/tcp and tcp6. */
function tcpSocketsOf(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match) inodes.add(match[1]!);
  }
  const found: string[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const row of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const columns = row.trim().split(/\s+/);
      if (columns.length > 9 && inodes.has(columns[9]!)) found.push(`${table} ${columns[1]} state ${columns[3]}`);
    }
  }
  return found;
}
