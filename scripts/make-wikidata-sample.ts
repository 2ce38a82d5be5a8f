/**
 * Writes a Wikidata sample to try entity revisions with (docs/ARCHITECTURE.md §16): three weeks of
 * history (January 2023) made from the real entities in ../shared/data/wikidata by editing their claims
 * (testkit/entityWeeks.ts), as a wikidatawiki XML dump, and a Wikidata JSON dump of the labels its
 * facts need, for `--labels`. Deterministic; not committed (data/wikidata/ is written on demand).
 *
 * Usage: tsx scripts/make-wikidata-sample.ts [--out DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../src/packageRoot.js';
import { entityHistoryDump } from '../testkit/entityHistories.js';
import { entityWeeksPages, labelsDump } from '../testkit/entityWeeks.js';
import { sharedData } from '../testkit/sharedData.js';

const outFlag = process.argv.indexOf('--out');
const out = resolve(outFlag >= 0 ? (process.argv[outFlag + 1] ?? '') : join(packageRoot(), 'data', 'wikidata'));

mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'wikidata-history.xml'), entityHistoryDump(entityWeeksPages(sharedData)));
writeFileSync(join(out, 'labels.json'), labelsDump());
process.stdout.write(`wrote ${join(out, 'wikidata-history.xml')} and ${join(out, 'labels.json')}\n`);
