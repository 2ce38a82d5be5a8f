/**
 * Labels every sentence of a new article version against the old one (docs/ARCHITECTURE.md §7.3):
 *
 * 1. exact anchors: equal normalised hashes aligned in order; then sentences whose text moved
 *    elsewhere in the article (equal hash, out of order). No model call.
 * 2. in each gap between anchors: same content words (model-free); new sentences sharing almost no
 *    word with any old one of the gap are new without a model call; then embedding near-duplicates
 *    (cosine ≥ the embedder's "same" threshold, mutual best match, same facts: src/text/facts.ts), then spans of up to 5
 *    sentences on either side (splits and merges) around each sentence's best match, so the work
 *    stays linear in the gap size (at most 20 span comparisons per sentence) instead of GrowOVER's
 *    power sets.
 * 3. NLI on what remains of the gap (premise old, hypothesis new): entailed by any with the same
 *    facts → unchanged; contradicted (both directions, or entailed with a fact changed) by one with
 *    similarity above 0.6 → changed; all neutral and max similarity below 0.7 → new; else undecided.
 *    A pair whose facts differ is never unchanged, whichever step looks at it.
 * 3b. the optional judge (an LLM, GrowOVER's GPT-4 step) has the last word on every changed and
 *    undecided sentence with a counterpart: same, changed or new, with its reason kept as evidence.
 * 4. new sentences of gaps with no old sentence (the far side of a moved paragraph) go through 2
 *    and 3 against every old sentence still unclaimed; old sentences left over → deleted.
 *
 * Similarities are never rounded and texts are never truncated here (docs/ARCHITECTURE.md §12).
 */
import { CachingEmbedder, cosine, type EmbedTally, type Embedder } from '../models/embedder.js';
import { nliLabel, type NliModel } from '../models/nli.js';
import { alignInOrder } from './align.js';
import { sentenceHash } from '../text/normalise.js';
import { describeFactDifference, factDifference, rememberFacts, sameFacts, unreadFacts, type FactReader } from '../text/facts.js';
import { contentKey, contentWords, wordOverlap } from '../text/tokens.js';
import type { ArticleLabels, LabelStep, NliScores, SentenceChangeJudge, SentenceLabel, SentenceLabelName } from '../model/labels.js';

/** Where the labeler draws its lines; `DEFAULT_THRESHOLDS` holds GrowOVER's. */
export interface LabelThresholds {
  /** Overrides the embedder's own "same" threshold (rarely wanted: it is calibrated per embedder). */
  same?: number;
  /** A contradiction counts only above this similarity (GrowOVER's τ = 0.6). */
  changedMinSimilarity: number;
  /** A sentence is new only when every old one is below this similarity (GrowOVER's τ = 0.7). */
  newMaxSimilarity: number;
  /** Longest span of sentences compared as one text on either side. */
  maxSpan: number;
  /**
   * Pairs less similar than this are taken as neutral without an NLI call: a sentence that shares
   * this little with another neither restates nor updates it.
   */
  nliMinSimilarity: number;
  /**
   * A new sentence goes to the models only if it shares at least this share of content words (of
   * the shorter sentence) with some old sentence of its gap; below it, it is new without a model call.
   */
  lexicalMinOverlap: number;
}

/** GrowOVER's thresholds, and the spans and shortcuts that keep the labeler linear in an article's length. */
export const DEFAULT_THRESHOLDS: LabelThresholds = {
  changedMinSimilarity: 0.6,
  newMaxSimilarity: 0.7,
  maxSpan: 5,
  nliMinSimilarity: 0.5,
  lexicalMinOverlap: 0.25,
};

/** The models the labeler asks, and thresholds overriding `DEFAULT_THRESHOLDS`. */
export interface LabelerModels {
  /** Wrapped in a CachingEmbedder unless it is one (pass one to share its cache across articles). */
  embedder: Embedder;
  /** Absent: facts are read in this thread when a comparison first needs them. */
  factReader?: FactReader;
  nli: NliModel;
  /** The last say on changed and undecided sentences (src/llm/labelTasks.ts); absent: the models' labels stand, and say so. */
  judge?: SentenceChangeJudge;
  thresholds?: Partial<LabelThresholds>;
}

