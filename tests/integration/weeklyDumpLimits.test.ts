import Sqlite from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, runCliOk, startCli, tempDir } from '../../testkit/cli.js';

const week = ['--start', '2021-01-01', '--days', '7'];

interface DumpRevision {
  id: number;
  timestamp: string;
  text: string | Buffer;
}

/** A MediaWiki export of main-namespace pages, with raw bytes allowed in revision texts. */
function exportOf(pages: Array<{ id: number; title: string; revisions: DumpRevision[] }>): Buffer {
  const parts: Buffer[] = [Buffer.from('<mediawiki xml:lang="en">\n')];
  for (const page of pages) {
    parts.push(Buffer.from(`<page><title>${page.title}</title><ns>0</ns><id>${page.id}</id>\n`));
    for (const revision of page.revisions) {
      parts.push(Buffer.from(`<revision><id>${revision.id}</id><timestamp>${revision.timestamp}</timestamp><text xml:space="preserve">`));
      parts.push(typeof revision.text === 'string' ? Buffer.from(revision.text) : revision.text);
      parts.push(Buffer.from('</text></revision>\n'));
    }
    parts.push(Buffer.from('</page>\n'));
  }
  parts.push(Buffer.from('</mediawiki>\n'));
  return Buffer.concat(parts);
}

const infobox = (population: number) => `{{Infobox settlement\n| name = Town\n| population_total = ${population}\n}}\nA town.`;

function rows(db: string, sql: string): unknown[] {
  const store = new Sqlite(db, { readonly: true });
  try {
    return store.prepare(sql).all();
  } finally {
    store.close();
  }
}

describe('weekly collection from dumps as they are', () => {
  it('keeps the change of each of two pages that share a revision id', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const dump = exportOf([
      { id: 1, title: 'Northtown', revisions: [{ id: 10, timestamp: '2020-12-01T00:00:00Z', text: infobox(100) }, { id: 500, timestamp: '2021-01-03T00:00:00Z', text: infobox(150) }] },
      { id: 2, title: 'Southtown', revisions: [{ id: 20, timestamp: '2020-12-02T00:00:00Z', text: infobox(200) }, { id: 500, timestamp: '2021-01-04T00:00:00Z', text: infobox(250) }] },
    ]);
    const run = await runCliOk(['--db', db, 'weekly', ...week, '--dump', '-', '--stages', 'collect,parse,diff'], { input: dump });
    expect(run.stderr).not.toMatch(/error/i);
    expect(rows(db, 'SELECT page_id AS pageId, rev_id AS revId, prev_rev_id AS prevRevId, key, old, new FROM infobox_changes ORDER BY page_id')).toEqual([
      { pageId: 1, revId: 500, prevRevId: 10, key: 'population_total', old: '100', new: '150' },
      { pageId: 2, revId: 500, prevRevId: 20, key: 'population_total', old: '200', new: '250' },
    ]);
  });

  it('counts invalid UTF-8 and names the page it occurs in', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const broken = Buffer.concat([Buffer.from(infobox(300)), Buffer.from([0xc3, 0x28, 0xff])]);
    const dump = exportOf([
      { id: 1, title: 'Northtown', revisions: [{ id: 10, timestamp: '2021-01-02T00:00:00Z', text: infobox(100) }] },
      { id: 2, title: 'Southtown', revisions: [{ id: 20, timestamp: '2021-01-02T00:00:00Z', text: broken }] },
    ]);
    const run = await runCliOk(['--db', db, 'weekly', ...week, '--dump', '-', '--stages', 'collect'], { input: dump });
    const warnings = run.stderr.split('\n').filter((line) => /invalid UTF-8/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Southtown/);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', page: 'Southtown', page_id: 2, sequences: 2 });
    const [stage] = rows(db, "SELECT counts FROM run_stages WHERE stage = 'collect'") as Array<{ counts: string }>;
    expect(JSON.parse(stage!.counts)).toMatchObject({ pages: 2, invalid_utf8_pages: 1 });
  });

  it('collects a page whose in-window texts outweigh the heap, and the store gives back the space of the dropped texts', async () => {
    const dir = tempDir();
    const db = join(dir, 'w.sqlite');
    const revisionCount = 240;
    const textBytes = 1 << 20;
    // 240 MB of text in the window, with a heap of 160 MB: only a bounded part may be held at once.
    const child = startCli(['--db', db, 'weekly', ...week, '--dump', '-', '--stages', 'collect,parse'], {
      env: { NODE_OPTIONS: '--max-old-space-size=160' },
    });
    const done = collect(child);
    const input = child.stdin!;
    const write = (chunk: string) => (input.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => input.once('drain', () => resolve())));
    await write('<mediawiki xml:lang="en">\n<page><title>Longtown</title><ns>0</ns><id>7</id>\n');
    for (let i = 0; i < revisionCount; i++) {
      const second = String(i % 60).padStart(2, '0');
      const minute = String(Math.floor(i / 60)).padStart(2, '0');
      const filler = `${infobox(i)}\n${String(i).padStart(8, '0')} `.padEnd(textBytes, 'lorem ipsum ');
      await write(`<revision><id>${1000 + i}</id><timestamp>2021-01-02T00:${minute}:${second}Z</timestamp><text>${filler}</text></revision>\n`);
    }
    input.end('</page>\n</mediawiki>\n');
    const run = await done;
    expect(run.stderr).not.toMatch(/heap|error/i);
    expect(run.code).toBe(0);
    expect(rows(db, 'SELECT COUNT(*) AS n, SUM(parsed) AS parsed, COUNT(text) AS texts FROM revisions')).toEqual([{ n: revisionCount, parsed: revisionCount, texts: 0 }]);
    expect(rows(db, 'SELECT COUNT(*) AS n FROM window_pages')).toEqual([{ n: 1 }]);
    // The texts took 240 MB on the way in; what is left is infoboxes and metadata.
    expect(statSync(db).size).toBeLessThan(16 << 20);
  }, 180_000);
});
