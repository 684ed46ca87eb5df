// `npm run inspector`: the official MCP Inspector 2.12 CLI (on Node 22) against the real server over HTTP and over stdio:
// tools/list with no schema-portability warning (both eras), both tools called, --app-info finding the MCP App, the
// resources read, both prompts listed (both eras) and one used. Exits ≠ 0 on the first surprise. Needs the npm registry (npx fetches Node 22 and the Inspector) and a
// build (`npm run build`: the stdio run starts dist/cli.js).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { findNode22Tool, type ConformanceCli } from './cli.js';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector@2.12.0';
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const PLAN_VIEW_URI = 'ui://sessionplan/plan';
const APP_MIME_TYPE = 'text/html;profile=mcp-app';
const TEMPLATES_URI = 'sessionplan://templates';

/** A canonical document (every field present, keys in schema order): decode gives back exactly this. */
const SESSION = {
  version: '1.0',
  workshop: { title: 'Inspector check', description: 'Über den Inspector.', date: '2026-06-01', startTime: '10:00' },
  blockTypes: [{ id: 'talk', name: 'Talk', color: '#224488' }],
  persons: [{ id: 'ana', name: 'Ana', role: 'Host' }],
  items: [
    { type: 'block', id: 'b1', title: 'Hello', duration: 20, blockTypeId: 'talk', personIds: ['ana'], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 },
    {
      type: 'breakout', id: 'x1', title: 'Tracks', duration: 30, description: '', notes: '', fixedStartTime: null, lanes: 2, sameInAllBreakouts: false, lanePersons: {},
      children: [{ type: 'block', id: 'b2', title: 'A', duration: 30, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 1 }],
    },
  ],
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function inspect(cli: ConformanceCli, target: string[], args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // The target last: after `--`, everything is the stdio server's command line.
    const child = spawn(cli.command[0]!, [...cli.command.slice(1), '--cli', ...args, ...target], { env: cli.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      // npm's own notes (engine warnings while npx installs) are not the Inspector's.
      resolve({ code, stdout, stderr: stderr.split('\n').filter((line) => !line.startsWith('npm warn')).join('\n').trim() });
    });
  });
}

function json(run: Run, what: string): any {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`${what}: the Inspector printed no JSON (exit ${run.code}): ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`);
  }
}

/**
 * Schema portability, as the Inspector reports it: with --strict every problem is a "Warning:"/"Error:" block on
 * stderr and the tally reads "N errors, M warnings across K tools." (nothing at all when there is none).
 */
function portabilityProblems(stderr: string): string[] {
  const problems = stderr.split('\n').filter((line) => /^(Warning|Error): /.test(line));
  const tally = /(\d+) errors?, (\d+) warnings?/.exec(stderr);
  if (tally && (tally[1] !== '0' || tally[2] !== '0')) problems.push(tally[0]);
  return problems;
}

