/**
 * The read-dump job without a queue: a file read in bounded parts gives the pages of one read, and
 * the collect stage fed by it (any runner) leaves the store a single-process collect and parse
 * leave, also when every result is handed twice; a file that cannot be read is one line naming it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runWeekly } from '../../../pipelines/weekly.js';
import { SAMPLE_DUMP } from '../../../src/cli/commands/demo.js';
import { windowFrom } from '../../../src/dates.js';
import { InProcessRunner, type BatchRunner, type JobKind } from '../../../src/queue/batchRunner.js';
import { readDumpJob, type ReadDumpPart, type ReadDumpResult } from '../../../src/queue/dumpJob.js';
import { RecordingReporter } from '../../../src/runs/progress.js';
import { DumpFilesSource } from '../../../src/sources/dumpFiles.js';
import { DumpRevisionSource } from '../../../src/sources/dumpSource.js';
import { tempDir } from '../../../testkit/cli.js';
import { entityHistoryDump, type EntityJson } from '../../../testkit/entityHistories.js';
import { namedEntityPages } from '../../../testkit/entityWeeks.js';
import { MERGED_AT, MERGED_PAGE, REDIRECT_REV_ID, writeRedirectedSample } from '../../../testkit/redirectedSample.js';
import type { DatedEntityName } from '../../../src/model.js';
import { snapshotStore } from '../../support/storeSnapshot.js';
import { Store } from '../../../src/store/store.js';
import { withCode } from '../../support/errorCodes.js';

const window = windowFrom('2025-02-03', 7);
const noModels = { models: () => Promise.reject(new Error('no models expected')) };
const inProcess = new InProcessRunner(noModels);

/** The sample's pages dealt into `count` files, alternately. */
function splitSample(dir: string, count: number): string[] {
  const xml = readFileSync(SAMPLE_DUMP, 'utf8');
  const pages = xml.match(/<page>[\s\S]*?<\/page>/g) ?? [];
  return Array.from({ length: count }, (_, part) => {
    const file = join(dir, `part${part + 1}.xml`);
    writeFileSync(file, `<mediawiki>\n${pages.filter((_, k) => k % count === part).join('\n')}\n</mediawiki>\n`);
    return file;
  });
}

/** Hands every result twice, as a queue may when a job is done twice. */
class TwiceRunner implements BatchRunner {
  async run<Data, Output>(kind: JobKind<Data, Output>, batches: readonly Data[], onResult: (output: Output, index: number) => void): Promise<void> {
    await inProcess.run(kind, batches, (output, index) => {
      onResult(output, index);
      onResult(output, index);
    });
  }
}

/** The collect, parse and diff stages over the files, one source or several, into a new store; its tables. */
async function weeklyStore(dir: string, name: string, files: string[], batchRunner?: BatchRunner) {
  const path = join(dir, `${name}.sqlite`);
  const store = Store.open(path);
  try {
    const outcome = await runWeekly({
      store,
      input: {
        window,
        wiki: 'sample',
        source: files.length === 1 ? new DumpRevisionSource(files[0] as string) : new DumpFilesSource(files),
        seed: 1,
        revertHours: 48,
        keepContent: false,
        articleBaseUrl: 'https://sample.wikidelta.invalid/wiki/',
        ...(batchRunner ? { batchRunner } : {}),
      },
      stages: ['collect', 'parse', 'diff'],
      reporter: new RecordingReporter(),
      params: { test: name },
    });
    return { outcome, tables: snapshotStore(path) };
  } finally {
    store.close();
  }
}

async function readWhole(part: Omit<ReadDumpPart, 'afterPage'>): Promise<ReadDumpResult[]> {
  const parts: ReadDumpResult[] = [];
  let afterPage: number | null = null;
  do {
    const result = await readDumpJob.compute(readDumpJob.data.parse({ ...part, afterPage }), noModels);
    parts.push(readDumpJob.output.parse(JSON.parse(JSON.stringify(result))));
    afterPage = result.nextAfterPage;
  } while (afterPage !== null);
  return parts;
}

