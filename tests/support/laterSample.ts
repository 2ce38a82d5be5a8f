/**
 * The embedded sample as a dump made later than its newest revision (2025-03-27): a sync through a
 * dump vouches for no instant after the dump's newest revision (pipelines/sync.ts), so a test that
 * syncs past the sample's end gives it a talk-page edit made on that day.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../testkit/cli.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');

/** Writes into `dir` the sample with a talk page edited at `date` 00:00 UTC; returns the file's path. */
export function sampleMadeOn(dir: string, date: string): string {
  const talk = `  <page>
    <title>Talk:Port Aldwin</title>
    <ns>1</ns>
    <id>901</id>
    <revision>
      <id>9001</id>
      <timestamp>${date}T00:00:00Z</timestamp>
      <contributor>
        <username>Tamsin Orrell</username>
        <id>2041</id>
      </contributor>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text xml:space="preserve">Harbour figures checked.</text>
    </revision>
  </page>
`;
  const path = join(dir, `sample-made-${date}.xml`);
  writeFileSync(path, readFileSync(SAMPLE, 'utf8').replace('</mediawiki>', `${talk}</mediawiki>`));
  return path;
}
