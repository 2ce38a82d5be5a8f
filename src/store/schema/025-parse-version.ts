import type { Migration } from './migration.js';

/**
 * The version of the reading each parsed revision's facts came from (`READING_VERSIONS`, src/model.ts).
 * A revision parsed before it was recorded (NULL) is read again when a collection brings its text:
 * an older wikidelta read some templates differently (`{{film date}}` as an empty value, no link
 * aliases), and a week that diffed its revisions against such a parent asked of a change no edit made
 * (docs/ARCHITECTURE.md §5).
 */
export const parseVersion: Migration = {
  version: 25,
  name: 'the parse version of each parsed revision',
  sql: `
      ALTER TABLE revisions ADD COLUMN parse_version INTEGER;
  `,
};
