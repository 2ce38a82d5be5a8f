/**
 * Sentence labels (`audit create --of labels`): is the label the labeler gave a new sentence the
 * right one? Shown with both paragraphs side by side; a `new` label with the old article's closest
 * sentences and the whole old article to search, since it claims that no old sentence said it.
 */
import { z } from 'zod';
import { UserError } from '../../errors.js';
import type { StoredLabel } from '../../model/labels.js';
import { cosine, textHash } from '../../models/embedder.js';
import type { Store } from '../../store/store.js';
import { contentWords, wordOverlap } from '../../text/tokens.js';
import { closestSentences, ClosestSentencesSchema, paragraphsHolding, paragraphsNumbered, type ClosestSentences } from '../freeze.js';
import { highlight, wordDiff } from '../highlight.js';
import { html, type Html } from '../html.js';
import type { AuditItemKind, KindCandidate } from './kind.js';

/** The sentence labels an annotator may give as the right one. */
const LABELS = ['unchanged', 'changed', 'new', 'undecided'] as const;

export const LabelContentSchema = z.object({
  kind: z.literal('label'),
  title: z.string(),
  pageId: z.number().int(),
  oldSnapshot: z.string(),
  newSnapshot: z.string(),
  /** The new sentence judged. */
  sentence: z.string(),
  label: z.enum(LABELS),
  /** The old sentences it was matched with (may be none). */
  matchedOld: z.array(z.string()),
  /** The paragraphs around them, side by side. */
  oldParagraph: z.string(),
  newParagraph: z.string(),
  similarity: z.number().nullable(),
  /** The labeler's evidence text. */
  evidence: z.string().nullable(),
  /** A `new` label: what the old article said nearest to it (frozen since it was kept; older items lack it). */
  closestOld: ClosestSentencesSchema.optional(),
  /** A `new` label: the old article's sentences to search, null when the article is new. */
  oldArticle: z.array(z.string()).nullable().optional(),
});
export type LabelContent = z.infer<typeof LabelContentSchema>;

const LabelParams = z.object({ old: z.string(), new: z.string() });
type LabelParams = z.infer<typeof LabelParams>;

export const labelKind: AuditItemKind<LabelContent, LabelParams> = {
  name: 'label',
  source: 'labels',
  noun: 'sentence labels',
  content: LabelContentSchema,
  params: LabelParams,
  flags: {
    old: { flags: '--old <snapshot>', description: '--of labels: the old snapshot' },
    new: { flags: '--new <snapshot>', description: '--of labels: the new snapshot' },
  },
  paramsFromFlags: (flags, need) => ({ old: need(flags.old, '--old'), new: need(flags.new, '--new') }),
  describe: (params) => `the sentence labels of ${params.old} → ${params.new}`,
  candidates: (store, params) => labelCandidates(store, params.old, params.new),
  claim: (content) => `Is "${content.label}" the right label for the new sentence?`,
  section: labelView,
  guidelines: {
    heading: 'Labels',
    examples: [
      { term: 'unchanged', meaning: 'the new sentence says the same as a matched old sentence (wording may differ).', example: 'Old "The bridge opened in 1932." → new "The bridge was opened in 1932."' },
      { term: 'changed', meaning: 'a matched old sentence says something the new one contradicts or updates.', example: 'Old "Its population is 9,800." → new "Its population is 11,200."' },
      { term: 'new', meaning: 'no old sentence carries this information.', example: 'New "In 2021 the station was electrified." with no old sentence about electrification.' },
      { term: 'undecided', meaning: 'the labeler could not tell; judge it correct only if it truly cannot be told from the text.', example: 'Old "He played for the club." → new "He played for the club until 2020." (an addition, or a change?)' },
    ],
  },
  keys: [{ keys: ['/'], does: 'search the old article (items labeled new)' }],
  choices: (content) => ({ labels: LABELS, proposed: content.label }),
};

/**
 * The new snapshot's sentence labels in articles the old one holds too (deleted old sentences have no
 * new sentence to judge, a new article's sentences no old one to be judged against); stratum: the label.
 */
function labelCandidates(store: Store, oldName: string, newName: string): Array<KindCandidate<LabelContent>> {
  const snapshots = store.snapshots;
  // A pair given backwards has no labels, and `label` refuses it too: say so rather than send the user there.
  snapshots.requireEarlier(oldName, newName);
  const growover = store.growover;
  const pairs = new Map(growover.labeledPairs(oldName, newName).map((pair) => [pair.title, pair]));
  const candidates: Array<KindCandidate<LabelContent>> = [];
  let inNewArticles = 0;
  for (const stored of snapshots.labels(oldName, newName)) {
    const pair = pairs.get(stored.title);
    const label = stored.label;
    if (stored.side !== 'new' || label === 'deleted' || pair === undefined) continue;
    // A sentence of an article the old snapshot lacks is new by definition: the labeler decided
    // nothing, and such sentences, a new article's every one, would fill the `new` stratum.
    const oldPageId = pair.oldPageId;
    if (oldPageId === null) {
      inNewArticles++;
      continue;
    }
    candidates.push({
      key: `${pair.newPageId}:${stored.index}`,
      stratum: label,
      freeze: () => {
        const newSentences = growover.sentences(newName, pair.newPageId);
        const oldSentences = growover.sentences(oldName, oldPageId);
        const paragraph = newSentences.find((sentence) => sentence.index === stored.index)?.paragraph ?? 0;
        const oldTexts = oldSentences.map((sentence) => sentence.text);
        return {
          kind: 'label',
          title: stored.title,
          pageId: pair.newPageId,
          oldSnapshot: oldName,
          newSnapshot: newName,
          sentence: stored.text,
          label,
          matchedOld: stored.oldIndices.map((index) => oldSentences.find((sentence) => sentence.index === index)?.text ?? ''),
          oldParagraph:
            stored.oldIndices.length > 0 ? paragraphsHolding(oldSentences, stored.oldIndices) : paragraphsNumbered(oldSentences, new Set([paragraph])),
          newParagraph: paragraphsNumbered(newSentences, new Set([paragraph])),
          similarity: stored.similarity,
          evidence: stored.evidence,
          // A `new` label claims that no old sentence said it: the judge sees the nearest ones and can search the rest.
          ...(label === 'new' && { oldArticle: oldTexts, closestOld: closestOld(store, stored, oldTexts) }),
        };
      },
    });
  }
  if (candidates.length === 0 && inNewArticles > 0) {
    throw new UserError('E_NOTHING_TO_AUDIT', `the ${inNewArticles} labeled sentences of ${oldName} → ${newName} are all in articles ${oldName} lacks: new by definition, nothing to judge`);
  }
  if (candidates.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `no sentence labels for snapshots ${oldName} → ${newName}: run wikidelta label --old ${oldName} --new ${newName} first`);
  return candidates;
}