/**
 * Labels each sentence of an article's new version against its old one by the steps above:
 * unchanged, changed, new or undecided, with the old sentences it matched and why; old sentences no
 * new one continues are deleted.
 *
 * @param oldSentences - the old version's sentences, in order
 * @param newSentences - the new version's sentences, in order
 * @param models - the embedder, the NLI model, optionally a fact reader and an LLM judge, and thresholds
 * @returns a label per new sentence (by index), the deleted old indices, and the model work done
 * @throws what a model throws (a judge whose server failed past the retries: RemoteError)
 * @example
 * const labels = await labelArticle(['Berlin has 3.6 million inhabitants.'], ['Berlin has 3.8 million inhabitants.'],
 *   { embedder: new CachingEmbedder(new UseLiteEmbedder()), nli: new HeuristicNli() });
 * labels.sentences[0]?.label // 'changed'
 */
export async function labelArticle(oldSentences: readonly string[], newSentences: readonly string[], models: LabelerModels): Promise<ArticleLabels> {
  const labeler = new ArticleLabeler(oldSentences, newSentences, models);
  return labeler.run();
}

/**
 * Every sentence of an article that did not exist before is new; no comparison is needed.
 *
 * @example labelNewArticle(['A.', 'B.']).sentences.map((sentence) => sentence.label) // ['new', 'new']
 */
export function labelNewArticle(newSentences: readonly string[]): ArticleLabels {
  return {
    sentences: newSentences.map((_, newIndex) => ({
      newIndex,
      label: 'new',
      oldIndices: [],
      similarity: null,
      nli: null,
      step: 'new-article',
      backend: 'none',
      evidence: null,
    })),
    deleted: [],
    work: { embedded: 0, nliPairs: 0 },
  };
}

interface Gap {
  old: number[];
  new: number[];
}

/** Cosine by new sentence, then by old sentence, within one gap. */
type Similarity = Map<number, Map<number, number>>;

interface SpanPair {
  oldSpan: number[];
  newSpan: number[];
}

class ArticleLabeler {
  private readonly labels = new Map<number, SentenceLabel>();
  private readonly usedOld = new Set<number>();
  private readonly thresholds: LabelThresholds;
  private readonly same: number;
  private nliPairs = 0;
  /** What this article's calls sent to the model: the embedder may be shared by articles labeled at the same time. */
  private readonly tally: EmbedTally = { embedded: 0 };
  private readonly embedder: CachingEmbedder;

