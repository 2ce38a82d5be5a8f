/**
 * The registry readies each extractor once per process, however many callers ask at once, and an
 * extractor that needs readying refuses to extract before it is. Each test loads the modules afresh:
 * other files of the worker may have readied the extractors already.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

// The spies are on the fresh modules' extractor; restored so that nothing of them outlives the file in the worker.
afterEach(() => vi.restoreAllMocks());

const ENTITY = JSON.stringify({ type: 'item', id: 'Q1', claims: {} });

async function freshRegistry() {
  vi.resetModules();
  const { wikibaseItemFacts } = await import('../../../src/content/wikibaseItemFacts.js');
  const registry = await import('../../../src/content/registry.js');
  return { wikibaseItemFacts, ...registry };
}

describe('prepareExtractors', () => {
  it('prepares each extractor once, for callers at once and later ones, and only the extractors of the models named', async () => {
    const { wikibaseItemFacts, prepareExtractors, extractFacts } = await freshRegistry();
    const prepare = vi.spyOn(wikibaseItemFacts, 'prepare');
    await prepareExtractors(['wikitext', null]);
    expect(prepare).not.toHaveBeenCalled();
    await Promise.all([prepareExtractors(['wikibase-item']), prepareExtractors(['wikibase-item', 'wikitext', 'wikibase-item'])]);
    await prepareExtractors(['wikibase-item']);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(extractFacts(ENTITY, 'wikibase-item', { firstParagraph: false }).entity?.id).toBe('Q1');
  });

  it('throws when extracting entity facts before they are prepared, and tries again after a failed prepare', async () => {
    const { wikibaseItemFacts, prepareExtractors, extractFacts } = await freshRegistry();
    expect(() => extractFacts(ENTITY, 'wikibase-item', { firstParagraph: false })).toThrow(/await prepareExtractors\(\)/);
    const prepare = vi.spyOn(wikibaseItemFacts, 'prepare').mockRejectedValueOnce(new Error('disk gone'));
    await expect(prepareExtractors(['wikibase-item'])).rejects.toThrow('disk gone');
    await prepareExtractors(['wikibase-item']);
    expect(prepare).toHaveBeenCalledTimes(2);
    expect(extractFacts(ENTITY, 'wikibase-item', { firstParagraph: false }).entity?.id).toBe('Q1');
  });
});
