/**
 * Entity revisions parsed per second on one core (docs/ARCHITECTURE.md §16): a 200-revision history
 * built from the Neihu District entity (its real claims, up to 196 population statements with their
 * references, one more each revision) read from an XML dump, then extracted as the parse job extracts
 * them; against the infobox rate on every revision of the English history sample, timed the same way
 * in the same process. The figure is per second of this process's CPU time (the machine's cores are
 * shared, so wall time measures the neighbours too); wall-time rates are given beside it.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { prepareExtractors } from '../../src/content/registry.js';
import { parsedText } from '../../src/queue/parseJob.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { entityHistoryDump } from '../../testkit/entityHistories.js';
import { neihuSeriesHistory } from '../../testkit/entityWeeks.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';


const REVISIONS = 200;
/** Passes timed after one warm-up pass; the median is reported. */
const TIMED_PASSES = 5;

interface Text {
  text: string;
  model: string | undefined;
}

async function revisionTexts(input: NodeJS.ReadableStream | AsyncIterable<Buffer | string>): Promise<Text[]> {
  const texts: Text[] = [];
  for await (const event of readDump(input)) {
    if (event.kind === 'revision' && event.revision.text !== null) texts.push({ text: event.revision.text, model: event.revision.model });
  }
  return texts;
}

interface Pass {
  /** CPU seconds of this process (user and system). */
  seconds: number;
  wallSeconds: number;
  facts: number;
}

/** The median pass (by CPU time) of a parse of every text, as the parse job does it (no first paragraph: a revision outside the window). */
function medianPass(texts: readonly Text[]): Pass {
  const pass = (): Pass => {
    const wall = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    let facts = 0;
    for (const { text, model } of texts) facts += parsedText(text, false, model).infoboxes.reduce((sum, infobox) => sum + infobox.fields.length, 0);
    const used = process.cpuUsage(cpu);
    return { seconds: (used.user + used.system) / 1e6, wallSeconds: Number(process.hrtime.bigint() - wall) / 1e9, facts };
  };
  pass();
  const passes = Array.from({ length: TIMED_PASSES }, pass).sort((a, b) => a.seconds - b.seconds);
  return passes[Math.floor(passes.length / 2)] as Pass;
}

await prepareExtractors(['wikibase-item']);
const entities = await revisionTexts(Readable.from([entityHistoryDump([neihuSeriesHistory(sharedData, REVISIONS)])]));
const wikitext = await revisionTexts(createReadStream(join(sharedData, 'enwiki-history-sample.xml')));
const entityRun = medianPass(entities);
const wikitextRun = medianPass(wikitext);
const entityRate = entities.length / entityRun.seconds;
const wikitextRate = wikitext.length / wikitextRun.seconds;

report('entity_revisions_parsed', entityRate, 'revisions/s', {
  revisions: entities.length,
  mean_revision_kb: Number((entities.reduce((sum, { text }) => sum + text.length, 0) / entities.length / 1024).toFixed(1)),
  facts: entityRun.facts,
  cpu_seconds: Number(entityRun.seconds.toFixed(3)),
  wall_revisions_per_s: Number((entities.length / entityRun.wallSeconds).toFixed(1)),
  infobox_revisions_per_s: Number(wikitextRate.toFixed(1)),
  infobox_wall_revisions_per_s: Number((wikitext.length / wikitextRun.wallSeconds).toFixed(1)),
  infobox_revisions: wikitext.length,
  ratio_to_infobox: Number((entityRate / wikitextRate).toFixed(2)),
  target_revisions_per_s: 200,
});
