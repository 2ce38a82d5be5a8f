/**
 * The content model travels from the dump to the extractor (docs/ARCHITECTURE.md §16): the reader
 * reports it, the parse and read-dump jobs carry it, and an entity revision parses to its facts
 * wherever it is parsed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readDumpJob } from '../../src/queue/dumpJob.js';
import { parseRevisionsJob } from '../../src/queue/parseJob.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { entityHistoryDump, entityText } from '../../testkit/entityHistories.js';
import { christophersenHistory } from '../../testkit/entityWeeks.js';

const history = christophersenHistory(sharedData);
/** Parsing needs no model: a job that asked for one would fail. */
const noModels = { models: () => Promise.reject(new Error('no models expected')) };
const dump = entityHistoryDump([history]);

describe('content models from dumps to extractors', () => {
  it('reads <model> of each revision, leaving wikitext unsaid', async () => {
    const models: Array<string | undefined> = [];
    for await (const event of readDump(Readable.from([dump]))) if (event.kind === 'revision') models.push(event.revision.model);
    expect(models).toEqual(['wikibase-item', 'wikibase-item']);
    const wikitext = dump.replace(/<model>wikibase-item<\/model>/g, '<model>wikitext</model>');
    for await (const event of readDump(Readable.from([wikitext]))) if (event.kind === 'revision') expect(event.revision.model).toBeUndefined();
  });

  it('parses an entity revision by its model in the parse job, and as wikitext (no facts) without it', async () => {
    const text = entityText(history.revisions[1]!.entity);
    const parsed = await parseRevisionsJob.compute({
      revisions: [
        { pageId: 1, revId: 1, text, model: 'wikibase-item', firstParagraph: true },
        { pageId: 1, revId: 2, text, model: null, firstParagraph: false },
      ],
    }, noModels);
    expect(parsed.revisions[0]?.infoboxes[0]?.template).toBe('wikibase-item');
    expect(new Map(parsed.revisions[0]?.infoboxes[0]?.fields).get('P106')).toBe('{{Q82955}}');
    expect(parsed.revisions[0]?.entity).toMatchObject({ id: 'Q646148', label: 'Henning Christophersen' });
    expect(parsed.revisions[0]?.firstParagraph).toMatch(/^Henning Christophersen: /);
    expect(parsed.revisions[1]).toEqual({ pageId: 1, revId: 2, infoboxes: [], firstParagraph: null, leftOut: [] });
    // What the job returns passes its own schema: a worker's result reaches the owner whole.
    expect(parseRevisionsJob.output.parse(parsed)).toEqual(parsed);
  });

  it('reads and parses an entity dump file on a worker as the owner would', async () => {
    const path = join(tempDir(), 'entities.xml');
    writeFileSync(path, dump);
    const result = await readDumpJob.compute({ path, window: { start: '2023-01-02T00:00:00Z', end: '2023-01-09T00:00:00Z' }, followHours: 48, afterPage: null, partChars: 1 << 22 }, noModels);
    const [page] = result.pages;
    expect(page?.revisions.map((revision) => [revision.revId, revision.model, revision.entity?.id])).toEqual([
      [6461480002, 'wikibase-item', 'Q646148'],
      [6461480001, 'wikibase-item', 'Q646148'],
    ]);
    expect(readDumpJob.output.parse(result)).toEqual(result);
  });
});
