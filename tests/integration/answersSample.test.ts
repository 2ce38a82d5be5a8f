import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { embeddedSampleAnswerCases } from '../support/answerCases.js';
import { sampleMadeOn } from '../support/laterSample.js';
import { writeDumpPart } from '../support/splitDump.js';
import { repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';

const sample = join(repoRoot, 'data/sample/sample-history.xml');

describe('answers for any date on the embedded sample', () => {
  const db = join(tempDir(), 'answers.sqlite');
  embeddedSampleAnswerCases(async () => {
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-06', '--days', '91', '--dump', sample, '--stages', 'collect,parse,diff,select,timeline']);
    return db;
  }, { movesRecorded: true });

  it('prints {answer, status, rev_id, valid_from, valid_to, aliases} with --json', async () => {
    const result = await runCliOk(['--db', db, '--json', 'answer', '--title', 'Port Aldwin', '--key', 'population_total', '--date', '2025-02-10']);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(['answer', 'status', 'rev_id', 'valid_from', 'valid_to', 'aliases']);
    const missing = await runCli(['--db', db, 'answer', '--title', 'No Such Page', '--key', 'x', '--date', '2025-02-10']);
    expect(missing.code).toBe(1);
    expect(missing.errorCode).toBe('E_PAGE_NOT_FOUND');
  });

  it('reads --template and --key as the parser reads wikitext, and refuses a template the page never had', async () => {
    const quillstone = (template: string) =>
      runCli(['--db', db, 'answer', '--title', 'Quillstone', '--key', 'latest_release_version', '--date', '2025-02-28', '--template', template]);
    for (const template of ['file format', 'Infobox file format', 'File format', 'FILE FORMAT', 'file_format']) {
      const result = await quillstone(template);
      expect([template, result.code, result.stdout.split('\n')[0]]).toEqual([template, 0, '4']);
    }
    expect((await quillstone('software')).stdout.split('\n')[0]).toBe('4.2.1');
    const refused = await quillstone('nope');
    expect([refused.code, refused.errorCode, refused.stdout]).toEqual([1, 'E_FLAG_INVALID', '']);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('its infoboxes: software, file format');

    const value = async (title: string, key: string) => JSON.parse((await runCliOk(['--db', db, '--json', 'answer', '--title', title, '--key', key, '--date', '2025-03-24'])).stdout) as { answer: string | null; status: string };
    expect(await value('2024–25 Port Aldwin Rovers F.C. season', 'league result')).toMatchObject({ status: 'ok', answer: '1st' });
    expect(await value('Caldrossa', 'GDP_PPP')).toEqual(await value('Caldrossa', 'gdp_ppp'));
    expect((await value('Caldrossa', 'GDP_PPP')).status).toBe('ok');
  });
});

describe('update frequency on the embedded sample', () => {
  it("does not count the week's own change on its last day: 25031700-108-0 stays 1st from day 8 on", async () => {
    const dir = tempDir();
    const db = join(dir, 'week.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-03-17', '--dump', sample, '--llm', 'offline']);
    await runCliOk(['--db', db, 'sync', '--until', '2025-04-30', '--dump', sampleMadeOn(dir, '2025-04-30')]);
    for (const date of ['2025-03-24', '2025-03-31', '2025-04-06', '2025-04-07']) {
      expect((await runCliOk(['--db', db, 'answer', '--query', '25031700-108-0', '--date', date])).stdout.split('\n')[0]).toBe('1st');
    }
    const store = Store.open(db, { readonly: true });
    try {
      // Changed on 2025-03-23 (day 7) at 19:50, and never again.
      expect(store.db.prepare("SELECT update_frequency FROM queries WHERE id = '25031700-108-0'").pluck().get()).toBe('infrequent_update');
    } finally {
      store.close();
    }
  });

  it('keeps a query pending through a sync from a dump that ends before the days it needs, and says where the dump stops', async () => {
    // 25011300-106-0 (the film's gross, set on 2025-01-13) changes again on 2025-01-27, day 15: frequent.
    const dir = tempDir();
    const cut = join(dir, 'sample-to-2025-01-24.xml');
    writeDumpPart(sample, cut, { before: '2025-01-25' });
    const db = join(dir, 'cut.sqlite');
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-13', '--dump', cut, '--llm', 'offline']);
    const sync = await runCliOk(['--db', db, 'sync', '--until', '2025-02-10', '--dump', cut]);
    expect(sync.stdout).toMatch(/^run \d+ sync up to 2025-01-24T09:00:00Z \(the dump holds nothing later; not 2025-02-10\): /);
    const warnings = sync.stderr.split('\n').filter((line) => line.includes('"level":"warn"'));
    expect(warnings).toEqual([expect.stringContaining('the dump holds no revision after 2025-01-24T09:00:00Z: synced up to there, not up to 2025-02-10T00:00:00Z')]);
    const answer = async (date: string) => JSON.parse((await runCliOk(['--db', db, '--json', 'answer', '--query', '25011300-106-0', '--date', date])).stdout) as { answer: string | null; status: string };
    expect(await answer('2025-01-24')).toMatchObject({ status: 'ok', answer: 'CRN 2.1 million' });
    expect(await answer('2025-01-25')).toMatchObject({ status: 'unknown', answer: null });
    const frequency = () => {
      const store = Store.open(db, { readonly: true });
      try {
        return store.db.prepare("SELECT update_frequency FROM queries WHERE id = '25011300-106-0'").pluck().get();
      } finally {
        store.close();
      }
    };
    expect(frequency()).toBe('pending');
    const status = await runCliOk(['--db', db, 'status', '--limit', '1']);
    expect(status.stdout).toContain('sourceEnd=2025-01-24T09:00:00Z');
    expect(status.stdout).toMatch(/finalize +done .* pending=1 frequent_update=0 infrequent_update=0/);
    // A dump made later holds the days after: the change of day 15 makes the query frequent.
    await runCliOk(['--db', db, 'sync', '--until', '2025-02-10', '--dump', sample]);
    expect(frequency()).toBe('frequent_update');
    // The cut dump again, for later days: older than the pages' marks, it moves them nowhere, and says so without calling their mark its end.
    const stale = await runCliOk(['--db', db, 'sync', '--until', '2025-02-20', '--dump', cut]);
    expect(stale.stdout).toMatch(/^run \d+ sync up to 2025-02-10T00:00:00Z \(the dump holds nothing later; not 2025-02-20\): /);
    expect(stale.stderr).toContain('the dump holds no revision after 2025-01-24T09:00:00Z: the pages stay synced up to 2025-02-10T00:00:00Z, not up to 2025-02-20T00:00:00Z');
    expect(await answer('2025-02-12')).toMatchObject({ status: 'unknown', answer: null });
  });
});
