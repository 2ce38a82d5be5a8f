/**
 * Infobox extraction speed over every revision of the English history sample, against a full
 * wtf_wikipedia parse of the same revisions (what extraction would cost without the raw-text scan).
 * Only parsing is timed; the dump is read first.
 */
import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractInfoboxes } from '../../src/parse/infobox.js';
import { parseWithWtf } from '../../src/text/wtf.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { report } from './report.js';

const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/data/enwiki-history-sample.xml');
/** Extraction passes timed after one warm-up pass; the median is reported. */
const TIMED_PASSES = 5;

async function readRevisionTexts(path: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const event of readDump(createReadStream(path))) {
    if (event.kind === 'revision' && event.revision.text !== null) texts.push(event.revision.text);
  }
  return texts;
}

/** Seconds taken by `work` over all texts, and how many items it found. */
function timePass(texts: readonly string[], work: (text: string) => number): { seconds: number; found: number } {
  const started = process.hrtime.bigint();
  let found = 0;
  for (const text of texts) found += work(text);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, found };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const texts = await readRevisionTexts(SAMPLE);
const extract = (text: string): number => extractInfoboxes(text).length;

timePass(texts, extract);
const passes = Array.from({ length: TIMED_PASSES }, () => timePass(texts, extract));
const seconds = median(passes.map((pass) => pass.seconds));

const fullParse = timePass(texts, (text) => parseWithWtf(text).infoboxes().length);

report('infobox_extraction', texts.length / seconds, 'revisions/s', {
  revisions: texts.length,
  infoboxes: passes[0]?.found ?? 0,
  seconds: Number(seconds.toFixed(3)),
  full_wtf_revisions_per_s: Number((texts.length / fullParse.seconds).toFixed(1)),
  full_wtf_infoboxes: fullParse.found,
  full_wtf_seconds: Number(fullParse.seconds.toFixed(3)),
});
