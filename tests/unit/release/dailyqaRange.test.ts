/**
 * A DailyQA range release over days the store knows nothing of: refused as one such day is
 * (E_ANSWERS_UNKNOWN), rather than written as a release of unknowns; a range that only partly
 * leaves the histories counts its unknown rows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDailyQaRelease } from '../../../src/release/dailyqaRelease.js';
import { Store } from '../../../src/store/store.js';
import { importDailyQa } from '../../../src/timeline/dailyqaImport.js';
import { tempDir } from '../../../testkit/cli.js';
import { duckdbRows } from '../../support/datasetCard.js';
import { withCode } from '../../support/errorCodes.js';

/** A store that imported one published day, 2025-01-13, of one query. */
async function storeOfOneDay(): Promise<{ dir: string; store: Store }> {
  const dir = tempDir();
  const file = join(dir, 'qa_250113.jsonl');
  writeFileSync(file, `${JSON.stringify({ id: '25011300-1-0', query: 'Who leads Port Aldwin?', answer: 'Edda Marrow' })}\n`);
  const store = Store.open(join(dir, 'store.sqlite'));
  await importDailyQa(store, [file]);
  return { dir, store };
}

describe('a DailyQA range release beyond the histories the store holds', () => {
  it('is refused when no answer of any day is known, and counts the unknown rows otherwise', async () => {
    const { store } = await storeOfOneDay();
    try {
      await expect(renderDailyQaRelease(store, '2025-03-01', '2025-03-02')).rejects.toThrow(withCode('E_ANSWERS_UNKNOWN'));
      const { counts, unknownReason } = await renderDailyQaRelease(store, '2025-01-13', '2025-03-02');
      expect(counts).toMatchObject({ queries: 1, answers: 49 });
      expect(counts.unknown).toBeGreaterThan(0);
      expect(counts.unknown).toBeLessThan(49);
      // Said of the days whose answers are unknown: those after the file's day.
      expect(unknownReason).toBe('the published files imported hold the days from 2025-01-13 to 2025-01-13: import the later qa_YYMMDD.jsonl files');
      expect((await renderDailyQaRelease(store, '2025-01-13', '2025-01-13')).unknownReason).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it("gives in its card a day file's query that leaves the unknown answers out, as the day files do", async () => {
    const { dir, store } = await storeOfOneDay();
    try {
      const { draft } = await renderDailyQaRelease(store, '2025-01-13', '2025-01-14');
      const release = join(dir, 'release');
      mkdirSync(release);
      for (const [name, content] of draft.files) writeFileSync(join(release, name), content);
      const card = String(draft.files.get('README.md'));
      const query = /`(SELECT id, query, answer FROM answers JOIN queries USING \(id\) WHERE date = DAY[^`]*)`/.exec(card)?.[1];
      expect(query).toBeDefined();
      const dayFile = (day: string) =>
        duckdbRows(
          (query as string)
            .replace('FROM answers', `FROM read_parquet('${join(release, 'answers.parquet')}') AS answers`)
            .replace('JOIN queries', `JOIN read_parquet('${join(release, 'queries.parquet')}') AS queries`)
            .replace('DAY', `DATE '${day}'`),
        );
      expect(await dayFile('2025-01-13')).toEqual([{ id: '25011300-1-0', query: 'Who leads Port Aldwin?', answer: 'Edda Marrow' }]);
      // The 14th is past the file imported: unknown, so not in the day's file (a null there would say "no value").
      expect(await dayFile('2025-01-14')).toEqual([]);
      expect(card).not.toContain('none yet');
    } finally {
      store.close();
    }
  });
});
