import { defineConfig } from 'vitest/config';

// Build tests start real bundlers; they are slow on a shared two-core machine, so
// give them room and keep the worker count low to avoid starving each other.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**', '**/.tmp/**', 'playground/**', 'bench/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