  constructor(
    private readonly oldSentences: readonly string[],
    private readonly newSentences: readonly string[],
    private readonly models: LabelerModels,
  ) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...models.thresholds };
    this.embedder = models.embedder instanceof CachingEmbedder ? models.embedder : new CachingEmbedder(models.embedder);
    this.same = this.thresholds.same ?? models.embedder.sameThreshold;
  }

  async run(): Promise<ArticleLabels> {
    // Most sentences are on both sides: each distinct text is normalised and hashed once.
    const hashes = new Map<string, string>();
    const hashOf = (text: string) => hashes.get(text) ?? hashes.set(text, sentenceHash(text)).get(text) as string;
    const oldHashes = this.oldSentences.map(hashOf);
    const newHashes = this.newSentences.map(hashOf);
    const anchors = alignInOrder(oldHashes, newHashes);
    for (const [i, j] of anchors) this.resolve(j, 'unchanged', [i], { similarity: 1, step: 'exact', backend: 'hash' });
    this.matchMoved(oldHashes, newHashes);
    // A gap with nothing on the old side is usually the far end of a moved block: its new sentences
    // are compared, in one last gap, with every old sentence still unclaimed anywhere.
    const gaps = this.gaps(anchors);
    await this.labelGaps(gaps.filter((gap) => gap.old.length > 0));
    const deferred = gaps.filter((gap) => gap.old.length === 0).flatMap((gap) => gap.new);
    await this.labelGaps([{ old: this.oldSentences.map((_, i) => i).filter((i) => !this.usedOld.has(i)), new: deferred }]);
    const deleted = this.oldSentences.map((_, i) => i).filter((i) => !this.usedOld.has(i));
    const sentences = this.newSentences.map((_, j) => this.labels.get(j) as SentenceLabel);
    return { sentences, deleted, work: { embedded: this.tally.embedded, nliPairs: this.nliPairs } };
  }

  /** A paragraph moved elsewhere keeps its text: equal hashes out of order, each old sentence used once. */
  private matchMoved(oldHashes: string[], newHashes: string[]): void {
    const unusedOldByHash = new Map<string, number[]>();
    oldHashes.forEach((hash, i) => {
      if (!this.usedOld.has(i)) unusedOldByHash.set(hash, [...(unusedOldByHash.get(hash) ?? []), i]);
    });
    newHashes.forEach((hash, j) => {
      if (this.labels.has(j)) return;
      const i = unusedOldByHash.get(hash)?.shift();
      if (i !== undefined) this.resolve(j, 'unchanged', [i], { similarity: 1, step: 'moved', backend: 'hash' });
    });
  }

  /** The unresolved sentences between consecutive in-order anchors (and before the first, after the last). */
  private gaps(anchors: Array<[number, number]>): Gap[] {
    const bounds: Array<[number, number]> = [[-1, -1], ...anchors, [this.oldSentences.length, this.newSentences.length]];
    const gaps: Gap[] = [];
    for (let k = 1; k < bounds.length; k++) {
      const [oldFrom, newFrom] = bounds[k - 1] as [number, number];
      const [oldTo, newTo] = bounds[k] as [number, number];
      gaps.push({
        old: range(oldFrom + 1, oldTo).filter((i) => !this.usedOld.has(i)),
        new: range(newFrom + 1, newTo).filter((j) => !this.labels.has(j)),
      });
    }
    return gaps.filter((gap) => gap.new.length > 0 || gap.old.length > 0);
  }

  /**
   * Each step runs over all gaps before the next, so that the embedder sees a few large batches per
   * article instead of one small call per gap (a call costs about 0.2 s of overhead with USE Lite).
   */
  private async labelGaps(gaps: Gap[]): Promise<void> {
    for (const gap of gaps) {
      if (gap.old.length === 0) for (const j of gap.new) this.resolve(j, 'new', [], { similarity: null, step: 'no-counterpart', backend: 'hash' });
      else this.matchSameContent(gap);
    }
    const open = gaps.map((gap) => this.lexicalCandidates(gap)).filter((gap) => this.pendingNew(gap).length > 0);
    if (open.length === 0) return;
    const texts = open.flatMap((gap) => [...this.freeOld(gap).map((i) => this.oldSentences[i] as string), ...this.pendingNew(gap).map((j) => this.newSentences[j] as string)]);
    // The comparisons below need these sentences' facts: read elsewhere while they are embedded.
    await Promise.all([this.embed(texts), this.readFactsAhead(texts)]);
    const similarities = await Promise.all(open.map((gap) => this.similarities(gap)));
    open.forEach((gap, k) => this.matchNearDuplicates(gap, similarities[k] as Similarity));
    await this.embed(open.flatMap((gap, k) => this.spanCandidates(gap, similarities[k] as Similarity).flatMap((pair) => [this.oldText(pair.oldSpan), this.newText(pair.newSpan)])));
    for (const [k, gap] of open.entries()) await this.matchSpans(gap, similarities[k] as Similarity);
    for (const [k, gap] of open.entries()) await this.inferRest(gap, similarities[k] as Similarity);
  }

  /**
   * The part of a gap worth a model: new sentences sharing at least `lexicalMinOverlap` of their
   * content words with some old sentence of the gap, and those old sentences. A new sentence that
   * shares (almost) no word with any old one is new without asking a model; an old one that no new
   * sentence resembles is left to be deleted.
   */
  private lexicalCandidates(gap: Gap): Gap {
    const olds = this.freeOld(gap).map((i) => ({ i, words: contentWords(this.oldSentences[i] as string) }));
    const keptOld = new Set<number>();
    const keptNew: number[] = [];
    for (const j of this.pendingNew(gap)) {
      const words = contentWords(this.newSentences[j] as string);
      const close = olds.filter((old) => wordOverlap(words, old.words) >= this.thresholds.lexicalMinOverlap);
      if (close.length === 0) {
        this.resolve(j, 'new', [], { similarity: null, step: 'no-counterpart', backend: 'lexical' });
        continue;
      }
      keptNew.push(j);
      for (const old of close) keptOld.add(old.i);
    }
    return { old: gap.old.filter((i) => keptOld.has(i)), new: keptNew };
  }

  /** Same content words in the same order, singly or as spans: re-punctuated or split text, no model needed. */
  private matchSameContent(gap: Gap): void {
    const oldSpansByKey = new Map<string, number[]>();
    for (const oldSpan of runsIn(this.freeOld(gap), this.thresholds.maxSpan)) {
      const key = contentKey(oldSpan.map((i) => this.oldSentences[i] as string));
      if (key !== null && !oldSpansByKey.has(key)) oldSpansByKey.set(key, oldSpan);
    }
    for (const j of gap.new) {
      if (this.labels.has(j)) continue;
      for (const newSpan of runsFrom(this.pendingNew(gap), j, this.thresholds.maxSpan)) {
        const key = contentKey(newSpan.map((j) => this.newSentences[j] as string));
        const oldSpan = key === null ? undefined : oldSpansByKey.get(key);
        if (oldSpan && oldSpan.every((i) => !this.usedOld.has(i)) && sameFacts(oldSpan.map((i) => this.oldSentences[i] as string), newSpan.map((i) => this.newSentences[i] as string))) {
          this.resolveSpan(newSpan, oldSpan, { similarity: null, step: 'lexical', backend: 'lexical' });
          break;
        }
      }
    }
  }

  /** Cosine of every remaining new sentence of the gap with every remaining old one. */
  private async similarities(gap: Gap): Promise<Similarity> {
    const olds = this.freeOld(gap);
    const news = this.pendingNew(gap);
    const vectors = await this.embed([...olds.map((i) => this.oldSentences[i] as string), ...news.map((j) => this.newSentences[j] as string)]);
    const matrix: Similarity = new Map();
    news.forEach((j, b) => {
      const row = new Map<number, number>();
      olds.forEach((i, a) => row.set(i, cosine(vectors[a] as Float32Array, vectors[olds.length + b] as Float32Array)));
      matrix.set(j, row);
    });
    return matrix;
  }

  private matchNearDuplicates(gap: Gap, similarity: Similarity): void {
    const bestNew = bestNewByOld(similarity);
    for (const j of this.pendingNew(gap)) {
      const best = argMax(similarity.get(j) as Map<number, number>);
      if (!best || best.value < this.same || this.usedOld.has(best.key) || bestNew.get(best.key) !== j) continue;
      if (!sameFacts([this.oldSentences[best.key] as string], [this.newSentences[j] as string])) continue;
      this.resolve(j, 'unchanged', [best.key], { similarity: best.value, step: 'near-duplicate', backend: this.embedder.id });
    }
  }

  /**
   * Splits and merges: the new sentence and the spans starting at it against the old spans that
   * contain its best single match, one side a single sentence (at most maxSpan + maxSpan·(maxSpan+1)/2
   * comparisons per new sentence). A sentence whose best match is below the "new" similarity
   * is no part of a split or merge and costs nothing here.
   */
  private async matchSpans(gap: Gap, similarity: Similarity): Promise<void> {
    for (const j of this.pendingNew(gap)) {
      if (this.labels.has(j)) continue;
      const pairs = this.spanPairsFor(gap, j, similarity);
      if (pairs.length === 0) continue;
      const texts = pairs.flatMap((pair) => [this.oldText(pair.oldSpan), this.newText(pair.newSpan)]);
      const vectors = await this.embed(texts);
      let chosen: { pair: SpanPair; value: number } | null = null;
      pairs.forEach((pair, k) => {
        const value = cosine(vectors[2 * k] as Float32Array, vectors[2 * k + 1] as Float32Array);
        if (value >= this.same && (!chosen || value > chosen.value)) chosen = { pair, value };
      });
      const match = chosen as { pair: SpanPair; value: number } | null;
      if (match) this.resolveSpan(match.pair.newSpan, match.pair.oldSpan, { similarity: match.value, step: 'span', backend: this.embedder.id });
    }
  }

  /** The span pairs matchSpans will compare in this gap as it stands, to embed them in one batch beforehand. */
  private spanCandidates(gap: Gap, similarity: Similarity): SpanPair[] {
    return this.pendingNew(gap).flatMap((j) => this.spanPairsFor(gap, j, similarity));
  }

  /**
   * No spans for a sentence whose best single match is below the "new" similarity: it is no part of
   * a split or merge. A pair whose facts differ can never match, so it is not worth embedding.
   */
  private spanPairsFor(gap: Gap, j: number, similarity: Similarity): SpanPair[] {
    const best = argMax(new Map([...(similarity.get(j) as Map<number, number>)].filter(([i]) => !this.usedOld.has(i))));
    if (!best || best.value < this.thresholds.newMaxSimilarity) return [];
    return this.spanPairs(gap, j, this.freeOld(gap), best.key).filter((pair) =>
      sameFacts(
        pair.oldSpan.map((i) => this.oldSentences[i] as string),
        pair.newSpan.map((i) => this.newSentences[i] as string),
      ),
    );
  }

  private async inferRest(gap: Gap, similarity: Similarity): Promise<void> {
    const news = this.pendingNew(gap);
    const olds = this.freeOld(gap);
    if (news.length === 0) return;
    const candidates = news.flatMap((j) =>
      olds.filter((i) => (similarity.get(j)?.get(i) ?? 0) >= this.thresholds.nliMinSimilarity).map((i) => ({ i, j })),
    );
    const forward = await this.classify(candidates.map(({ i, j }) => ({ premise: this.oldSentences[i] as string, hypothesis: this.newSentences[j] as string })));
    const scoresOf = new Map(candidates.map((pair, k) => [`${pair.i}:${pair.j}`, forward[k] as NliScores]));
    const nliBackend = `${this.embedder.id}+${this.models.nli.id}`;
    for (const j of news) {
      const row = similarity.get(j) as Map<number, number>;
      const judged = olds
        .filter((i) => scoresOf.has(`${i}:${j}`))
        .map((i) => ({ i, scores: scoresOf.get(`${i}:${j}`) as NliScores, similarity: row.get(i) ?? 0, factsEqual: sameFacts([this.oldSentences[i] as string], [this.newSentences[j] as string]) }));
      const entailing = judged.filter((x) => x.factsEqual && nliLabel(x.scores) === 'entailment').sort((a, b) => b.scores.entailment - a.scores.entailment)[0];
      if (entailing) {
        this.resolve(j, 'unchanged', [entailing.i], { similarity: entailing.similarity, nli: entailing.scores, step: 'nli', backend: nliBackend });
        continue;
      }
      // A model's entailment across a changed fact is an update it did not notice (docs/ARCHITECTURE.md §7.3).
      const contradicting = judged.filter((x) => nliLabel(x.scores) === 'contradiction' || (!x.factsEqual && nliLabel(x.scores) === 'entailment'));
      const candidate = contradicting
        .filter((x) => x.similarity > this.thresholds.changedMinSimilarity)
        .sort((a, b) => b.scores.contradiction - a.scores.contradiction)[0];
      if (candidate && (!candidate.factsEqual || (await this.contradictsBackwards(candidate.i, j)))) {
        await this.decide(j, 'changed', candidate.i, { similarity: candidate.similarity, nli: candidate.scores, backend: nliBackend });
        continue;
      }
      const closest = argMax(row);
      const isNew = contradicting.length === 0 && (closest?.value ?? -1) < this.thresholds.newMaxSimilarity;
      const how = { similarity: closest?.value ?? null, nli: (closest && scoresOf.get(`${closest.key}:${j}`)) ?? null, backend: nliBackend };
      if (isNew || !closest) this.resolve(j, 'new', [], { ...how, step: 'nli' });
      else await this.decide(j, 'undecided', closest.key, how);
    }
  }

  /**
   * A changed or undecided sentence with its counterpart goes to the judge when there is one: "same"
   * makes it unchanged (unless a fact differs: then it stays undecided), "changed" changed, "new"
   * new. Without a judge, or when it fails, the models' label stands and the evidence says so.
   */
  private async decide(j: number, modelsLabel: 'changed' | 'undecided', i: number, how: { similarity: number | null; nli: NliScores | null; backend: string }): Promise<void> {
    const oldText = this.oldSentences[i] as string;
    const newText = this.newSentences[j] as string;
    const facts = describeFactDifference(factDifference(oldText, newText));
    const withFacts = (text: string) => (facts ? `${text}; ${facts}` : text);
    const keep = (evidence: string) =>
      this.resolve(j, modelsLabel, [i], { ...how, step: 'nli', evidence: withFacts(evidence), keepOldFree: modelsLabel === 'undecided' });
    const judge = this.models.judge;
    if (!judge) {
      keep(`no LLM step: the NLI label (${modelsLabel}) kept`);
      return;
    }
    const outcome = await judge.judgeSentenceChange({ oldSentence: oldText, newSentence: newText, facts });
    const judgeId = `${judge.provider}:${judge.model}`;
    const prompt = `${outcome.prompt.name}@${outcome.prompt.version}`;
    if (!outcome.ok) {
      keep(`${judgeId} ${prompt} gave no verdict (${outcome.reason}): the NLI label (${modelsLabel}) kept`);
      return;
    }
    const { verdict, reason } = outcome.value;
    if (verdict === 'keep') {
      keep(`${reason}: the NLI label (${modelsLabel}) kept`);
      return;
    }
    const label: SentenceLabelName = verdict === 'changed' ? 'changed' : verdict === 'new' ? 'new' : facts ? 'undecided' : 'unchanged';
    const evidence = withFacts(`${judgeId} ${prompt}: ${verdict}: ${reason}${label === 'undecided' ? ' (kept undecided: a fact differs)' : ''}`);
    this.resolve(j, label, label === 'new' ? [] : [i], { ...how, step: 'llm', backend: `${how.backend}+${judgeId}`, evidence, keepOldFree: label === 'undecided' || label === 'new' });
  }

  /** GrowOVER checks contradiction one way; the reverse pair must agree, so an NLI asymmetry alone changes nothing. */
  private async contradictsBackwards(i: number, j: number): Promise<boolean> {
    const [scores] = await this.classify([{ premise: this.newSentences[j] as string, hypothesis: this.oldSentences[i] as string }]);
    return scores !== undefined && nliLabel(scores) === 'contradiction';
  }

  private async readFactsAhead(texts: readonly string[]): Promise<void> {
    const reader = this.models.factReader;
    if (!reader) return;
    const unread = unreadFacts(texts);
    if (unread.length > 0) rememberFacts(unread, await reader.readFacts(unread));
  }

  private embed(texts: string[]): Promise<Float32Array[]> {
    return this.embedder.embed(texts, this.tally);
  }

  private async classify(pairs: Array<{ premise: string; hypothesis: string }>): Promise<NliScores[]> {
    if (pairs.length === 0) return [];
    this.nliPairs += pairs.length;
    return this.models.nli.classify(pairs);
  }

  /**
   * Span pairs for new sentence j: a split (old sentence `around` against new spans starting at j)
   * or a merge (new sentence j against old spans containing `around`), spans up to maxSpan long.
   */
  private spanPairs(gap: Gap, j: number, freeOld: number[], around: number): SpanPair[] {
    const max = this.thresholds.maxSpan;
    const splits = runsFrom(this.pendingNew(gap), j, max).map((newSpan) => ({ oldSpan: [around], newSpan }));
    const merges = runsAround(freeOld, around, max).map((oldSpan) => ({ oldSpan, newSpan: [j] }));
    return [...splits, ...merges].filter((pair) => pair.oldSpan.length > 1 || pair.newSpan.length > 1);
  }

  private resolveSpan(newSpan: number[], oldSpan: number[], how: { similarity: number | null; step: LabelStep; backend: string }): void {
    for (const j of newSpan) this.resolve(j, 'unchanged', oldSpan, how);
  }

  private resolve(
    j: number,
    label: SentenceLabelName,
    oldIndices: number[],
    how: { similarity: number | null; nli?: NliScores | null; step: LabelStep; backend: string; evidence?: string; keepOldFree?: boolean },
  ): void {
    this.labels.set(j, { newIndex: j, label, oldIndices, similarity: how.similarity, nli: how.nli ?? null, step: how.step, backend: how.backend, evidence: how.evidence ?? null });
    // An undecided sentence points at its closest old one for the annotator, but does not claim it.
    if (!how.keepOldFree) for (const i of oldIndices) this.usedOld.add(i);
  }

  private freeOld(gap: Gap): number[] {
    return gap.old.filter((i) => !this.usedOld.has(i));
  }

  private pendingNew(gap: Gap): number[] {
    return gap.new.filter((j) => !this.labels.has(j));
  }

  private oldText(span: number[]): string {
    return span.map((i) => this.oldSentences[i]).join(' ');
  }

  private newText(span: number[]): string {
    return span.map((j) => this.newSentences[j]).join(' ');
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}

