/**
 * The reading version this wikidelta gives a stored revision, in SQL: `READING_VERSIONS` (src/model.ts)
 * by the revision's `content_model` (NULL: wikitext), so that the statements that decide whether a
 * revision is read again compare each revision with its own model's version.
 */
import { DEFAULT_CONTENT_MODEL, READING_VERSIONS } from '../model.js';

/**
 * A SQL expression: the current reading version of a revision whose content model is in `column`.
 *
 * @example `SELECT parse_version IS ${currentReading('content_model')} AS current FROM revisions`
 */
export function currentReading(column: string): string {
  const others = Object.entries(READING_VERSIONS)
    .filter(([model]) => model !== DEFAULT_CONTENT_MODEL)
    .map(([model, version]) => `WHEN '${model.replaceAll("'", "''")}' THEN ${version}`)
    .join(' ');
  return `(CASE ${column} ${others} ELSE ${READING_VERSIONS[DEFAULT_CONTENT_MODEL]} END)`;
}
