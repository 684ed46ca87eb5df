// Test helper: processes as Linux's /proc shows them: direct children of a pid with their command lines, and liveness.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** Direct children of a process (from /proc), with their command lines. */
export function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** True while the process exists and is not a zombie (exited, not yet reaped). */
export function alive(pid: number): boolean {
  try {
    return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