async function checkTarget(cli: ConformanceCli, name: string, target: string[]): Promise<string[]> {
  const failures: string[] = [];
  const check = (ok: boolean, what: string, detail = ''): void => {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}: ${what}${ok || detail === '' ? '' : ` — ${detail}`}`);
    if (!ok) failures.push(`${name}: ${what}${detail === '' ? '' : ` — ${detail}`}`);
  };

  for (const era of ['legacy', 'modern'] as const) {
    const list = await inspect(cli, target, ['--protocol-era', era, '--method', 'tools/list', '--strict', '--format', 'json']);
    const tools = list.code === 0 ? (json(list, 'tools/list').result?.tools ?? []) as { name: string }[] : [];
    check(list.code === 0 && isDeepStrictEqual(tools.map((tool) => tool.name), ['create_session_link', 'decode_session_link']), `tools/list (${era} era) lists both tools`, `exit ${list.code} ${list.stderr.slice(0, 300)}`);
    const problems = portabilityProblems(list.stderr);
    check(problems.length === 0, `tools/list (${era} era) has no schema-portability warning or error`, problems.join('; '));
  }

  const create = await inspect(cli, target, ['--method', 'tools/call', '--tool-name', 'create_session_link', '--tool-args-json', JSON.stringify({ session: SESSION }), '--format', 'json']);
  const link = create.code === 0 ? json(create, 'create').result?.structuredContent?.link : undefined;
  check(typeof link === 'string' && link.startsWith('https://sessionplan.de/#data=v2:'), 'tools/call create_session_link returns a link', `exit ${create.code} ${create.stdout.slice(0, 300)} ${create.stderr.slice(0, 300)}`);

  const decode = await inspect(cli, target, ['--method', 'tools/call', '--tool-name', 'decode_session_link', '--tool-args-json', JSON.stringify({ link: String(link) }), '--format', 'json']);
  const session = decode.code === 0 ? json(decode, 'decode').result?.structuredContent?.session : undefined;
  check(isDeepStrictEqual(session, SESSION), 'tools/call decode_session_link gives the session back', `exit ${decode.code} ${decode.stdout.slice(0, 300)}`);

  for (const tool of ['create_session_link', 'decode_session_link']) {
    const info = await inspect(cli, target, ['--app-info', '--method', 'tools/call', '--tool-name', tool]);
    const app = info.code === 0 ? json(info, `--app-info ${tool}`) : undefined;
    check(info.code === 0 && app?.hasApp === true && app.resourceUri === PLAN_VIEW_URI && app.resourceMimeType === APP_MIME_TYPE, `--app-info ${tool} exits 0 and finds ${PLAN_VIEW_URI}`, `exit ${info.code} ${info.stdout.slice(0, 300)} ${info.stderr.slice(0, 300)}`);
  }

  const read = await inspect(cli, target, ['--method', 'resources/read', '--uri', PLAN_VIEW_URI, '--format', 'json']);
  const content = read.code === 0 ? json(read, 'resources/read').result?.contents?.[0] : undefined;
  check(content?.mimeType === APP_MIME_TYPE && typeof content.text === 'string' && content.text.startsWith('<!doctype html>'), 'resources/read returns the plan view document', `exit ${read.code} ${read.stderr.slice(0, 300)}`);

  for (const era of ['legacy', 'modern'] as const) {
    const prompts = await inspect(cli, target, ['--protocol-era', era, '--method', 'prompts/list', '--format', 'json']);
    const names = prompts.code === 0 ? ((json(prompts, 'prompts/list').result?.prompts ?? []) as { name: string }[]).map((prompt) => prompt.name) : [];
    check(isDeepStrictEqual(names, ['plan_workshop', 'revise_plan']), `prompts/list (${era} era) lists both prompts`, `exit ${prompts.code} ${prompts.stderr.slice(0, 300)}`);
  }
  const prompt = await inspect(cli, target, ['--method', 'prompts/get', '--prompt-name', 'plan_workshop', '--prompt-args', 'goal=a team retrospective', 'template=retrospective', '--format', 'json']);
  const text = prompt.code === 0 ? json(prompt, 'prompts/get').result?.messages?.[0]?.content?.text : undefined;
  check(typeof text === 'string' && text.includes('a team retrospective') && text.includes(TEMPLATES_URI), 'prompts/get plan_workshop names the goal and the templates resource', `exit ${prompt.code} ${prompt.stdout.slice(0, 300)} ${prompt.stderr.slice(0, 300)}`);
  const templates = await inspect(cli, target, ['--method', 'resources/read', '--uri', TEMPLATES_URI, '--format', 'json']);
  const library = templates.code === 0 ? JSON.parse(json(templates, 'resources/read templates').result?.contents?.[0]?.text ?? '{}') : {};
  check(Array.isArray(library.templates) && library.templates.length === 4, `resources/read ${TEMPLATES_URI} lists the four templates`, `exit ${templates.code} ${templates.stderr.slice(0, 300)}`);
  return failures;
}

async function startOwnServer(): Promise<{ url: string; close(): Promise<void> }> {
  const { loadConfig } = await import('../../src/server/config.js');
  const { startServer } = await import('../../src/server/start-server.js');
  const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' }));
  return { url: `http://127.0.0.1:${server.port}/mcp`, close: () => Promise.resolve(server.close()) };
}

async function main(): Promise<void> {
  const cli = findNode22Tool(INSPECTOR_PACKAGE, 'mcp-inspector');
  const server = await startOwnServer();
  console.log(`inspector: ${cli.how} against ${server.url} and \`node dist/cli.js stdio\``);
  const failures: string[] = [];
  try {
    failures.push(...(await checkTarget(cli, 'http', [server.url, '--transport', 'http'])));
    // The server's own log lines go to stderr; silent keeps the Inspector's report on its own there.
    failures.push(...(await checkTarget(cli, 'stdio', ['-e', 'LOG_LEVEL=silent', '--', process.execPath, CLI, 'stdio'])));
  } finally {
    await server.close();
  }
  console.log(`inspector: ${failures.length === 0 ? 'all checks passed' : `${failures.length} checks failed`}`);
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`inspector: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
