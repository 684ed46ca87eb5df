// Global setup of the test run: fails the run when a server process a test started is still running at its end.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
/** Command lines of this checkout's server entries (as tests, npm start and the CLI run them). */
const SERVER_ENTRY = /(dist\/cli\.js serve|src\/process\/main\.ts|dist\/process\/main\.js|test\/fixtures\/supervised-main\.ts)/;

function serversOfThisCheckout(): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (!SERVER_ENTRY.test(cmdline) || readlinkSync(`/proc/${entry}/cwd`) !== ROOT) continue;
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').includes(') Z ')) continue; // exited, not yet reaped
      found.set(Number(entry), cmdline);
    } catch {
      // ended while we looked
    }
  }
  return found;
}

export function setup(): () => Promise<void> {
  const before = serversOfThisCheckout();
  return async () => {
    let left: [number, string][] = [];
    // Give servers stopped by the last tests a moment to finish their graceful shutdown.
    for (let waited = 0; waited <= 5_000; waited += 100) {
      left = [...serversOfThisCheckout()].filter(([pid]) => !before.has(pid));
      if (left.length === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const [pid] of left) process.kill(pid, 'SIGKILL');
    throw new Error(`tests left ${left.length} server process(es) running (killed now): ${left.map(([pid, cmd]) => `${pid} ${cmd}`).join('; ')}`);
  };
}
