import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const limits = { testTimeout: 60_000, hookTimeout: 180_000, pool: 'forks' } as const;

// Two projects so that a unit run does not pay for the build: vitest runs a project's global setup
// only when one of its files is queued (docs/ARCHITECTURE.md §10). `npm test` runs both, building once.
export default defineConfig({
  test: {
    // Vitest's default leaves one core free, so on a 2-core machine the files ran one at a time;
    // integration files spend most of their time waiting on the CLI, servers and browsers they
    // start, so one file per core took the suite from 17 to 12 minutes there (docs/ARCHITECTURE.md §10).
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          // Unit files read compressed dumps through Debian's bzip2, xz and 7z, and write ONNX models with python3-onnx.
          globalSetup: ['tests/setup/systemPackages.ts'],
          // One module graph per worker instead of one per file: half the CPU of a unit run, as unit
          // files keep their state in their own temporary folders. The two that need a module's
          // once-per-process state fresh (the extractor registry) load it again with vi.resetModules,
          // and restore what they spy on.
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
