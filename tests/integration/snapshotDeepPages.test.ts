/**
 * A snapshot of a dump holding a page that nests 2,000 templates (18 KB of wikitext, which
 * overflows wtf_wikipedia's stack): the page is left out with its title and reason in the run's
 * counts, the other pages are stored, and the command ends well (never exit 70 for input). The same
 * for a page whose parse would take gigabytes: it runs out of a batch thread's heap, not the process's.
 */
import Sqlite from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli, runCliOk, tempDir } from '../../testkit/cli.js';

function page(id: number, title: string, text: string): string {
  return `<page><title>${title}</title><ns>0</ns><id>${id}</id><revision><id>${id * 10}</id><timestamp>2021-01-01T00:00:00Z</timestamp><contributor><username>A</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision></page>`;
}

/** A dump of two plain towns (pages 1 and 3) around page 2, `title` with `text`: its path in a new folder, with the store's beside it. */
function dumpAround(title: string, text: string): { db: string; dump: string } {
  const dir = tempDir();
  const dump = join(dir, 'pages.xml');
  writeFileSync(
    dump,
    `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/">${[
      page(1, 'Plain Town', 'Plain Town is a town in Examplia. It has a river.'),
      page(2, title, text),
      page(3, 'Other Town', 'Other Town is a town too. It has a bridge.'),
    ].join('')}</mediawiki>\n`,
  );
  return { db: join(dir, 'w.sqlite'), dump };
}

describe('a snapshot with a deeply nested page', () => {
  it('skips the page with its title and reason in the counts and stores the others', async () => {
    const deep = `${'{{a|'.repeat(2000)}x${'}}'.repeat(2000)} The deep page ends here.`;
    expect(deep.length).toBeGreaterThan(10_000);
    const { db, dump } = dumpAround('Deep Page', deep);
    const run = await runCliOk(['--db', db, 'snapshot', '--name', 'jan', '--dump', dump]);
    expect(run.stdout).toBe(
      'snapshot jan: 2 articles (2 stored now, 4 sentences; 1 skipped, the parser cannot read them)\n' +
        '  skipped: Deep Page (templates nested 2000 deep, more than the 100 the parser reads)\n',
    );
    expect(jsonLines(run.stderr).filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({ message: 'article skipped: the parser cannot read it', title: 'Deep Page', page_id: 2 }),
    ]);
    const status = await runCli(['--db', db, 'status']);
    expect(status.stdout).toMatch(/snapshot +done .* skipped=1 skipped: Deep Page \(templates nested 2000 deep, more than the 100 the parser reads\)=2/);
    const store = new Sqlite(db, { readonly: true });
    expect(store.prepare('SELECT title FROM snapshot_articles ORDER BY page_id').pluck().all()).toEqual(['Plain Town', 'Other Town']);
    store.close();
  });

  it("skips a page whose parse outgrows a batch thread's heap (a megabyte of abbreviations), naming the setting, and stores the others", async () => {
    const { db, dump } = dumpAround('Initials', 'A b. '.repeat(200_000));
    const run = await runCliOk(['--db', db, 'snapshot', '--name', 'jan', '--dump', dump]);
    expect(run.stdout).toBe(
      'snapshot jan: 2 articles (2 stored now, 4 sentences; 1 skipped, the parser cannot read them)\n' +
        '  skipped: Initials (a batch thread ran out of its 256 MB heap on the article "Initials": raise threadHeapMb (WIKIDELTA_THREAD_HEAP_MB))\n',
    );
    const store = new Sqlite(db, { readonly: true });
    expect(store.prepare('SELECT title FROM snapshot_articles ORDER BY page_id').pluck().all()).toEqual(['Plain Town', 'Other Town']);
    store.close();
  });
});
