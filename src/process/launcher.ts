// Under npm or npx: when the process npm started the server from exits, the server stops as if sent SIGTERM.
/*
 * Why this exists. `npx sessionplan-mcp serve` runs the server as `npm exec` → `sh -c 'sessionplan-mcp' serve` → node.
 * npm forwards SIGTERM to its own child only (@npmcli/run-script, signal-manager.js), which is the shell; the shell dies
 * without passing it on, npm exits, and the server, reparented, would keep listening. Its parent's exit is what the
 * server can see. `npm start` does not have the problem (its script execs node, so npm's child is the server). A
 * terminal's Ctrl-C and Ctrl-Z reach the whole foreground process group, the server included, so they need nothing here.
 *
 * Only under npm (npm sets npm_lifecycle_event for every script and for npx): a server started directly
 * (`node dist/cli.js serve`, `nohup … &`) keeps running when whatever started it exits.
 */

/** How often the parent is looked at: a stop begins at most this long after the launcher is gone. */
export const LAUNCHER_POLL_MS = 200;

/** True when npm (a package script, `npm exec` or `npx`) started this process. */
export function startedByNpm(env: Readonly<Record<string, string | undefined>>): boolean {
  const event = env.npm_lifecycle_event;
  return event !== undefined && event !== '';
}

/**
 * Calls `onExit` once when this process's parent at the time of the call (npm, or the shell npm ran the command in) is
 * gone. Does nothing unless npm started the process. Returns a function that stops watching. The timer does not keep
 * the process alive.
 */
export function watchNpmLauncher(env: Readonly<Record<string, string | undefined>>, onExit: () => void): () => void {
  const launcher = process.ppid;
  // Already reparented (ppid 1 or a subreaper that is not npm's shell): nothing left to watch.
  if (!startedByNpm(env) || launcher <= 1) return () => {};
  const timer = setInterval(() => {
    // process.ppid is read from the OS on each access; it changes when the parent exits and this process is reparented.
    if (process.ppid === launcher) return;
    clearInterval(timer);
    onExit();
  }, LAUNCHER_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The log line of a stop caused by the launcher's exit. */
export const LAUNCHER_EXITED_MESSAGE = 'npm exited (npx or a script without exec passes no signal on): stopping as on SIGTERM';
