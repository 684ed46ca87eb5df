#!/usr/bin/env node
// Command line: `encode <file|->` prints a snapshot link, `decode <link|->` prints the document, `serve` starts the server.
import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.js';
import { createSessionLink, decodeSessionLink } from './index.js';
import { normalizeWhitespace, SessionError } from './session/errors.js';

const USAGE = `Usage:
  sessionplan-mcp encode <plan.json | ->   print the snapshot link of a session document (file or stdin)
  sessionplan-mcp decode <link | ->        print the session document of a snapshot link as JSON
  sessionplan-mcp serve                    start the MCP endpoint and REST API (configured by environment variables)

Links are built on PUBLIC_BASE_URL (default https://sessionplan.de/). Errors go to stderr as one line; the exit status is then 1.
`;

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

async function serve(): Promise<void> {
  // Loaded only here, so encode/decode never load the server (uWebSockets.js, pino).
  const { main } = await import('./process/main.js');
  await main();
}

async function run(args: readonly string[]): Promise<void> {
  const [command, argument, ...rest] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'serve' && argument === undefined) return serve();
  if ((command === 'encode' || command === 'decode') && argument !== undefined && rest.length === 0) {
    const output = command === 'encode' ? await encode(argument) : await decode(argument);
    process.stdout.write(`${output}\n`);
    return;
  }
  if (command === undefined) throw new CliError('a command is required: encode <plan.json|->, decode <link|-> or serve (see --help)');
  if (command === 'encode' || command === 'decode' || command === 'serve')
    throw new CliError(`wrong arguments for ${command}; usage: ${command === 'serve' ? 'serve' : command === 'encode' ? 'encode <plan.json|->' : "decode '<link>'|-"}`);
  throw new CliError(`unknown command ${JSON.stringify(command)}; use encode, decode or serve (see --help)`);
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
