/**
 * Infobox extraction speed over every revision of the English history sample, side by side with
 * DailyQA's method (mwparserfromhell, through dailyqaInfoboxes.py, in Debian's python3 with
 * python3-mwparserfromhell) and with a full wtf_wikipedia parse. Ours is timed each revision on its
 * own (`cold`) and as the parse stage reads a history (a RevisionParser over the revisions in order,
 * an infobox repeated from the revision before costing a lookup). Only parsing is timed; the dump
 * is read first; both sides are timed in CPU seconds, ours before and after DailyQA's.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractInfoboxes } from '../../src/parse/infobox.js';
import { RevisionParser } from '../../src/parse/parseRevision.js';
import { parseWithWtf } from '../../src/text/wtf.js';
import { readDump } from '../../src/sources/dumpReader.js';
import { report } from './report.js';
import { sharedData } from '../../testkit/sharedData.js';

const SAMPLE = join(sharedData, 'enwiki-history-sample.xml');
/** Extraction passes timed after one warm-up pass; the median is reported. */
const TIMED_PASSES = 5;

async function readRevisionTexts(path: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const event of readDump(createReadStream(path))) {
    if (event.kind === 'revision' && event.revision.text !== null) texts.push(event.revision.text);
  }
  return texts;
}

/** CPU seconds taken by `work` over all texts (wall time on a shared machine measures the neighbours), and how many items it found. */
function timePass(texts: readonly string[], work: (text: string) => number): { seconds: number; found: number } {
  const started = process.cpuUsage();
  let found = 0;
  for (const text of texts) found += work(text);
  const { user, system } = process.cpuUsage(started);
  return { seconds: (user + system) / 1e6, found };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** DailyQA's extraction timed in Python over the same texts; null (with why) when mwparserfromhell is not installed. */
async function dailyqaTimes(texts: readonly string[]): Promise<{ raw_seconds: number; plain_seconds: number; raw_infoboxes: number; version: string } | { unavailable: string }> {
  const python = spawn('/usr/bin/python3', [join(dirname(fileURLToPath(import.meta.url)), 'dailyqaInfoboxes.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  python.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  python.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  python.stdin.on('error', () => undefined);
  python.stdin.end(texts.map((text) => JSON.stringify(text)).join('\n'));
  const code = await new Promise<number | null>((resolveExit) => {
    python.once('error', () => resolveExit(null));
    python.once('close', resolveExit);
  });
  if (code !== 0) return { unavailable: `${stderr.trim().split('\n').at(-1) ?? 'no /usr/bin/python3'} (apt-get install python3-mwparserfromhell)` };
  return JSON.parse(stdout) as { raw_seconds: number; plain_seconds: number; raw_infoboxes: number; version: string };
}

const texts = await readRevisionTexts(SAMPLE);
const extract = (text: string): number => extractInfoboxes(text).length;
const inHistory = (): ((text: string) => number) => {
  const parser = new RevisionParser();
  return (text) => parser.parse(text).infoboxes.length;
};
const ourPasses = () => ({
  cold: Array.from({ length: TIMED_PASSES }, () => timePass(texts, extract)),
  history: Array.from({ length: TIMED_PASSES }, () => timePass(texts, inHistory())),
});

timePass(texts, extract);
const before = ourPasses();
const dailyqa = await dailyqaTimes(texts);
const after = ourPasses();
const seconds = median([...before.cold, ...after.cold].map((pass) => pass.seconds));
const historySeconds = median([...before.history, ...after.history].map((pass) => pass.seconds));

const fullParse = timePass(texts, (text) => parseWithWtf(text).infoboxes().length);

const speedups =
  'unavailable' in dailyqa
    ? { dailyqa_unavailable: dailyqa.unavailable }
    : {
        dailyqa_revisions_per_s: Number((texts.length / dailyqa.raw_seconds).toFixed(1)),
        dailyqa_plain_text_revisions_per_s: Number((texts.length / dailyqa.plain_seconds).toFixed(1)),
        dailyqa_infoboxes: dailyqa.raw_infoboxes,
        mwparserfromhell: dailyqa.version,
        speedup_cold: Number((dailyqa.raw_seconds / seconds).toFixed(1)),
        speedup_history: Number((dailyqa.raw_seconds / historySeconds).toFixed(1)),
      };
report('infobox_extraction', texts.length / seconds, 'revisions/s', {
  revisions: texts.length,
  infoboxes: before.cold[0]?.found ?? 0,
  seconds: Number(seconds.toFixed(3)),
  history_revisions_per_s: Number((texts.length / historySeconds).toFixed(1)),
  history_seconds: Number(historySeconds.toFixed(3)),
  ...speedups,
  full_wtf_revisions_per_s: Number((texts.length / fullParse.seconds).toFixed(1)),
  full_wtf_infoboxes: fullParse.found,
  full_wtf_seconds: Number(fullParse.seconds.toFixed(3)),
});
if (!('unavailable' in dailyqa)) report('infobox_extraction_vs_dailyqa', dailyqa.raw_seconds / historySeconds, 'x', { cold: Number((dailyqa.raw_seconds / seconds).toFixed(1)), target: 50 });
