// Under npm or npx: when the process npm started the server from exits, or is signalled, the server stops as if it had
// been sent that signal.
import { readFileSync } from 'node:fs';

/*
 * Why this exists. `npx sessionplan-mcp serve` runs the server as `npm exec` → `sh -c 'sessionplan-mcp' serve` → node.
 * npm forwards SIGTERM and SIGINT to its own child only (@npmcli/run-script, signal-manager.js), which is the shell.
 * SIGTERM: the shell dies without passing it on; npm then re-raises the signal on itself and exits. The server,
 * reparented, kept listening. SIGINT: dash, run with -c, catches it and keeps waiting for its command (it would end
 * itself only after a command killed by SIGINT), so nothing reaches the server either. `npm start` does not have the
 * problem (its script execs node, so npm's child is the server), but npx's command line is npm's to make.
 *
 * The server cannot receive the signal the shell got; it can see its effect. The shell gone: its ppid changes. The shell
 * signalled: a shell blocked in wait4() for its only command sleeps until a signal it catches arrives or that command
 * ends, so the count of times the kernel ran it (/proc/<pid>/schedstat, third field) only moves when it was signalled.
 * Signals it ignores or leaves at a default that ignores (SIGCHLD, SIGWINCH) do not wake it. What else wakes a sleeping
 * task (a cgroup freeze and thaw, `docker pause`) would stop the server too; on systems without /proc (macOS) only the
 * shell's exit is seen.
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

/** How the launcher ended its watch: it exited, or (a shell waiting for the server) it was signalled. */
export type LauncherEnd = 'exited' | 'signalled';

/** Shells npm runs commands with on Linux, which wait for their command instead of exec'ing it. */
const WAITING_SHELLS = new Set(['sh', 'dash', 'bash']);

/** Times the kernel ran process `pid` so far, or undefined where /proc does not say. */
function timesRun(pid: number): number | undefined {
  try {
    const count = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[2]);
    return Number.isFinite(count) ? count : undefined;
  } catch {
    return undefined;
  }
}

function isWaitingShell(pid: number): boolean {
  try {
    return WAITING_SHELLS.has(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
  } catch {
    return false;
  }
}

/**
 * Calls `onEnd` once when this process's parent at the time of the call (npm, or the shell npm ran the command in) is
 * gone, or when that parent is a shell and was woken by a signal. Does nothing unless npm started the process. Returns a
 * function that stops watching. The timer does not keep the process alive.
 */
export function watchNpmLauncher(env: Readonly<Record<string, string | undefined>>, onEnd: (end: LauncherEnd) => void): () => void {
  const launcher = process.ppid;
  // Already reparented (ppid 1 or a subreaper that is not npm's shell): nothing left to watch.
  if (!startedByNpm(env) || launcher <= 1) return () => {};
  const ranBefore = isWaitingShell(launcher) ? timesRun(launcher) : undefined;
  const end = (how: LauncherEnd): void => {
    clearInterval(timer);
    onEnd(how);
  };
  const timer = setInterval(() => {
    // process.ppid is read from the OS on each access; it changes when the parent exits and this process is reparented.
    if (process.ppid !== launcher) return end('exited');
    if (ranBefore === undefined) return;
    const ran = timesRun(launcher);
    if (ran !== undefined && ran > ranBefore) end('signalled');
  }, LAUNCHER_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The log line of a stop caused by the launcher. */
export function launcherEndMessage(end: LauncherEnd): string {
  return end === 'exited'
    ? 'npm exited (npx or a script without exec passes no signal on): stopping as on SIGTERM'
    : "npm's shell was signalled (it keeps a SIGINT to npx): stopping as on SIGINT";
}
