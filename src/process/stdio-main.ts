// Process entry of `sessionplan-mcp stdio`: the MCP handler on stdin/stdout for local clients; logs go to stderr.
import { pino } from 'pino';
import { loadAppView } from '../assets/app-view.js';
import { loadCodec } from '../codec/node.js';
import { ConfigError, loadConfig } from '../server/config.js';
import { serverIdentity } from '../endpoints/endpoints.js';
import { createMcpHandler } from '../mcp/handler.js';
import { LIMITS } from '../limits/table.js';
import { unexpectedReporter } from '../metrics/failures.js';
import { EXIT_BAD_CONFIGURATION, EXIT_INTERNAL, EXIT_STARTUP_FAILED } from './exit-codes.js';
import { createSessionOperations } from '../session/operations.js';
import { McpStreamServer } from '../stdio/stream-server.js';
import { watchNpmLauncher } from './launcher.js';
import { handleSignals } from './signals.js';

const STDERR_FD = 2;
/** After SIGTERM/SIGINT, messages being handled get this long to be answered (several times the longest a message may take). */
const STOP_GRACE_MS = 500;

/**
 * Serves MCP on stdin/stdout until stdin ends or SIGTERM/SIGINT arrives, then exits 0 once the messages in hand are
 * answered. stdout carries JSON-RPC messages and nothing else; the few log lines go to stderr. The environment is read
 * like the server's (PUBLIC_BASE_URL, LOG_LEVEL, MCP_APPS); the HTTP settings do not apply and are not read.
 */
export async function runStdio(env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  let config;
  try {
    config = loadConfig({ PUBLIC_BASE_URL: env.PUBLIC_BASE_URL, LOG_LEVEL: env.LOG_LEVEL, MCP_APPS: env.MCP_APPS, MCP_PROMPTS: env.MCP_PROMPTS, INSPECTOR_SIGNAL: env.INSPECTOR_SIGNAL });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = EXIT_BAD_CONFIGURATION;
    return;
  }
  const logger = pino({ level: config.logLevel, base: undefined }, pino.destination({ dest: STDERR_FD, sync: true }));
  let appView;
  try {
    await loadCodec().catch((error: unknown) => {
      throw new Error(`Cannot load the WASM codec: ${(error as Error).message}`);
    });
    appView = config.mcpApps ? await loadAppView(config.publicBaseUrl) : undefined;
  } catch (error) {
    logger.fatal((error as Error).message);
    process.exitCode = EXIT_STARTUP_FAILED;
    return;
  }

  const handle = createMcpHandler({
    operations: createSessionOperations(loadCodec, { baseUrl: config.publicBaseUrl }),
    identity: serverIdentity(config.publicBaseUrl),
    transport: 'stream',
    appView,
    prompts: config.mcpPrompts,
  });
  let stopping = false;
  const server = new McpStreamServer({
    handle,
    write: writeStdout,
    maxMessageBytes: LIMITS.requestBody.value,
    // A client that reads its answers slowly: the next answer waits until those written have left (stdout on a pipe is
    // asynchronous), and input pauses while messages wait, so memory stays bounded whatever the client sends.
    outputReady: () => (process.stdout.writableLength <= MAX_PENDING_OUTPUT_BYTES ? undefined : new Promise((resolve) => process.stdout.once('drain', resolve))),
    pauseInput: (pause) => {
      if (pause) process.stdin.pause();
      else if (!stopping) process.stdin.resume();
    },
    onUnexpected: unexpectedReporter(logger),
  });

  // No stack trace ever leaves the process, and stdout stays JSON-RPC only: an unexpected crash is one stderr line.
  const crash = (error: unknown): void => {
    logger.fatal({ err: error }, 'unexpected failure; exiting');
    process.exit(EXIT_INTERNAL);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  const stop = (reason: string, waitMs: number): void => {
    if (stopping) return;
    stopping = true;
    process.stdin.pause();
    logger.info(`sessionplan-mcp stdio: ${reason}; exiting`);
    const exit = (): never => process.exit(0);
    setTimeout(exit, waitMs).unref();
    // The empty write's callback runs once everything written before it has left (stdout may be asynchronous).
    void server.end().then(() => process.stdout.write('', exit));
  };
  handleSignals({
    stop: (signal) => stop(signal, STOP_GRACE_MS),
    ignored: (signal) => logger.info({ signal }, 'signal ignored'),
    inspector: config.inspectorSignal,
  });
  // Under npx (`npx --prefix … sessionplan-mcp stdio`) a client's SIGTERM ends npm's shell, not this process
  // (launcher.ts): its going is taken as the same signal.
  watchNpmLauncher(env, () => stop('npm exited', STOP_GRACE_MS));
  // A client that closes our stdout has gone: nothing can be answered any more.
  process.stdout.on('error', () => process.exit(0));

  process.stdin.on('data', (chunk: Buffer) => server.push(chunk));
  // Every message read before the end is still answered; a stuck one cannot hold the exit past the grace period.
  process.stdin.on('end', () => stop('stdin ended', STOP_GRACE_MS));
  process.stdin.on('error', () => stop('stdin failed', STOP_GRACE_MS));
  logger.info(`sessionplan-mcp stdio: MCP on stdin/stdout (links on ${config.publicBaseUrl})`);
}

/** Answer bytes that may wait for the client to read them before the next message is answered. */
const MAX_PENDING_OUTPUT_BYTES = 1024 * 1024;

function writeStdout(line: string): void {
  process.stdout.write(line);
}
