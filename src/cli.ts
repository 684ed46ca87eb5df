#!/usr/bin/env node
// Command line: `encode <file|->` prints a snapshot link, `decode <link|->` prints the document, `serve` starts the server,
// `stdio` serves MCP on stdin/stdout.
import { readFile } from 'node:fs/promises';
import { commandUsage, programUsage, readCommandLine } from './cli/command-line.js';
import type { CommandSpec } from './cli/command-line.js';
import { ConfigError, loadConfig } from './server/config.js';
import { createSessionLink, decodeSessionLink } from './index.js';
import { normalizeWhitespace, SessionError } from './session/errors.js';

/** A failure the user can act on: printed as one line, exit status 1. */
class CliError extends Error {}

async function readInput(source: string, what: string): Promise<string> {
  try {
    if (source === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    return await readFile(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read the ${what} from ${source === '-' ? 'stdin' : source}${code ? ` (${code})` : ''}`);
  }
}

function baseUrlFromEnvironment(): string {
  try {
    return loadConfig({ PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL }).publicBaseUrl;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

async function encode(source: string): Promise<string> {
  const text = await readInput(source, 'session document');
  let session: unknown;
  try {
    session = JSON.parse(text.replace(/^\uFEFF/, '')); // editors on Windows like to start files with a BOM
  } catch (error) {
    throw new SessionError('SESSION_VALIDATION_FAILED', [
      { path: 'session', message: `${source === '-' ? 'stdin' : source} is not valid JSON (${(error as Error).message})` },
    ]);
  }
  const { link } = await createSessionLink(session, { baseUrl: baseUrlFromEnvironment() });
  return link;
}

async function decode(source: string): Promise<string> {
  const link = source === '-' ? await readInput(source, 'link') : source;
  const { session, warnings } = await decodeSessionLink(link);
  for (const warning of warnings ?? []) process.stderr.write(`warning: ${normalizeWhitespace(warning)}\n`);
  return JSON.stringify(session, null, 2);
}

function print(output: string): void {
  process.stdout.write(`${output}\n`);
}

async function serve(): Promise<void> {
  // Loaded only here, so encode/decode never load the server (uWebSockets.js, pino).
  const { main } = await import('./process/main.js');
  await main();
}

async function stdio(): Promise<void> {
  // Loaded only here, like serve: stdout must carry nothing but JSON-RPC from the first byte on.
  const { runStdio } = await import('./process/stdio-main.js');
  await runStdio();
}

const FOOTER = `Links are built on PUBLIC_BASE_URL (default https://sessionplan.de/). Errors go to stderr as one line; the exit status is then 1.`;

/**
 * The commands. A new one is one more entry: its usage line, its help, and what it runs; the program's usage, the
 * option checks and `<command> --help` follow from the table.
 */
const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'encode',
    operands: '<plan.json | ->',
    minOperands: 1,
    maxOperands: 1,
    summary: 'print the snapshot link of a session document (file or stdin)',
    details: [
      'Validates the session document in the file (or on stdin, with -) and prints its snapshot link.',
      'The link is built on PUBLIC_BASE_URL (default https://sessionplan.de/). An invalid document is one',
      'SESSION_VALIDATION_FAILED line on stderr naming the field, exit status 1.',
    ].join('\n'),
    run: async ([source]) => print(await encode(source!)),
  },
  {
    name: 'decode',
    operands: '<link | ->',
    minOperands: 1,
    maxOperands: 1,
    summary: 'print the session document of a snapshot link as JSON',
    details: [
      'Prints the session document of a snapshot link (a URL, a #data=v2:… hash or a v2:… code; with -,',
      'read from stdin) as pretty JSON. Warnings about older documents go to stderr; the exit status stays 0.',
    ].join('\n'),
    run: async ([source]) => print(await decode(source!)),
  },
  {
    name: 'serve',
    operands: '',
    minOperands: 0,
    maxOperands: 0,
    summary: 'start the MCP endpoint and REST API (configured by environment variables)',
    details: [
      'Starts the HTTP server: the MCP endpoint at /mcp, the REST API under /api/, the viewer at /.',
      'It is configured by environment variables (PORT, HOST, PUBLIC_BASE_URL, REDIS_URL, …; the README',
      'lists them all). SIGTERM or SIGINT stops it gracefully: in-flight requests finish, exit status 0.',
    ].join('\n'),
    run: serve,
  },
  {
    name: 'stdio',
    operands: '',
    minOperands: 0,
    maxOperands: 0,
    summary: 'serve MCP on stdin/stdout for a local client (Claude Desktop, …); logs on stderr',
    details: [
      'Serves the MCP endpoint over stdio for a client that starts it (Claude Desktop, Claude Code, VS Code,',
      'Cursor; docs/clients.md): one JSON-RPC message per line on stdin, one answer per line on stdout, and',
      'nothing else there; log lines go to stderr. No TCP port. PUBLIC_BASE_URL, MCP_APPS and LOG_LEVEL apply.',
      'It exits 0 when stdin ends or on SIGTERM/SIGINT.',
    ].join('\n'),
    run: stdio,
  },
];

async function run(args: readonly string[]): Promise<void> {
  const invocation = readCommandLine(args, COMMANDS);
  if (invocation.kind === 'help') {
    process.stdout.write(invocation.command === undefined ? programUsage(COMMANDS, FOOTER) : commandUsage(invocation.command));
    return;
  }
  if (invocation.kind === 'version') {
    // Loaded only here: the version is read from package.json next to dist/.
    const { PACKAGE_VERSION } = await import('./endpoints/endpoints.js');
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return;
  }
  await invocation.command.run(invocation.operands, invocation.options);
}

// A reader that stops early (`… | head`) closes the pipe: that ends the command quietly instead of with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`error: cannot write the output (${error.code ?? error.message})\n`);
  process.exit(1);
});

try {
  await run(process.argv.slice(2));
} catch (error) {
  // One line, no stack trace: session errors carry their code, anything else is prefixed with "error:".
  const line = error instanceof SessionError ? error.message : `error: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${normalizeWhitespace(line)}\n`);
  process.exitCode = 1;
}