describe('read-dump job', () => {
  it('reads a file in parts that end after the page reaching the bound, together the pages of one read, with no wikitext', async () => {
    const part = { path: SAMPLE_DUMP, window, followHours: 48 };
    const [whole, ...rest] = await readWhole({ ...part, partChars: 1 << 30 });
    expect(rest).toEqual([]);
    expect(whole?.nextAfterPage).toBeNull();
    expect(whole?.pages.length).toBeGreaterThan(5);
    expect(JSON.stringify(whole)).not.toMatch(/\{\{Infobox/);
    expect(whole?.pages.flatMap((page) => page.revisions).some((revision) => revision.infoboxes.length > 0 && revision.firstParagraph)).toBe(true);

    const parts = await readWhole({ ...part, partChars: 2000 });
    expect(parts.length).toBeGreaterThan(2);
    for (const result of parts.slice(0, -1)) {
      // Every page but the last of a part stays below the bound.
      expect(JSON.stringify(result.pages.slice(0, -1)).length).toBeLessThan(2000 + 2);
      expect(result.nextAfterPage).toBe(result.pages.at(-1)?.page.pageId);
    }
    expect(parts.flatMap((result) => result.pages)).toEqual(whole?.pages);
  });

  it('readies the extractor of a content model the part first meets after others (an entity page after wikitext ones)', async () => {
    // Fresh modules: another file of the worker may have readied the entity extractor already.
    vi.resetModules();
    const fresh = (await import('../../../src/queue/dumpJob.js')).readDumpJob;
    const entity: EntityJson = { type: 'item', id: 'Q1', labels: { en: { language: 'en', value: 'Universe' } }, claims: { P17: [{ id: 'Q1$1', rank: 'normal', mainsnak: { snaktype: 'value', property: 'P17', datavalue: { type: 'wikibase-entityid', value: { 'entity-type': 'item', 'numeric-id': 183, id: 'Q183' } } } }] } };
    const entityPage = /<page>[\s\S]*<\/page>/.exec(entityHistoryDump([{ pageId: 990001, revisions: [{ revId: 990001, timestamp: '2025-02-04T10:00:00Z', comment: 'created', entity }] }]))?.[0] ?? '';
    const file = join(tempDir(), 'mixed.xml');
    writeFileSync(file, readFileSync(SAMPLE_DUMP, 'utf8').replace('</mediawiki>', `${entityPage}\n</mediawiki>`));
    const result = await fresh.compute(fresh.data.parse({ path: file, window, followHours: 48, afterPage: null, partChars: 1 << 30 }), noModels);
    expect(result.pages.length).toBeGreaterThan(5);
    expect(result.pages.at(-1)?.revisions).toMatchObject([{ model: 'wikibase-item', infoboxes: [{ template: 'wikibase-item', fields: [['P17', '{{Q183}}']] }], entity: { id: 'Q1', label: 'Universe' } }]);
    expect(result.pages.slice(0, -1).flatMap((page) => page.revisions).some((revision) => revision.infoboxes.length > 0)).toBe(true);
  });

  it("returns the names of the entity pages a part passes over with that part, each once across parts, as one read tells them", async () => {
    const file = join(tempDir(), 'wikidata.xml');
    const named = namedEntityPages(['Q5', 'Q82955', 'P31', 'P106'], ['2022-03-01T10:00:00Z', '2022-06-01T10:00:00Z']);
    // The week's pages between the named ones, so that parts end among them.
    const [germany, taiwan] = namedEntityPages(['Q183', 'Q865'], ['2022-03-01T10:00:00Z', '2023-01-03T10:00:00Z']);
    writeFileSync(file, entityHistoryDump([named[0]!, germany!, named[1]!, taiwan!, named[2]!, named[3]!]));
    const entityWindow = windowFrom('2023-01-02', 7);
    const told: DatedEntityName[] = [];
    for await (const part of new DumpRevisionSource(file).pagesChangedIn(entityWindow, { onEntityName: (name) => told.push(name) })) void part;
    expect(told.map((name) => name.id)).toEqual(['Q5', 'Q82955', 'P31', 'P106']);
    const parts = await readWhole({ path: file, window: entityWindow, followHours: 48, partChars: 1 });
    expect(parts.length).toBe(3);
    expect(parts.map((result) => result.names.map((name) => name.id))).toEqual([['Q5'], ['Q82955'], ['P31', 'P106']]);
    expect(parts.flatMap((result) => result.names)).toEqual(told);
  });

  it('comes back with the pages that are redirects now only when asked to keep them (a sync), the redirect revision parsed as no infobox', async () => {
    const file = writeRedirectedSample(join(tempDir(), 'merged.xml'));
    const after = windowFrom('2025-03-24', 7);
    const pageIds = async (keepRedirects?: boolean) =>
      (await readWhole({ path: file, window: after, followHours: 48, partChars: 1 << 30, ...(keepRedirects === undefined ? {} : { keepRedirects }) })).flatMap((result) => result.pages);
    expect((await pageIds()).map((page) => page.page.pageId)).not.toContain(MERGED_PAGE.pageId);
    expect((await pageIds(false)).map((page) => page.page.pageId)).not.toContain(MERGED_PAGE.pageId);
    const merged = (await pageIds(true)).find((page) => page.page.pageId === MERGED_PAGE.pageId);
    const redirect = merged?.revisions.find((revision) => revision.revId === REDIRECT_REV_ID);
    expect(redirect).toMatchObject({ timestamp: MERGED_AT, infoboxes: [] });
    expect(merged?.revisions.filter((revision) => revision !== redirect).every((revision) => revision.infoboxes.length > 0)).toBe(true);
  });

  it('names the file in one line when it is missing or broken', async () => {
    const dir = tempDir();
    const broken = join(dir, 'broken.xml');
    writeFileSync(broken, readFileSync(SAMPLE_DUMP, 'utf8').slice(0, 40_000));
    for (const [path, message] of [
      [join(dir, 'missing.xml'), /dump file not found: .*missing\.xml$/],
      [broken, /broken\.xml: dump is truncated/],
    ] as const) {
      const reading = readDumpJob.compute({ path, window, followHours: 48, afterPage: null, partChars: 1 << 20 }, noModels);
      await expect(reading).rejects.toThrow(message);
      await expect(reading).rejects.not.toThrow(/\n/);
    }
  });
});

describe('collect of several dump files through a batch runner', () => {
  it('leaves the store of a single-process collect and parse, also when each result is handed twice', async () => {
    const dir = tempDir();
    const files = splitSample(dir, 3);
    const single = await weeklyStore(dir, 'single', files);
    expect(single.tables.pages?.length).toBeGreaterThan(5);
    expect(single.tables.infoboxes?.length).toBeGreaterThan(10);
    expect(single.tables.infobox_changes?.length).toBeGreaterThan(5);

    const onRunner = await weeklyStore(dir, 'runner', files, inProcess);
    expect(onRunner.tables).toEqual(single.tables);
    const stage = (name: string) => onRunner.outcome.run.stages.find((record) => record.stage === name);
    expect(stage('collect')?.counts).toMatchObject({ pages: single.tables.window_pages?.length, infoboxes: single.tables.infoboxes?.length });
    expect(stage('parse')?.counts).toEqual({ revisions: 0, infoboxes: 0 });

    expect((await weeklyStore(dir, 'twice', files, new TwiceRunner())).tables).toEqual(single.tables);
  });

  it('stops at a missing file with one line naming it, the pages of the files read before it kept, and resumes', async () => {
    const dir = tempDir();
    const [first, second] = splitSample(dir, 2) as [string, string];
    const missing = join(dir, 'later.xml');
    const path = join(dir, 'resumed.sqlite');
    const store = Store.open(path);
    const input = {
      window,
      wiki: 'sample',
      source: new DumpFilesSource([first, missing]),
      seed: 1,
      revertHours: 48,
      keepContent: false,
      articleBaseUrl: 'https://sample.wikidelta.invalid/wiki/',
      batchRunner: inProcess,
    };
    const run = (source: DumpFilesSource) => runWeekly({ store, input: { ...input, source }, stages: ['collect', 'parse', 'diff'], reporter: new RecordingReporter(), params: { test: 'resume' } });
    await expect(run(input.source)).rejects.toThrow(withCode('E_FILE_UNREADABLE', /^dump file not found: .*later\.xml$/));
    const firstPages = (await readWhole({ path: first, window, followHours: 48, partChars: 1 << 30 }))[0]?.pages.length;
    expect(store.db.prepare('SELECT COUNT(*) FROM window_pages').pluck().get()).toBe(firstPages);

    writeFileSync(missing, readFileSync(second));
    await run(new DumpFilesSource([first, missing]));
    store.close();
    expect(snapshotStore(path)).toEqual((await weeklyStore(dir, 'single', [first, second])).tables);
  });
});
