/**
 * What the parse stage extracts from every revision of the shared samples (../shared/data: the
 * English and French history samples, the tiny history, the wikitext corpus), each text parsed on
 * its own and as a RevisionParser reads a history, and the frozen copy of it that
 * tests/integration/sharedExtraction.test.ts compares against. The copy was written by this
 * module's `writeExtractionGolden` from the code before the extraction was made faster
 * (docs/SCALE.md), so that a faster extraction is held to the very same infoboxes, keys, values,
 * values left out and first paragraphs. It is written again only when the results change on purpose
 * (`npx tsx tests/support/sharedExtraction.ts`; last for aliases, a link's target kept only for a
 * value that is that one link: 1,344 partial aliases gone, nothing else), the change shown in the commit.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Infobox } from '../../src/model.js';
import { extractInfoboxes } from '../../src/parse/infobox.js';
import { RevisionParser } from '../../src/parse/parseRevision.js';
import { openDumpInput } from '../../src/sources/dumpInput.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { repoRoot } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';

/** The frozen extraction, gzipped JSON (about a megabyte of text unpacked). */
const EXTRACTION_GOLDEN = join(repoRoot, 'tests/support/sharedExtraction.json.gz');

/** One revision's extraction: cold (`extractInfoboxes` on the text alone) and in history order with the first paragraph. */
export interface RevisionExtraction {
  /** Where the text comes from: the sample file and the revision id, or the corpus file's name. */
  source: string;
  cold: { infoboxes: Infobox[]; leftOut: string[] };
  history: { infoboxes: Infobox[]; leftOut: string[]; firstParagraph: string };
}

/** Each history sample's revision texts in file order, the page's revisions one after another. */
async function dumpTexts(file: string): Promise<Array<{ source: string; text: string }>> {
  const texts: Array<{ source: string; text: string }> = [];
  for await (const event of readDump(openDumpInput(join(sharedData, file)))) {
    if (event.kind === 'revision' && event.revision.text !== null) texts.push({ source: `${file}#${event.revision.revId}`, text: event.revision.text });
  }
  return texts;
}

function corpusTexts(): Array<{ source: string; text: string }> {
  const folder = join(sharedData, 'wikitext');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => ({ source: `wikitext/${name}`, text: readFileSync(join(folder, name), 'utf8') }));
}

/** Every revision of the shared samples, extracted by the code as it is now. */
export async function sharedSampleExtractions(): Promise<RevisionExtraction[]> {
  const histories = [
    await dumpTexts('enwiki-history-sample.xml'),
    await dumpTexts('frwiki-history-sample.xml'),
    await dumpTexts('enwiki-20140102-tiny-history.xml.gz'),
    corpusTexts(),
  ];
  return histories.flatMap((texts) => {
    const parser = new RevisionParser();
    return texts.map(({ source, text }) => {
      const leftOut: string[] = [];
      const infoboxes = extractInfoboxes(text, { leftOut });
      const parsed = parser.parse(text, { firstParagraph: true });
      return {
        source,
        cold: { infoboxes, leftOut },
        history: { infoboxes: parsed.infoboxes, leftOut: parsed.leftOut ?? [], firstParagraph: parsed.firstParagraph },
      };
    });
  });
}

export function readExtractionGolden(): RevisionExtraction[] {
  return JSON.parse(gunzipSync(readFileSync(EXTRACTION_GOLDEN)).toString('utf8')) as RevisionExtraction[];
}

/** Freezes the current extraction: run only from code whose results are the reference (`npx tsx tests/support/sharedExtraction.ts`). */
export async function writeExtractionGolden(): Promise<void> {
  const extractions = await sharedSampleExtractions();
  writeFileSync(EXTRACTION_GOLDEN, gzipSync(`[\n${extractions.map((extraction) => JSON.stringify(extraction)).join(',\n')}\n]\n`, { level: 9 }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await writeExtractionGolden();
