/**
 * One audit item as the judge sees it, by kind (docs/ARCHITECTURE.md §14): a sentence label with
 * both paragraphs side by side, a QA item with its evidence marked in the article, a weekly
 * question with the infobox before and after. Pure: content in, escaped markup out.
 */
import type { AuditItemContent } from '../audit/model.js';
import { splitSentences } from '../text/sentences.js';
import { highlight, wordDiff } from './highlight.js';
import { html, type Html } from './html.js';

type LabelContent = Extract<AuditItemContent, { kind: 'label' }>;
type QaContent = Extract<AuditItemContent, { kind: 'qa' }>;
type WeeklyContent = Extract<AuditItemContent, { kind: 'weekly' }>;

/** What the judge is asked to confirm, in one line above the item. */
export function claimOf(content: AuditItemContent): string {
  switch (content.kind) {
    case 'label':
      return `Is "${content.label}" the right label for the new sentence?`;
    case 'qa':
      return content.itemType === 'dialogue' ? 'Are the questions answered correctly from the article?' : 'Is the answer correct and supported by the evidence?';
    case 'weekly':
      return `Is the answer correct after the change of "${content.key}" in the week of ${content.week}?`;
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
  }
}

function labelView(item: LabelContent): Html {
  const similarity = item.similarity === null ? '' : ` · similarity ${item.similarity.toFixed(2)}`;
  return html`<section class="item item-label">
  <h2><span class="title">${item.title}</span> <small>page ${item.pageId} · ${item.oldSnapshot} → ${item.newSnapshot}</small></h2>
  <p class="proposed">Proposed label: <strong class="label label-${item.label}">${item.label}</strong>${similarity}</p>
  <div class="sentence"><span class="caption">New sentence</span><p>${item.sentence}</p></div>
  <div class="columns">
    <div class="column"><span class="caption">Old paragraph (${item.oldSnapshot})${item.matchedOld.length === 0 ? ' · no matched sentence' : ''}</span><p>${highlight(item.oldParagraph, item.matchedOld, 'old')}</p></div>
    <div class="column"><span class="caption">New paragraph (${item.newSnapshot})</span><p>${highlight(item.newParagraph, [item.sentence], 'new')}</p></div>
  </div>
  <div class="diff"><span class="caption">Word diff: matched old sentence${item.matchedOld.length === 1 ? '' : 's'} → new sentence</span><p>${wordDiff(item.matchedOld.join(' '), item.sentence)}</p></div>
  ${item.evidence === null ? '' : html`<div class="evidence"><span class="caption">Labeler's evidence</span><p>${item.evidence}</p></div>`}
</section>`;
}

function qaView(item: QaContent): Html {
  return html`<section class="item item-qa">
  <h2><span class="title">${item.title}</span> <small>${item.itemType} · snapshot ${item.snapshot}</small></h2>
  ${item.itemType === 'dialogue' ? dialogueTurns(item) : html`<dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Answer</dt><dd class="answer">${item.answer}</dd>
    ${item.oldAnswer === null ? '' : html`<dt>Old answer</dt><dd class="old-answer">${item.oldAnswer}</dd>`}
  </dl>`}
  <div class="evidence"><span class="caption">Evidence</span><p>${item.evidence}</p></div>
  <div class="article"><span class="caption">Article, evidence marked</span><div class="scroll"><p>${highlight(item.article, splitSentences(item.evidence), 'cited')}</p></div></div>
</section>`;
}

function dialogueTurns(item: QaContent): Html {
  const turns = item.turns.length > 0 ? item.turns : [{ question: item.question, answer: item.answer }];
  return html`<ol class="turns">${turns.map((turn) => html`<li><span class="question">${turn.question}</span><span class="answer">${turn.answer}</span></li>`)}</ol>`;
}

function weeklyView(item: WeeklyContent): Html {
  const keys = [...new Set([...Object.keys(item.infoboxBefore), ...Object.keys(item.infoboxAfter)])];
  return html`<section class="item item-weekly">
  <h2><span class="title">${item.title}</span> <small>week of ${item.week} · ${item.domain}</small></h2>
  <dl class="qa">
    <dt>Question</dt><dd class="question">${item.question}</dd>
    <dt>Answer</dt><dd class="answer">${item.answer}</dd>
  </dl>
  <div class="infobox"><span class="caption">Infobox before and after the week (changed key marked)</span>
  <table>
    <thead><tr><th>key</th><th>before</th><th>after</th></tr></thead>
    <tbody>${keys.map((key) => {
      const before = item.infoboxBefore[key];
      const after = item.infoboxAfter[key];
      const changed = key === item.key;
      const rowClass = changed ? 'changed' : before !== after ? 'differs' : '';
      return html`<tr class="${rowClass}"><th>${changed ? '▶ ' : ''}${key}</th><td>${before ?? '—'}</td><td>${after ?? '—'}</td></tr>`;
    })}</tbody>
  </table></div>
  <div class="first-paragraph"><span class="caption">First paragraph</span><p>${item.firstParagraph}</p></div>
  <div class="timeline"><span class="caption">Timeline of the answer</span>
  <table><thead><tr><th>from</th><th>value</th></tr></thead>
  <tbody>${item.timeline.map((step) => html`<tr><td>${step.from}</td><td>${step.value}</td></tr>`)}</tbody></table></div>
</section>`;
}
