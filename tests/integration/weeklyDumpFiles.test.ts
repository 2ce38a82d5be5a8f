/** A history split into several dump files (`weekly --dump A --dump B`) collects what the one file does. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { snapshotStore } from '../support/storeSnapshot.js';

const sample = join(sharedData, 'enwiki-history-sample.xml');
const weekly = ['weekly', '--start', '2019-06-01', '--days', '1000', '--stages', 'collect,parse,diff,select'];

/** The sample's pages dealt into two files, alternately, each a dump of its own. */
function splitSample(dir: string): [string, string] {
  const xml = readFileSync(sample, 'utf8');
  const pages = xml.match(/<page>[\s\S]*?<\/page>/g) ?? [];
  const files: [string, string] = [join(dir, 'part1.xml'), join(dir, 'part2.xml')];
  files.forEach((file, part) => writeFileSync(file, `<mediawiki>\n${pages.filter((_, k) => k % 2 === part).join('\n')}\n</mediawiki>\n`));
  return files;
}

describe('weekly with several dump files', () => {
  it('ends with the store of the same history in one file', async () => {
    const dir = tempDir();
    const [first, second] = splitSample(dir);
    const whole = join(dir, 'whole.sqlite');
    const split = join(dir, 'split.sqlite');
    const ends = (stderr: string) => stderr.split('\n').filter((line) => line.includes('the dump holds no revision after'));
    const one = await runCliOk(['--db', whole, ...weekly, '--dump', sample]);
    const two = await runCliOk(['--db', split, ...weekly, '--dump', first, '--dump', second]);
    const fromWhole = snapshotStore(whole);
    expect(fromWhole.pages?.length).toBeGreaterThan(20);
    expect(snapshotStore(split)).toEqual(fromWhole);
    // The window runs past the history's end: the files, as the one, say where it ends (their newest revision).
    expect(ends(one.stderr)).toHaveLength(1);
    expect(ends(two.stderr).map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(ends(one.stderr).map((line) => (JSON.parse(line) as { message: string }).message));
  }, 120_000);

  it('refuses standard input among several files, and --api with them, with one line', async () => {
    const dir = tempDir();
    const [first] = splitSample(dir);
    for (const [args, code] of [
      [['--dump', first, '--dump', '-'], 'E_FLAGS_CONFLICT'],
      [['--dump', first, '--dump', first, '--api', 'https://en.wikipedia.org/w/api.php'], 'E_FLAGS_CONFLICT'],
    ] as const) {
      const result = await runCli(['--db', join(dir, 'refused.sqlite'), ...weekly, ...args]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.errorCode).toBe(code);
    }
  }, 60_000);
});
