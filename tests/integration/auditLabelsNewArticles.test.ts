/**
 * A label audit judges what the labeler decided: a sentence of an article the old snapshot lacks is
 * new by definition, so it is never drawn, whatever the stratum sizes (a month's new articles would
 * otherwise fill the `new` stratum with sentences nobody could judge wrong).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorOf, jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';

const NEW_ARTICLE = 'Harbour Light Festival';

/** The sample with an article created between the two snapshots. */
function sampleWithNewArticle(path: string): string {
  const text = [
    `'''${NEW_ARTICLE}''' is an annual festival held in Port Aldwin.`,
    'It was first held in March 2025 on the harbour front.',
    'The festival lasts three days and draws visitors from the whole coast.',
  ].join(' ');
  const page = `<page><title>${NEW_ARTICLE}</title><ns>0</ns><id>190</id><revision><id>1900</id><timestamp>2025-03-15T10:00:00Z</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision></page>`;
  writeFileSync(path, readFileSync(join(repoRoot, 'data/sample/sample-history.xml'), 'utf8').replace('</mediawiki>', `${page}\n</mediawiki>`));
  return path;
}

describe('a label audit over a month with a new article', () => {
  it("draws no sentence of the new article, though the labels hold them as new; a month of new articles alone is refused as nothing to judge", async () => {
    const dir = tempDir();
    const dump = sampleWithNewArticle(join(dir, 'sample.xml'));
    const db = join(dir, 'labels.sqlite');
    for (const date of ['2025-03-01', '2025-04-01']) await runCliOk(['--db', db, 'snapshot', '--name', date, '--dump', dump, '--as-of', date]);
    await runCliOk(['--db', db, 'label', '--old', '2025-03-01', '--new', '2025-04-01', '--llm', 'offline']);
    const labels = jsonLines((await runCliOk(['--db', db, 'export', 'labels', '--old', '2025-03-01', '--new', '2025-04-01'])).stdout);
    const ofNewArticle = labels.filter((label) => label.title === NEW_ARTICLE);
    expect(ofNewArticle.length).toBe(3);
    expect(ofNewArticle.every((label) => label.label === 'new')).toBe(true);

    const created = await runCliOk(['--db', db, '--json', 'audit', 'create', '--name', 'labels', '--of', 'labels', '--old', '2025-03-01', '--new', '2025-04-01', '--annotators', 'alice', '--raters', '1', '--per-stratum', '1000']);
    const items = (JSON.parse(created.stdout) as { items: Array<{ key: string; stratum: string }> }).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((item) => item.key.startsWith('190:'))).toBe(false);
    // Every other new-side label is drawn: only the new article's are left out.
    const drawable = labels.filter((label) => label.label !== 'deleted' && label.title !== NEW_ARTICLE);
    expect(items.length).toBe(drawable.length);

    // An old snapshot from before the wiki began: every article is new, nothing the labeler decided.
    const alone = join(dir, 'alone.sqlite');
    await runCliOk(['--db', alone, 'snapshot', '--name', 'before', '--dump', dump, '--as-of', '2000-01-01']);
    await runCliOk(['--db', alone, 'snapshot', '--name', 'after', '--dump', dump, '--as-of', '2025-03-01']);
    await runCliOk(['--db', alone, 'label', '--old', 'before', '--new', 'after', '--llm', 'offline']);
    const refused = await runCli(['--db', alone, 'audit', 'create', '--name', 'labels', '--of', 'labels', '--old', 'before', '--new', 'after', '--annotators', 'alice', '--raters', '1']);
    expect(errorOf(refused.stderr)).toEqual({ code: 'E_NOTHING_TO_AUDIT', message: 'the 109 labeled sentences of before → after are all in articles before lacks: new by definition, nothing to judge' });
  }, 180_000);
});
