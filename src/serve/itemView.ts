/**
 * One audit item as the judge sees it, by kind (docs/ARCHITECTURE.md §14): a sentence label with
 * both paragraphs side by side (a `new` one with the old article's closest sentences and the old
 * article to search), a QA item with its evidence marked in the article (a CHANGED one with the old
 * evidence beside the new), a weekly question with its change first and the infobox folded, a
 * system's prediction with the answer's dated values and the verdict a judge gave it.
 * Pure: content in, escaped markup out.
 */
import { labelledKey } from '../content/entityRefs.js';
import type { AuditItemContent } from '../model/audit.js';
import { splitSentences } from '../text/sentences.js';
import { highlight, wordDiff } from './highlight.js';
import { html, type Html } from './html.js';

type LabelContent = Extract<AuditItemContent, { kind: 'label' }>;
type QaContent = Extract<AuditItemContent, { kind: 'qa' }>;
type WeeklyContent = Extract<AuditItemContent, { kind: 'weekly' }>;
type PredictionContent = Extract<AuditItemContent, { kind: 'prediction' }>;

/** What the judge is asked to confirm, in one line above the item. */
export function claimOf(content: AuditItemContent): string {
  switch (content.kind) {
    case 'label':
      return `Is "${content.label}" the right label for the new sentence?`;
    case 'qa':
      return content.itemType === 'dialogue' ? 'Are the questions answered correctly from the article?' : 'Is the answer correct and supported by the evidence?';
    case 'weekly':
      return `Is the answer correct after the change of "${labelledKey(content.key, content.keyLabels)}" in the week of ${content.week}?`;
    case 'prediction':
      return `Is "${content.judge.verdict}" the right verdict on this reply (${content.judge.mode}: ${content.judge.mode === 'strict' ? 'every claim of the reply counts' : 'the primary answer only'})?`;
  }
}

export function itemView(content: AuditItemContent): Html {
  switch (content.kind) {
    case 'label':
      return labelView(content);
    case 'qa':
      return qaView(content);
    case 'weekly':
      return weeklyView(content);
    case 'prediction':
      return predictionView(content);
  }
}

/**
 * The question, the reply and the answer's values with their dates, the one in effect when it was
 * asked marked, then the verdict proposed: what the judge read, and nothing it did not (its reason
 * would lead the annotator).
 */
