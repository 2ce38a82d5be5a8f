import { defineConfig } from 'vitest/config';

const limits = { testTimeout: 60_000, hookTimeout: 180_000, pool: 'forks' } as const;

// Two projects so that a unit run does not pay for the build: vitest runs a project's global setup
// only when one of its files is queued (docs/ARCHITECTURE.md §10). `npm test` runs both, building once.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          // Unit files read compressed dumps through Debian's bzip2, xz and 7z, and write ONNX models with python3-onnx.
          globalSetup: ['tests/setup/systemPackages.ts'],
          // One module graph per worker instead of one per file: half the CPU of a unit run, as unit
          // files mock nothing and keep their state in their own temporary folders.
          isolate: false,
          ...limits,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          // The Debian packages first (they stop a run at once when missing), then the build the tests run.
          globalSetup: ['tests/setup/systemPackages.ts', 'tests/setup/build.ts'],
          ...limits,
        },
      },
    ],
  },
});
