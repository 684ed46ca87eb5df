// Process entry of the server: reads the environment, starts, logs the ready line, shuts down gracefully on a stop signal.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../server/config.js';
import { connectionLimits } from '../server/connection-limits.js';
import { EXIT_BAD_CONFIGURATION, EXIT_INTERNAL, EXIT_STARTUP_FAILED } from './exit-codes.js';
import { StartupError, createRedisRateLimitStore, displayUrl, startServer, transportFor } from '../server/start-server.js';
import type { StartedServer } from '../server/start-server.js';
import type { Transport } from '../transport/types.js';
import { LAUNCHER_EXITED_MESSAGE, watchNpmLauncher } from './launcher.js';
import { createLogger } from '../logging/logger.js';
import { runWorkers } from './main-workers.js';
import { handleSignals } from './signals.js';
import { resolveWorkerCount } from './supervisor.js';


/**
 * Starts the server from `env`. On a bad configuration or a failed start it prints one line to stderr and sets a
 * non-zero exit code; once running, a stop signal (signals.ts) stops accepting, lets in-flight requests finish and exits 0.
 */
export async function main(env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exitCode = EXIT_BAD_CONFIGURATION;
    return;
  }

  const { logger, writeLine, droppedLines } = createLogger(config.logLevel);
  let transport: Transport;
  try {
    transport = await transportFor(config, (line) => {
      logger.warn(line);
      logger.flush();
    });
    // Checked here as well as in startServer, so that worker threads never start with a setting they would refuse.
    connectionLimits(config, transport);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = error instanceof ConfigError ? EXIT_BAD_CONFIGURATION : EXIT_STARTUP_FAILED;
    return;
  }
  const workers = resolveWorkerCount(config.workers);
  if (workers > 1) return runWorkers(config, workers, transport, logger, env);

  // No stack trace ever leaves the process: an unexpected crash is logged as one line.
  const crash = (error: unknown): void => {
    logger.fatal({ err: error }, 'unexpected failure; exiting');
    logger.flush(() => process.exit(EXIT_INTERNAL));
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  // Signal handlers go in before the server starts, so no signal can hit the default action (instant death).
  let server: StartedServer | undefined;
  let stopping = false;
  const shutDown = (running: StartedServer): void => {
    // SHUTDOWN_DELAY_S: readiness fails at once and the server serves on, every answer closing its connection, so that a
    // load balancer stops sending here before the listener closes.
    const delayMs = config.shutdownDelayS * 1000;
    if (delayMs > 0) running.drain();
    setTimeout(() => {
      void running.close().then(() => {
        logger.info('stopped');
        logger.flush(() => process.exit(0));
      }, crash);
    }, delayMs);
  };
  const stop = (signal: NodeJS.Signals): void => {
    // Ctrl-C under `npm start` reaches node twice (terminal and npm both forward it): repeats are ignored, and the
    // grace period in close() bounds how long in-flight requests may take.
    if (stopping) return;
    stopping = true;
    logger.info(
      { signal, delayS: config.shutdownDelayS },
      config.shutdownDelayS > 0
        ? `draining: /readyz answers 503, serving on for ${config.shutdownDelayS} s, then no new connections`
        : 'shutting down: no new connections, finishing in-flight requests',
    );
    logger.flush();
    if (server !== undefined) shutDown(server); // else: startServer is still running; handled right after it
  };
  const removeSignalHandlers = handleSignals({
    stop,
    ignored: (signal) => logger.info({ signal }, 'signal ignored'),
    inspector: config.inspectorSignal,
  });
  // Under npx the SIGTERM a process manager sends stops at npm's shell (launcher.ts): npm's exit counts as SIGTERM.
  const unwatchLauncher = watchNpmLauncher(env, () => {
    logger.info(LAUNCHER_EXITED_MESSAGE);
    stop('SIGTERM');
  });

  try {
    const rateLimitStore = config.redisUrl === undefined ? undefined : createRedisRateLimitStore(config.redisUrl, logger);
    server = await startServer(config, { logger, accessLog: { write: writeLine, bindings: '' }, droppedLogLines: droppedLines, rateLimitStore, transport });
  } catch (error) {
    const message = error instanceof StartupError || error instanceof ConfigError ? error.message : `Startup failed: ${(error as Error)?.message ?? String(error)}`;
    console.error(message);
    process.exitCode = error instanceof ConfigError ? EXIT_BAD_CONFIGURATION : EXIT_STARTUP_FAILED;
    removeSignalHandlers();
    unwatchLauncher();
    return;
  }
  if (stopping) return shutDown(server);
  const metrics = server.metricsPort === undefined ? undefined : `${displayUrl(config.metricsHost, server.metricsPort)}/metrics`;
  logger.info(
    { url: server.url, mcp: `${server.url}/mcp`, viewer: `${server.url}/`, transport: server.transport.version, metrics },
    `sessionplan-mcp listening on ${server.url} (MCP endpoint ${server.url}/mcp, ${server.transport.version}${metrics === undefined ? '' : `, metrics ${metrics}`}); viewer ${server.url}/`,
  );
  logger.flush(); // the ready line must not wait for a full log batch
}

/** True when this file is the process entry (`node dist/process/main.js`), not imported. */
function isEntryModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isEntryModule()) void main();
