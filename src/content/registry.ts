/**
 * The fact extractors by content model (docs/ARCHITECTURE.md §16). A new content model (Lexemes,
 * Commons structured data) is one file implementing `FactExtractor` and one entry here.
 */
import { DEFAULT_CONTENT_MODEL, type ParsedRevision } from '../model.js';
import { noFacts, type ExtractOptions, type FactExtractor } from './factExtractor.js';
import { wikibaseItemFacts } from './wikibaseItemFacts.js';
import { wikitextFacts } from './wikitextFacts.js';

const EXTRACTORS: readonly FactExtractor[] = [wikitextFacts, wikibaseItemFacts];

const byModel = new Map(EXTRACTORS.flatMap((extractor) => extractor.models.map((model) => [model, extractor] as const)));

/**
 * The extractor of a content model (wikitext's when none is named); undefined for a model no extractor reads.
 *
 * @example extractorFor('wikibase-item')?.models // ['wikibase-item']
 */
export function extractorFor(model: string | null | undefined): FactExtractor | undefined {
  return byModel.get(model ?? DEFAULT_CONTENT_MODEL);
}

/** Each extractor's one `prepare`, shared by every caller; one that failed is dropped, so a later call tries again. */
const prepared = new Map<FactExtractor, Promise<void>>();

function preparedOnce(extractor: FactExtractor): Promise<void> {
  let ready = prepared.get(extractor);
  if (!ready) {
    ready = extractor.prepare?.() ?? Promise.resolve();
    prepared.set(extractor, ready);
    ready.catch(() => prepared.delete(extractor));
  }
  return ready;
}

/**
 * Readies the extractors of these content models (loads their libraries), each once per process; call before extracting.
 *
 * @param models - the content models about to be read (null or undefined: wikitext); unknown ones are ignored
 * @throws what an extractor's `prepare` throws (a library that does not load); a later call tries it again
 * @example await prepareExtractors(revisions.map((revision) => revision.model));
 */
export async function prepareExtractors(models: Iterable<string | null | undefined>): Promise<void> {
  const extractors = new Set([...models].flatMap((model) => extractorFor(model) ?? []));
  await Promise.all([...extractors].map(preparedOnce));
}

/**
 * A revision's facts by its content model; a model no extractor reads (CSS, JavaScript, plain JSON) has none.
 *
 * @param text - the revision's content
 * @param model - its content model as the source reports it (null or undefined: wikitext)
 * @param options - whether to give the first paragraph too
 * @returns the fact sets (infoboxes, or an entity's statements), the first paragraph, and an entity's names and timed facts
 * @throws Error when the model's extractor was not prepared (`prepareExtractors` first): a caller's bug; bad content gives no facts instead
 * @example extractFacts('{{Infobox city|population=3644826}}\nBerlin is…', 'wikitext', { firstParagraph: true }).infoboxes[0]?.fields // [['population', '3644826']]
 */
export function extractFacts(text: string, model: string | null | undefined, options: ExtractOptions): ParsedRevision {
  return extractorFor(model)?.extract(text, options) ?? noFacts();
}
