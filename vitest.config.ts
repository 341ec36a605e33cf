import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real HTTP servers and child processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