function predictionView(item: PredictionContent): Html {
  const last = item.timeline.length - 1;
  const value = (text: string | null) => (text === null || text === '' ? html`<span class="na">(no value)</span>` : html`${text}`);
  return html`<section class="item item-prediction">
  <h2><span class="title">A system's answer</span> <small>asked on ${item.date}</small></h2>
  <dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Reply</dt><dd class="answer">${item.prediction === '' ? html`<span class="na">(empty)</span>` : item.prediction}</dd>
  </dl>
  <div class="timeline"><span class="caption">The answer's values, oldest first</span>
  <table><thead><tr><th>from</th><th>until</th><th>value</th></tr></thead>
  <tbody>${item.timeline.map((step, index) => html`<tr${index === last ? html` class="changed"` : ''}><td>${step.from.slice(0, 10)}${step.seen ? '' : ' or earlier'}</td><td>${index === last ? html`<strong>in effect when asked</strong>` : (step.to ?? '').slice(0, 10)}</td><td>${value(step.value)}</td></tr>`)}</tbody></table></div>
  <p class="proposed">Verdict of the judge (${item.judge.mode}): <strong class="label label-${item.judge.verdict}">${item.judge.verdict}</strong></p>
</section>`;
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

function qaView(item: QaContent): Html {
  return html`<section class="item item-qa">
  <h2><span class="title">${item.title}</span> <small>${item.itemType} · snapshot ${item.snapshot}</small></h2>
  ${item.itemType === 'dialogue' ? dialogueTurns(item) : html`<dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Answer</dt><dd class="answer">${item.answer}</dd>
    ${item.oldAnswer === null ? '' : html`<dt>Old answer</dt><dd class="old-answer">${item.oldAnswer}</dd>`}
  </dl>`}
  ${item.itemType === 'CHANGED' && item.oldEvidence ? changedEvidence(item, item.oldEvidence) : html`<div class="evidence"><span class="caption">Evidence</span><p>${item.evidence}</p></div>`}
  <div class="article"><span class="caption">Article, evidence marked</span><div class="scroll"><p>${highlight(item.article, splitSentences(item.evidence), 'cited')}</p></div></div>
</section>`;
}

/** A CHANGED item's old wording beside the new, each answer marked, and the words that changed. */
function changedEvidence(item: QaContent, oldEvidence: string): Html {
  return html`<div class="columns evidence-pair">
    <div class="column old-evidence"><span class="caption">Old evidence${item.oldSnapshot ? ` (${item.oldSnapshot})` : ''} · old answer marked</span><p>${highlight(oldEvidence, item.oldAnswer === null ? [] : [item.oldAnswer], 'old')}</p></div>
    <div class="column new-evidence"><span class="caption">New evidence (${item.snapshot}) · answer marked</span><p>${highlight(item.evidence, [item.answer], 'new')}</p></div>
  </div>
  <div class="diff"><span class="caption">Word diff: old evidence → new evidence</span><p>${wordDiff(oldEvidence, item.evidence)}</p></div>`;
}

function dialogueTurns(item: QaContent): Html {
  const turns = item.turns.length > 0 ? item.turns : [{ question: item.question, answer: item.answer }];
  return html`<ol class="turns">${turns.map((turn) => html`<li><span class="question">${turn.question}</span><span class="answer">${turn.answer}</span></li>`)}</ol>`;
}

/**
 * The change first (key, before, after, the revisions), then the question, the answer's timeline,
 * and the rest of the infobox folded: an annotator checks one row, and the infobox in source order
 * put it hundreds of pixels down, under the verdict bar.
 */
function weeklyView(item: WeeklyContent): Html {
  const keys = [...new Set([...Object.keys(item.infoboxBefore), ...Object.keys(item.infoboxAfter)])];
  const others = keys.filter((key) => key !== item.key && item.infoboxBefore[key] !== item.infoboxAfter[key]);
  const blanks = keys.some((key) => item.infoboxBefore[key] === '' || item.infoboxAfter[key] === '');
  return html`<section class="item item-weekly">
  <h2><span class="title">${item.title}</span> <small>week of ${item.week} · ${item.domain}</small></h2>
  <div class="change" id="change"><span class="caption">The change</span>
  <table>
    <thead><tr><th>key</th><th>before</th><th>after</th></tr></thead>
    <tbody><tr class="changed"><th class="key">${keyName(item.key, item.keyLabels)}</th><td class="before">${infoboxValue(item.infoboxBefore[item.key])}</td><td class="after">${infoboxValue(item.infoboxAfter[item.key])}</td></tr></tbody>
  </table>
  ${revisionsLine(item)}</div>
  <dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Answer</dt><dd class="answer">${item.answer}</dd>
  </dl>
  <div class="timeline"><span class="caption">Timeline of the answer</span>
  <table><thead><tr><th>from</th><th>value</th></tr></thead>
  <tbody>${item.timeline.map((step) => html`<tr><td>${step.from}</td><td>${step.value}</td></tr>`)}</tbody></table></div>
  <details class="infobox" id="infobox"><summary>The whole infobox, before and after the week: ${keys.length} keys${others.length === 0 ? '' : html`; ${others.length} other${others.length === 1 ? ' differs' : 's differ'}: ${others.map((key) => labelledKey(key, item.keyLabels)).join(', ')}`}</summary>
  <table>
    <thead><tr><th>key</th><th>before</th><th>after</th></tr></thead>
    <tbody>${keys.map((key) => {
      const before = item.infoboxBefore[key];
      const after = item.infoboxAfter[key];
      const rowClass = key === item.key ? 'changed' : before !== after ? 'differs' : '';
      return html`<tr class="${rowClass}"><th class="key">${keyName(key, item.keyLabels)}</th><td>${infoboxValue(before)}</td><td>${infoboxValue(after)}</td></tr>`;
    })}</tbody>
  </table>
  ${blanks ? html`<p class="na blank-note">(blank): the parser gave no text for the value, as for a template it does not render such as {{film date|…}}; the revisions above show the wikitext.</p>` : ''}</details>
  <div class="first-paragraph"><span class="caption">First paragraph</span><p>${item.firstParagraph}</p></div>
</section>`;
}

/** A key that breaks only after its underscores, never inside a word; a property with its label. */
function keyName(key: string, keyLabels: Readonly<Record<string, string>> | undefined): Html {
  return html`${labelledKey(key, keyLabels).split('_').map((part, index) => html`${index > 0 ? html`_<wbr>` : ''}${part}`)}`;
}

/** A value as text: an absent key and a value the parser left blank said in words, not an empty cell. */
function infoboxValue(value: string | undefined): Html {
  if (value === undefined) return html`<span class="na">(absent)</span>`;
  if (value.trim() === '') return html`<span class="na blank">(blank)</span>`;
  return html`${value}`;
}

function revisionsLine(item: WeeklyContent): Html {
  const links = item.revisions;
  if (!links) return html`<p class="revisions na">This item was frozen before revision links were kept.</p>`;
  const when = links.changedAt.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  return html`<p class="revisions">Changed ${when} · <a href="${links.before.url}" target="_blank" rel="noopener noreferrer">revision ${links.before.revId} (before)</a> · <a href="${links.after.url}" target="_blank" rel="noopener noreferrer">revision ${links.after.revId} (after)</a> · <a href="${links.diff}" target="_blank" rel="noopener noreferrer">diff</a></p>`;
}
