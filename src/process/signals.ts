// Which signals stop the server gracefully, which are ignored, and whether SIGUSR1 may open Node's inspector.

/**
 * Signals that drain and stop: SIGTERM (process managers), SIGINT (Ctrl-C), SIGHUP (the terminal went away; a reload
 * elsewhere) and SIGQUIT (a graceful quit for nginx-style supervisors). Without a handler each would end the process at
 * once, dropping the requests in flight.
 */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Signals that mean nothing to this server: logged and ignored instead of killing it. */
export const IGNORED_SIGNALS = ['SIGUSR2', 'SIGALRM'] as const;

export interface SignalHandlers {
  /** A stop signal arrived (every time; the caller ignores repeats). */
  stop(signal: StopSignal): void;
  /** An ignored signal arrived. */
  ignored(signal: NodeJS.Signals): void;
  /**
   * True: SIGUSR1 keeps Node's default, which opens the inspector on 127.0.0.1:9229 (debugging only). False: SIGUSR1 is
   * ignored too; any process that may signal this one could otherwise open a debugger into it.
   */
  inspector: boolean;
}

/** Installs the handlers; returns a function that removes them. */
export function handleSignals(handlers: SignalHandlers): () => void {
  const installed: [NodeJS.Signals, () => void][] = [];
  for (const signal of STOP_SIGNALS) installed.push([signal, () => handlers.stop(signal)]);
  for (const signal of IGNORED_SIGNALS) installed.push([signal, () => handlers.ignored(signal)]);
  // Any listener replaces Node's own SIGUSR1 action (starting the inspector).
  if (!handlers.inspector) installed.push(['SIGUSR1', () => handlers.ignored('SIGUSR1')]);
  for (const [signal, listener] of installed) process.on(signal, listener);
  return () => {
    for (const [signal, listener] of installed) process.off(signal, listener);
  };
}
