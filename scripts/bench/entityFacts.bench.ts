/**
 * Entity revisions parsed per second on one core (docs/ARCHITECTURE.md §16): a 200-revision history
 * built from the Neihu District entity (its real claims, up to 196 population statements with their
 * references, one more each revision) read from an XML dump, then extracted as the parse job extracts
 * them; against the infobox rate on every revision of the English history sample, timed the same way
 * in the same process, each pass through a new RevisionParser (as a parse thread meets a page's
 * history: a pass through the process's one parser would find every text already parsed). The
 * figure is per second of this process's CPU time (the machine's cores are shared, so wall time
 * measures the neighbours too); wall-time rates are given beside it.
 *
 * `wikidata_history_collect`: the built command's collect stage over a Wikidata history dump of that
 * Neihu history and OTHER_PAGES entity pages (copies of the three real entities) edited only before
 * the week, whose last revisions the collect stage reads for their labels (docs/ARCHITECTURE.md §16).
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { prepareExtractors } from '../../src/content/registry.js';
import { parsedText } from '../../src/queue/parseJob.js';
import { RevisionParser } from '../../src/parse/parseRevision.js';
import type { Infobox } from '../../src/model.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { copyEntity, entityHistoryDump, loadEntity, type EntityPage } from '../../testkit/entityHistories.js';
import { BIELEFELD, CHRISTOPHERSEN, NEIHU, neihuSeriesHistory } from '../../testkit/entityWeeks.js';
import { cliPath } from '../../testkit/cli.js';
import { measureCommand, report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const REVISIONS = 200;
/** Entity pages of the collect benchmark's dump with no revision in its week, and their revisions each. */
const OTHER_PAGES = 150;
const OTHER_REVISIONS = 4;
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

type Extract = (text: Text) => Infobox[];

/** The parse job's extraction (no first paragraph: a revision outside the window). */
const asTheParseJob: () => Extract = () => ({ text, model }) => parsedText(text, false, model).infoboxes;
/** Wikitext through a parser of its own, which remembers only what this pass parsed. */
const throughNewParser: () => Extract = () => {
  const parser = new RevisionParser();
  return ({ text }) => parser.parse(text).infoboxes;
};

/** The median pass (by CPU time) of an extraction of every text, each pass with the extraction `extractor` makes for it. */
function medianPass(texts: readonly Text[], extractor: () => Extract): Pass {
  const pass = (): Pass => {
    const extract = extractor();
    const wall = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    let facts = 0;
    for (const text of texts) facts += extract(text).reduce((sum, infobox) => sum + infobox.fields.length, 0);
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
const entityRun = medianPass(entities, asTheParseJob);
const wikitextRun = medianPass(wikitext, throughNewParser);
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

/** OTHER_PAGES copies of the real entities, each under its own id, edited OTHER_REVISIONS times in 2022. */
function pagesBeforeTheWeek(): EntityPage[] {
  const real = [BIELEFELD, CHRISTOPHERSEN, NEIHU].map(({ id }) => loadEntity(sharedData, id));
  return Array.from({ length: OTHER_PAGES }, (_, n) => {
    const pageId = 10_000_000 + n;
    const revisions = Array.from({ length: OTHER_REVISIONS }, (_, r) => {
      const entity = copyEntity(real[n % real.length]!);
      entity.id = `Q${pageId}`;
      return { revId: pageId * 10 + r, timestamp: `2022-0${r + 1}-15T10:00:00Z`, comment: 'edit', entity };
    });
    return { pageId, revisions };
  });
}

const dir = mkdtempSync(join(tmpdir(), 'wikidelta-bench-entities-'));
try {
  const dump = join(dir, 'wikidata-history.xml');
  writeFileSync(dump, entityHistoryDump([neihuSeriesHistory(sharedData, REVISIONS), ...pagesBeforeTheWeek()]));
  const collect = await measureCommand(process.execPath, [cliPath, '--db', join(dir, 'store.sqlite'), '--json', 'weekly', '--start', '2023-01-02', '--dump', dump, '--stages', 'collect', '--llm', 'offline']);
  const counts = (JSON.parse(collect.stdout.trim().split('\n').at(-1) ?? '{}') as { stages?: Array<{ stage: string; counts: Record<string, number> }> }).stages?.[0]?.counts ?? {};
  report('wikidata_history_collect', collect.seconds, 's', {
    cpu_seconds: Number(collect.cpuSeconds.toFixed(2)),
    peak_rss_mb: Math.round(collect.peakRssMb),
    dump_mb: Number((statSync(dump).size / 1e6).toFixed(1)),
    pages_in_week: counts['pages'],
    revisions_in_week: counts['revisions'],
    pages_before_week: OTHER_PAGES,
    names_kept: counts['entity_names'] ?? 0,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
