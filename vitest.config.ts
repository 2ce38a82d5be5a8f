import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The Debian packages first (they stop a run at once when missing), then the build the tests run.
    globalSetup: ['tests/setup/systemPackages.ts', 'tests/setup/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
