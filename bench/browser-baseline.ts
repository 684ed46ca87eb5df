// Another build to measure against side by side: a git ref checked out in a temporary worktree, its codec and viewer (or
// its MCP App view) built there (with this checkout's node_modules when the lockfiles match, else its own); the viewer is
// served by a second real server.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadStaticAssets } from '../src/assets/static.js';
import { loadConfig } from '../src/server/config.js';
import { startServer, type StartedServer } from '../src/server/start-server.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface BaselineBuild {
  /** The ref and its short commit, e.g. "main (ad3f5e5)". */
  label: string;
  /** The built viewer (index.html, assets/). */
  viewer: URL;
  /** The built MCP App view (plan-view.html, as src/mcp-app/build.mjs writes it; src/assets/app-view.ts completes it). */
  appView: URL;
  /** Removes the worktree. */
  remove(): void;
}

/**
 * Checks out `ref` in a temporary worktree and builds its codec and viewer there (a minute or two), or only its MCP App
 * view (`parts: 'app-view'`, no codec needed). A ref whose lockfile differs from this checkout's (a dependency added,
 * removed or moved) gets its own `npm ci`, so it builds with what it declares rather than with this checkout's packages.
 */
export function buildBaseline(ref: string, parts: 'viewer' | 'app-view' = 'viewer'): BaselineBuild {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const directory = mkdtempSync(join(tmpdir(), 'sessionplan-baseline-'));
  const remove = (): void => {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', directory], { cwd: ROOT, stdio: 'pipe' });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  };
  try {
    execFileSync('git', ['worktree', 'add', '--detach', directory, commit], { cwd: ROOT, stdio: 'pipe' });
    const theirLock = execFileSync('git', ['show', `${commit}:package-lock.json`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (theirLock === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) symlinkSync(join(ROOT, 'node_modules'), join(directory, 'node_modules'), 'dir');
    else execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: directory, stdio: 'pipe' });
    if (parts === 'viewer') {
      execFileSync('npm', ['run', '--silent', 'build:wasm'], { cwd: directory, stdio: 'pipe' });
      execFileSync('node', ['src/viewer/build.mjs'], { cwd: directory, stdio: 'pipe' });
    } else execFileSync('node', ['src/mcp-app/build.mjs'], { cwd: directory, stdio: 'pipe' });
  } catch (error) {
    remove();
    throw error;
  }
  return { label: `${ref} (${commit})`, viewer: pathToFileURL(join(directory, 'dist/viewer/')), appView: pathToFileURL(join(directory, 'dist/mcp-app/plan-view.html')), remove };
}

/** A real server (same settings as the bench's own) that serves the given built viewer. */
export async function startServerFor(viewer: URL, env: Record<string, string>): Promise<StartedServer> {
  return startServer(loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env }), { staticAssets: await loadStaticAssets(viewer) });
}