/** Runs of consecutive indices in `indices` starting at `start`, lengths 1..max. */
function runsFrom(indices: number[], start: number, max: number): number[][] {
  const at = indices.indexOf(start);
  if (at === -1) return [];
  const runs: number[][] = [];
  for (let length = 1; length <= max && at + length <= indices.length; length++) {
    const run = indices.slice(at, at + length);
    if ((run.at(-1) as number) - start !== length - 1) break;
    runs.push(run);
  }
  return runs;
}

/** Runs of consecutive indices, lengths 1..max, that contain `point`. */
function runsAround(indices: number[], point: number, max: number): number[][] {
  const runs: number[][] = [];
  for (let first = point - max + 1; first <= point; first++) runs.push(...runsFrom(indices, first, max).filter((run) => run.includes(point)));
  return runs;
}

/** Every run of consecutive indices of lengths 1..max. */
function runsIn(indices: number[], max: number): number[][] {
  return indices.flatMap((start) => runsFrom(indices, start, max));
}

/** For each old sentence, the new sentence most similar to it (the first of equals, in row order). */
function bestNewByOld(similarity: Similarity): Map<number, number> {
  const best = new Map<number, { j: number; value: number }>();
  for (const [j, row] of similarity) {
    for (const [i, value] of row) {
      const known = best.get(i);
      if (!known || value > known.value) best.set(i, { j, value });
    }
  }
  return new Map([...best].map(([i, { j }]) => [i, j]));
}

function argMax(values: Map<number, number>): { key: number; value: number } | null {
  let best: { key: number; value: number } | null = null;
  for (const [key, value] of values) if (!best || value > best.value) best = { key, value };
  return best;
}
