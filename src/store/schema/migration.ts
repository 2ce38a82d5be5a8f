/**
 * Forward-only schema versions, one file each in `schema/`. A migration is never edited once
 * released: a change to the schema is a new version. Each runs in its own transaction together with
 * its version record.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
