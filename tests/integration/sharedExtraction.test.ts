/**
 * The extraction of every revision of the shared samples is the frozen one (tests/support/sharedExtraction.ts):
 * the same infoboxes, keys, values, values left out and first paragraphs, each text on its own and
 * read as a history, so that making the extraction faster changes none of its results.
 */
import { describe, expect, it } from 'vitest';
import { readExtractionGolden, sharedSampleExtractions } from '../support/sharedExtraction.js';

describe('the extraction of the shared samples', () => {
  const golden = readExtractionGolden();

  it('has a frozen copy that holds every sample and real infoboxes', () => {
    const samples = new Set(golden.map((revision) => revision.source.split(/[#/]/)[0]));
    expect([...samples].sort()).toEqual(['enwiki-20140102-tiny-history.xml.gz', 'enwiki-history-sample.xml', 'frwiki-history-sample.xml', 'wikitext']);
    expect(golden.length).toBe(511);
    expect(golden.reduce((sum, revision) => sum + revision.cold.infoboxes.length, 0)).toBeGreaterThan(450);
    expect(golden.reduce((sum, revision) => sum + revision.cold.infoboxes.reduce((fields, infobox) => fields + infobox.fields.length, 0), 0)).toBeGreaterThan(8_000);
    expect(golden.filter((revision) => revision.history.firstParagraph !== '').length).toBeGreaterThan(450);
  });

  it('is extracted today exactly as frozen, revision by revision', async () => {
    const extractions = await sharedSampleExtractions();
    expect(extractions.map((revision) => revision.source)).toEqual(golden.map((revision) => revision.source));
    extractions.forEach((revision, i) => expect(revision, revision.source).toEqual(golden[i]));
  });
});