/**
 * The old sentences closest to a new one by what the labeler computed: the cosine of its
 * embedder's vectors, read from the store's embedding cache, where it compared the sentence with a
 * model; else (it found no old sentence sharing enough words to ask one) the share of content
 * words in common, its own test.
 */
function closestOld(store: Store, stored: StoredLabel, oldTexts: readonly string[]): ClosestSentences {
  const embedder = stored.step === 'nli' || stored.step === 'llm' ? stored.backend.split('+')[0] : undefined;
  if (embedder !== undefined) {
    const hashes = [stored.text, ...oldTexts].map(textHash);
    const vectors = store.embeddings.load(embedder, hashes);
    const own = vectors.get(hashes[0] as string);
    const scored = oldTexts.flatMap((text, i) => {
      const vector = vectors.get(hashes[i + 1] as string);
      return own && vector ? [{ text, similarity: cosine(own, vector) }] : [];
    });
    if (scored.length > 0) return { measure: 'cosine', embedder, sentences: closestSentences(scored) };
  }
  const words = contentWords(stored.text);
  return { measure: 'words', embedder: null, sentences: closestSentences(oldTexts.map((text) => ({ text, similarity: wordOverlap(words, contentWords(text)) }))) };
}

function labelView(item: LabelContent): Html {
  const similarity = item.similarity === null ? '' : ` · similarity ${item.similarity.toFixed(2)}`;
  return html`<section class="item item-label">
  <h2><span class="title">${item.title}</span> <small>page ${item.pageId} · ${item.oldSnapshot} → ${item.newSnapshot}</small></h2>
  <p class="proposed">Proposed label: <strong class="label label-${item.label}">${item.label}</strong>${similarity}</p>
  <div class="sentence"><span class="caption">New sentence</span><p>${item.sentence}</p></div>
  ${item.label === 'new' ? oldArticleView(item) : ''}
  <div class="columns">
    <div class="column"><span class="caption">Old paragraph (${item.oldSnapshot})${item.matchedOld.length === 0 ? ' · no matched sentence' : ''}</span><p>${item.oldParagraph === '' ? html`<span class="na">no paragraph at this place in the old article</span>` : highlight(item.oldParagraph, item.matchedOld, 'old')}</p></div>
    <div class="column"><span class="caption">New paragraph (${item.newSnapshot})</span><p>${highlight(item.newParagraph, [item.sentence], 'new')}</p></div>
  </div>
  ${item.matchedOld.length === 0 ? '' : html`<div class="diff"><span class="caption">Word diff: matched old sentence${item.matchedOld.length === 1 ? '' : 's'} → new sentence</span><p>${wordDiff(item.matchedOld.join(' '), item.sentence)}</p></div>`}
  ${item.evidence === null ? '' : html`<div class="evidence"><span class="caption">Labeler's evidence</span><p>${item.evidence}</p></div>`}
</section>`;
}

/**
 * What a judge of a `new` label needs to confirm that no old sentence said it: the old article's
 * closest sentences as the labeler measured them, and the whole old article with a search box
 * (annotator.js filters it; without script every sentence stays listed).
 */
function oldArticleView(item: LabelContent): Html {
  if (item.oldArticle === undefined) return html``;
  if (item.oldArticle === null) return html`<div class="old-article"><span class="caption">Old article (${item.oldSnapshot})</span><p class="na">The article did not exist in ${item.oldSnapshot}: no old sentence can have said it.</p></div>`;
  const closest = item.closestOld;
  const measure = closest?.measure === 'cosine' ? `cosine of the ${closest.embedder ?? 'embedder'} vectors the labeler compared` : 'share of content words in common, the labeler\'s first test';
  return html`<div class="closest" id="closest"><span class="caption">Closest old sentences (${item.oldSnapshot}) · by ${measure}</span>
  ${!closest || closest.sentences.length === 0
    ? html`<p class="na">No old sentence shares a content word with it.</p>`
    : html`<ol class="closest-sentences">${closest.sentences.map((sentence) => html`<li><span class="score">${sentence.similarity.toFixed(2)}</span> ${sentence.text}</li>`)}</ol>`}
  </div>
  <div class="old-article"><label class="caption" for="old-search">Search the old article (${item.oldArticle.length} sentences) <kbd>/</kbd></label>
  <input type="search" id="old-search" placeholder="words of the new sentence, a name, a number…" autocomplete="off">
  <p id="old-search-count" class="na" role="status"></p>
  <ol class="old-sentences scroll" id="old-sentences">${item.oldArticle.map((sentence) => html`<li>${sentence}</li>`)}</ol></div>`;
}
