import type { Migration } from './migration.js';

/**
 * A failure is kept with its stable error code (src/errors.ts), so `status --json` and anyone
 * reading the store tell a failure's kind by its code, not by its English (docs/ARCHITECTURE.md §9).
 */
export const failureCodes: Migration = {
  version: 24,
  name: 'the error code of every recorded failure',
  sql: `
      -- A UserError's code, E_INTERNAL for a bug, E_RUN_INTERRUPTED for a process stopped or gone;
      -- NULL: recorded before codes were kept (or no error).
      ALTER TABLE runs ADD COLUMN error_code TEXT;
      ALTER TABLE run_stages ADD COLUMN error_code TEXT;
      ALTER TABLE run_failures ADD COLUMN error_code TEXT;

      -- Interruptions were recorded with reasons of two fixed forms, so their code is known; the
      -- code of any other earlier failure is not.
      UPDATE runs SET error_code = 'E_RUN_INTERRUPTED' WHERE error LIKE 'interrupted by %' OR error LIKE 'interrupted: process %';
      UPDATE run_stages SET error_code = 'E_RUN_INTERRUPTED' WHERE error LIKE 'interrupted by %' OR error LIKE 'interrupted: process %';
      UPDATE run_failures SET error_code = 'E_RUN_INTERRUPTED' WHERE error LIKE 'interrupted by %' OR error LIKE 'interrupted: process %';
  `,
};
