// Test runner configuration: real parts only, generous timeouts for real servers, one project per folder of test/.
import { defineConfig } from 'vitest/config';

/** A project for one folder of test/, with the runner settings every project shares. */
const folder = (name: string, options: { isolate?: boolean } = {}) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...options },
});

export default defineConfig({
  test: {
    // Every server a test starts must be stopped by it: the run fails otherwise.
    globalSetup: ['test/support/leftover-servers.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      // Pure functions and in-process parts: one module graph for all of them (no server, no global state left behind).
      folder('unit', { isolate: false }),
      folder('server'),
      folder('browser'),
      // Many processes, minutes each: `npm run test:all` (and CI), never `npm test`.
      folder('scale'),
      folder('cluster'),
    ],
  },
});
