import type { Migration } from './migration.js';

export const stageOrderAndFailures: Migration = {
  version: 6,
  name: 'stage completion order instead of an unread cursor; every failure of a run kept',
  sql: `
      -- No stage read its saved cursor back: each resumes from what the store already holds.
      ALTER TABLE run_stages DROP COLUMN cursor;

      -- The order in which a run's stages were last completed (1, 2, ...): a done stage whose
      -- prerequisite completed after it read inputs that have changed since, and runs again.
      ALTER TABLE run_stages ADD COLUMN done_order INTEGER;
      UPDATE run_stages SET done_order = position + 1 WHERE status = 'done';

      -- Every failure of a run, oldest first; runs.error keeps only the newest.
      CREATE TABLE run_failures (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs (id),
        stage TEXT,
        error TEXT NOT NULL,
        failed_at TEXT NOT NULL
      );
      CREATE INDEX run_failures_run ON run_failures (run_id, id);
      INSERT INTO run_failures (run_id, stage, error, failed_at)
        SELECT runs.id, (SELECT stage FROM run_stages WHERE run_id = runs.id AND status = 'failed' ORDER BY position LIMIT 1),
               runs.error, COALESCE(runs.finished_at, runs.started_at)
        FROM runs WHERE runs.status = 'failed' AND runs.error IS NOT NULL;
  `,
};
