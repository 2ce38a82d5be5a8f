import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeWeeklyRelease } from '../../../../pipelines/weekly/export.js';
import { weeklyFigures } from '../../../../src/plots/datasetFigures.js';
import { Store } from '../../../../src/store/store.js';
import { tempDir } from '../../../../testkit/cli.js';

/**
 * A week's release draws the figures of its series' weeks up to it. A store that holds an English
 * Wikipedia week beside Wikidata weeks (README: one store for several wikis) must not put the
 * other wiki's weeks on a Wikidata release's figures, nor fill the axis with the empty weeks
 * between the two wikis' years.
 */
let store: Store;

beforeAll(() => {
  store = Store.open(':memory:');
  const query = store.db.prepare(
    "INSERT INTO queries (id, text, origin, wiki, page_id, slot, template, key, window_start, window_end, created_at) VALUES (?, 'Q?', 'generated', ?, ?, 'x', 'x', 'k', ?, ?, '2023-02-01T00:00:00Z')",
  );
  const domain = store.db.prepare("INSERT INTO question_domains (query_id, domain, provider, model, prompt, prompt_version) VALUES (?, ?, 'offline', 'rules-v1', 'offline-rules', '1')");
  query.run('21011800-3354-0', 'enwiki', 3354, '2021-01-18T00:00:00Z', '2021-01-25T00:00:00Z');
  query.run('23010200-271094-0', 'wikidatawiki', 271094, '2023-01-02T00:00:00Z', '2023-01-09T00:00:00Z');
  query.run('23010900-2112-0', 'wikidatawiki', 2112, '2023-01-09T00:00:00Z', '2023-01-16T00:00:00Z');
  domain.run('21011800-3354-0', 'Culture and Arts');
  domain.run('23010200-271094-0', 'Others');
  domain.run('23010900-2112-0', 'Geography and Environment');
});

/** The weeks on a queries-per-domain figure's axis, and the weeks and domains its bars count. */
function domainFigure(figures: ReturnType<typeof weeklyFigures>): { axis: unknown; bars: unknown } {
  const spec = figures.find((figure) => figure.name === 'queries-per-domain')?.spec as { encoding: { x: { scale: { domain: unknown } } }; data: { values: unknown } };
  return { axis: spec.encoding.x.scale.domain, bars: spec.data.values };
}

describe("a weekly release's figures in a store of several wikis", () => {
  it("shows one wiki's weeks only when asked for that wiki, and every week otherwise", () => {
    expect(domainFigure(weeklyFigures(store, '2023-01-09', 'edit', 'wikidatawiki'))).toEqual({
      axis: ['2023-01-02', '2023-01-09'],
      bars: [
        { week: '2023-01-02', domain: 'Others', queries: 1 },
        { week: '2023-01-09', domain: 'Geography and Environment', queries: 1 },
      ],
    });
    expect(domainFigure(weeklyFigures(store, '2023-01-02', 'edit', 'enwiki')).axis).toEqual(['2021-01-18']);
    expect((domainFigure(weeklyFigures(store)).axis as string[]).length).toBe(104);
  });

  it("draws the release's figures from its own wiki's weeks", async () => {
    const dir = join(tempDir(), 'weekly-2023-01-09');
    const window = { start: '2023-01-09T00:00:00Z', end: '2023-01-16T00:00:00Z' };
    await writeWeeklyRelease(store, { wiki: 'wikidatawiki', window, axis: 'edit', dir, previous: 'auto' });
    const svg = readFileSync(join(dir, 'queries-per-domain.svg'), 'utf8');
    expect(svg).toContain("'week of queries' for a discrete scale with 2 values: 2023-01-02, 2023-01-09");
  });
});
