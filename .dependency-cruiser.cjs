/**
 * The layers of docs/ARCHITECTURE.md §1, checked on every CI run so a wrong import fails the build:
 * src/cli (the shell) → pipelines/ → the library folders of src/, with the store and the model it
 * keeps at the bottom; testkit/ holds the test servers that tests/ and scripts/ share. Folder-level
 * cycles are found by scripts/check-layers.ts over this graph. node_modules is not followed but not
 * excluded either, so a rule can name the package a module imports (only the store opens SQLite).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'library-imports-no-application-or-tests',
      comment: 'library folders of src/ (all but src/cli) never import pipelines/, scripts/, tests/ or testkit/',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^(pipelines|scripts|tests|testkit)/' },
    },
    {
      name: 'pipelines-import-no-shell',
      comment: 'pipelines/ use the library, never the command line shell that runs them',
      severity: 'error',
      from: { path: '^pipelines/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'product-imports-no-tests-or-scripts',
      comment: 'the shipped code (src/, pipelines/) never imports scripts/, tests/ or testkit/',
      severity: 'error',
      from: { path: '^(src|pipelines)/' },
      to: { path: '^(scripts|tests|testkit)/' },
    },
    {
      name: 'nothing-imports-tests',
      comment: 'tests/ is imported by nothing; tests share tests/support among themselves',
      severity: 'error',
      from: {},
      to: { path: '^tests/', pathNot: '^tests/support/' },
    },
    {
      name: 'only-tests-import-test-support',
      comment: 'tests/support is for tests; benchmarks share test servers through testkit/',
      severity: 'error',
      from: { pathNot: '^tests/' },
      to: { path: '^tests/support/' },
    },
    {
      name: 'testkit-imports-no-tests-or-scripts',
      comment: 'testkit/ serves tests/ and scripts/ and depends on neither',
      severity: 'error',
      from: { path: '^testkit/' },
      to: { path: '^(tests|scripts)/' },
    },
    {
      name: 'store-imports-only-model',
      comment: 'src/store is the foundation (docs/ARCHITECTURE.md §1): besides its own files it imports only the model it keeps (src/model.ts, src/model/), the error types (src/errors.ts, src/result.ts) and UTC dates (src/dates.ts)',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^(src|pipelines|scripts|tests|testkit)/', pathNot: '^src/(store/|model/|model\\.ts$|errors\\.ts$|result\\.ts$|dates\\.ts$)' },
    },
    {
      name: 'model-imports-only-model',
      comment: 'src/model.ts and src/model/ lie under the store: plain types, their zod schemas and pure functions of them, importing only each other and the error types',
      severity: 'error',
      from: { path: '^src/(model/|model\\.ts$)' },
      to: { path: '^(src|pipelines|scripts|tests|testkit)/', pathNot: '^src/(model/|model\\.ts$|errors\\.ts$|result\\.ts$)' },
    },
    {
      name: 'only-the-store-opens-sqlite',
      comment: 'the shipped code opens SQLite and writes SQL only in src/store; elsewhere it holds the session\'s Store, never a better-sqlite3 Database, not even as a type',
      severity: 'error',
      from: { path: '^(src|pipelines)/', pathNot: '^src/store/' },
      // Not anchored: with node_modules a symbolic link (a second checkout sharing one install), the
      // package resolves to a path outside the project (../main/node_modules/…), which an anchored
      // pattern never matched, so the rule passed anything.
      to: { path: '(^|/)node_modules/(@types/)?better-sqlite3/' },
    },
    {
      name: 'no-circular',
      comment: 'modules never import each other in a circle, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
