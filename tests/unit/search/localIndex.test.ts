import { describe, expect, it } from 'vitest';
import { LocalSearchIndex } from '../../../src/search/localIndex.js';

const towns = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    title: `Town ${i}`,
    lead: `Town ${i} is a town on the river with a population of ${1000 + i} people.`,
    infobox: `${1000 + i}\nMayor ${i}`,
  }));

describe('the local BM25 index', () => {
  it('searches a small store with every term: the source page first, the ranking as the full query gives it', async () => {
    const index = new LocalSearchIndex(towns(50));
    expect(await index.topTitles('What is the population of Town 17?', 10)).toEqual(expect.arrayContaining(['Town 17']));
    expect((await index.topTitles('What is the population of Town 17?', 10))[0]).toBe('Town 17');
    expect(await index.topTitles('town river population', 3)).toHaveLength(3);
  });

  it('on a large store searches a question with its rare terms, so the common ones cost nothing and the page is still found', async () => {
    const index = new LocalSearchIndex(towns(5000));
    expect(index.size).toBe(5000);
    expect((await index.topTitles('What is the population of Town 4321?', 10))[0]).toBe('Town 4321');
    expect((await index.topTitles('Who is the mayor of Town 12 on the river?', 10))[0]).toBe('Town 12');
    // Only common terms: the rarest one is searched, not nothing.
    expect(await index.topTitles('the town on the river', 10)).toHaveLength(10);
    expect(await index.topTitles('', 10)).toEqual([]);
  });
});
