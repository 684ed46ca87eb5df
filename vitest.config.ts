// Test runner configuration: one Node project, real parts only, generous timeouts for real servers.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every server a test starts must be stopped by it: the run fails otherwise.
    globalSetup: ['test/support/leftover-servers.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
