/**
 * The two pages, rendered whole on the server: the annotator's (one item, the verdict form, the
 * guidelines, the key help and the history of their items) and the maintainer's (progress, live
 * figures, time per item, disputed items). Their scripts and styles are static files, so the
 * Content-Security-Policy can forbid every inline script.
 */
import type { AuditItem, Judgment } from '../model/audit.js';
import { html, type Html } from '../audit/html.js';
import { kindNamed, kindOfSource } from '../audit/kinds/index.js';
import type { AuditItemKind } from '../audit/kinds/kind.js';
import { describeLeftOut, type AuditReport, type Interval, type LeftOut } from '../audit/report.js';
import { guidelines, keysFor } from './guidelines.js';
import { claimOf, itemView } from './itemView.js';

export interface AnnotatorView {
  audit: string;
  /** The audit's source (`audit create --of`): its kind's guidelines and keys are those of a page showing no item. */
  source: string;
  annotator: string;
  total: number;
  judged: number;
  skipped: number;
  /** The item shown, or null when every item is judged and none was asked for. */
  current: { item: AuditItem; position: number; latest: Judgment | null; withdrawn: Judgment | null; skipped: boolean; version: number } | null;
  previous: number | null;
  next: number | null;
  /** The item whose verdict `u` withdraws: the one shown if judged, else the one judged last. */
  undo: number | null;
  /** That verdict's version (AuditStore.judgmentVersion), sent back with the withdrawal: a stale page withdraws nothing it did not show. */
  undoVersion: number | null;
}

function layout(title: string, script: string | null, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="stylesheet" href="/assets/audit.css">
${script === null ? '' : html`<script src="/assets/${script}" defer></script>`}
</head>
${body}
</html>
`;
}

function progressBar(judged: number, total: number, skipped: number): Html {
  const percent = total === 0 ? 0 : Math.round((judged / total) * 100);
  return html`<div class="progress" title="${judged} of ${total} judged"><progress id="progress" max="${total}" value="${judged}">${percent}%</progress><span id="progress-text">${judged} / ${total} judged</span><span id="skipped-count" class="skipped-count"${skipped > 0 ? '' : html` hidden`}>· ${skipped} skipped</span></div>`;
}

function navLink(rel: 'prev' | 'next', item: number | null, text: string): Html {
  return item === null ? html`<span class="nav disabled">${text}</span>` : html`<a class="nav" rel="${rel}" href="?item=${item}">${text}</a>`;
}

export function annotatorPage(view: AnnotatorView): string {
  const current = view.current;
  // With every item judged no item is shown; the guidelines and keys are then those of the audit's kind
  // (the sentence labels' for a source this version does not know).
  const kind = current ? kindNamed(current.item.content.kind) : (kindOfSource(view.source) ?? kindNamed('label'));
  const body = html`<body class="annotator" data-item="${current?.item.id ?? ''}" data-prev="${view.previous ?? ''}" data-next="${view.next ?? ''}" data-undo="${view.undo ?? ''}" data-undo-version="${view.undoVersion ?? ''}" data-version="${current?.version ?? ''}" data-kind="${current?.item.content.kind ?? ''}" data-judged="${current?.latest ? '1' : ''}">
<header>
  <h1>Audit <span class="audit-name">${view.audit}</span></h1>
  <span class="who">judging as <strong>${view.annotator}</strong></span>
  ${progressBar(view.judged, view.total, view.skipped)}
  <span class="tools"><button type="button" id="open-history" class="link"><kbd>h</kbd> my items</button> <button type="button" id="open-help" class="link"><kbd>?</kbd> keys</button></span>
</header>
<nav class="items">${navLink('prev', view.previous, '← previous')}<span class="position">${current ? `item ${current.position} of ${view.total}` : `${view.total} items`}</span>${navLink('next', view.next, 'next →')}</nav>
<main>${current ? itemPanel(current) : html`<section class="done"><h2>All ${view.total} items judged. Thank you.</h2><p>Press <kbd>h</kbd> for your items, <kbd>←</kbd> to look at them again, or <kbd>u</kbd> to withdraw your last verdict; a changed verdict is saved as a new one.</p></section>`}</main>
${guidelines(kind)}
${helpDialog(kind)}
<dialog id="history" aria-labelledby="history-title"><div class="dialog-head"><h2 id="history-title">My items</h2><button type="button" class="close" data-close>close <kbd>Esc</kbd></button></div><p id="history-status" class="na">loading…</p><table id="history-table" hidden><thead><tr><th>#</th><th>item</th><th>state</th></tr></thead><tbody></tbody></table></dialog>
</body>`;
  return layout(`Audit ${view.audit}`, 'annotator.js', body).value;
}

/** The `?` overlay: every key of the page, so none has to be remembered. */
function helpDialog(kind: AuditItemKind): Html {
  return html`<dialog id="help" aria-labelledby="help-title"><div class="dialog-head"><h2 id="help-title">Keys</h2><button type="button" class="close" data-close>close <kbd>Esc</kbd></button></div>
<dl class="keys">${keysFor(kind).map((entry) => html`<dt>${entry.keys.map((key, index) => html`${index > 0 ? ' ' : ''}<kbd>${key}</kbd>`)}</dt><dd>${entry.does}</dd>`)}</dl></dialog>`;
}

function itemPanel(current: NonNullable<AnnotatorView['current']>): Html {
  const { item, latest, withdrawn } = current;
  const content = item.content;
  const kind = kindNamed(content.kind);
  const choices = kind.choices?.(content) ?? null;
  const answerPrompt = kind.answerPrompt?.(content) ?? null;
  return html`<p class="claim">${claimOf(content)}</p>
${latest === null && withdrawn ? html`<p class="notice withdrawn">You withdrew your verdict <strong>${withdrawn.verdict}</strong> on this item: it is unjudged again.</p>` : ''}
${latest === null && current.skipped ? html`<p class="notice skipped">You skipped this item; it waits at the end of your items until you judge it.</p>` : ''}
${itemView(content)}
<form id="verdict" autocomplete="off">
  ${latest ? html`<p class="previous-verdict">Your verdict so far: <strong class="verdict-${latest.verdict}">${latest.verdict}</strong>${latest.label ? html` (label ${latest.label})` : ''}${latest.answer ? html` (answer ${latest.answer})` : ''}</p>` : ''}
  <div class="buttons">
    <button type="button" data-verdict="correct" class="correct"><kbd>1</kbd> correct</button>
    <button type="button" data-verdict="debatable" class="debatable"><kbd>2</kbd> debatable</button>
    <button type="button" data-verdict="wrong" class="wrong"><kbd>3</kbd> wrong…</button>
    <span class="secondary"><button type="button" id="withdraw" class="link"${latest ? '' : html` hidden`}><kbd>u</kbd> withdraw<span class="wide-only"> my verdict</span></button><button type="button" id="skip" class="link"${latest ? html` hidden` : ''}><kbd>s</kbd> skip<span class="wide-only"> for now</span></button></span>
  </div>
  <div id="correction" hidden>
    ${choices
      ? html`<label>Right label <select name="label" id="right" required><option value=""${latest?.label ? '' : html` selected`} disabled>choose…</option>${choices.labels.filter((label) => label !== choices.proposed).map((label) => html`<option value="${label}"${label === latest?.label ? html` selected` : ''}>${label}</option>`)}</select></label>`
      : html`<label>${answerPrompt?.label ?? 'Right answer'} <input name="answer" id="right" maxlength="2000" value="${latest?.answer ?? ''}"${answerPrompt ? html` placeholder="${answerPrompt.placeholder}"` : ''}></label>`}
    <button type="submit">Save as wrong <kbd>Enter</kbd></button>
  </div>
  <label class="note">Note (optional) <textarea name="note" id="note" maxlength="2000" rows="2">${latest?.note ?? ''}</textarea></label>
  <p id="status" role="status" aria-live="polite"></p>
</form>`;
}

/** A page that says why it cannot show anything (bad token, wrong role), with the status code's meaning. */
export function messagePage(title: string, message: string): string {
  return layout(title, null, html`<body class="message"><main><h1>${title}</h1><p>${message}</p></main></body>`).value;
}

export interface AdminView {
  audit: string;
  progress: Array<{ annotator: string; assigned: number; judged: number }>;
  report: AuditReport;
}

export function adminPage(view: AdminView): string {
  const body = html`<body class="admin">
<header><h1>Audit <span class="audit-name">${view.audit}</span> · maintainer</h1><span id="updated" class="who">live, refreshed every few seconds</span></header>
<main id="panel">${adminPanel(view)}</main>
</body>`;
  return layout(`Audit ${view.audit} · maintainer`, 'admin.js', body).value;
}

function interval(value: Interval | undefined): Html {
  if (!value || value.value === null) return html`<span class="na">—</span>`;
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  return html`<span class="figure">${percent(value.value)}</span> <span class="ci">[${percent(value.low)}, ${percent(value.high)}] n=${value.n}</span>`;
}

/** A figure with the items it leaves out, and why, beside it. */
function withLeftOut(value: Interval | undefined, leftOut: LeftOut | undefined): Html {
  const described = describeLeftOut(leftOut);
  return html`${interval(value)}<span class="left-out${described === '0' ? ' none' : ''}">left out: ${described}</span>`;
}

function statistic(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(3);
}

function seconds(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(1)} s`;
}

/** The part of the maintainer's page that refreshes: fetched as markup, so it is rendered (and escaped) here only. */
export function adminPanel(view: AdminView): Html {
  const { report } = view;
  const strata = [...new Set([...Object.keys(report.precision.by_stratum), ...Object.keys(report.agreement.by_stratum)])].sort();
  const half = report.disputed_as_half;
  const unjudgedOnly = (leftOut: LeftOut | undefined): LeftOut | undefined => leftOut && { no_majority: 0, unjudged: leftOut.unjudged };
  const figuresRow = (name: string, pick: <T>(measure: { overall: T; by_stratum: Record<string, T> }) => T | undefined, agreement: { fleiss_kappa: number | null; krippendorff_alpha: number | null } | undefined) => {
    const leftOut = pick(report.left_out);
    return html`<tr${name === 'all' ? html` class="overall"` : ''}><th>${name}</th><td>${withLeftOut(pick(report.precision), leftOut)}</td><td>${withLeftOut(pick(report.strict), leftOut)}</td><td>${withLeftOut(pick(half.precision), unjudgedOnly(leftOut))}</td><td>${withLeftOut(pick(half.strict), unjudgedOnly(leftOut))}</td><td>${statistic(agreement?.fleiss_kappa)}</td><td>${statistic(agreement?.krippendorff_alpha)}</td></tr>`;
  };
  return html`<section class="admin-progress"><h2>Progress</h2>
<div class="wide"><table><thead><tr><th>annotator</th><th>judged</th><th>assigned</th><th></th><th>agreement with majority</th><th>median time per item</th></tr></thead><tbody>
${view.progress.map((row) => {
  const entry = report.annotators.find((candidate) => candidate.name === row.annotator);
  const agreement = entry?.agreement_with_majority;
  return html`<tr><th>${row.annotator}</th><td>${row.judged}</td><td>${row.assigned}</td><td><progress max="${row.assigned}" value="${row.judged}"></progress></td><td>${agreement === null || agreement === undefined ? '—' : `${(agreement * 100).toFixed(1)}%`}</td><td>${seconds(entry?.median_seconds)}</td></tr>`;
})}
</tbody></table></div></section>
<section class="admin-figures"><h2>Figures <small>${report.n_items} items · ${report.n_judgments} judgments</small></h2>
<p class="na">By majority: an item counts with the verdict most of its raters gave; an item without one (raters split) or not judged yet is left out, as said beside each figure. Disputed as ½: every judged item, one whose raters split on it counting half.</p>
<div class="wide"><table><thead><tr><th>stratum</th><th>precision (correct + debatable), by majority</th><th>strict (correct), by majority</th><th>precision, disputed as ½</th><th>strict, disputed as ½</th><th>Fleiss κ</th><th>Krippendorff α</th></tr></thead><tbody>
${figuresRow('all', (measure) => measure.overall, report.agreement)}
${strata.map((stratum) => figuresRow(stratum, (measure) => measure.by_stratum[stratum], report.agreement.by_stratum[stratum]))}
</tbody></table></div>
${Object.keys(report.agreement.cohen).length === 0 ? '' : html`<p class="cohen">Cohen's κ: ${Object.entries(report.agreement.cohen).map(([pair, kappa], index) => html`${index > 0 ? ' · ' : ''}${pair.replace('|', ' & ')} ${statistic(kappa)}`)}</p>`}
${report.judge ? judgeBlock(report.judge) : ''}
${report.published && report.published.length > 0 ? publishedTable(report.published, report.left_out.by_stratum) : ''}
</section>
<section class="admin-time"><h2>Time per item <small>median ${seconds(report.time.median_seconds)} over ${report.time.timed} timed verdicts</small></h2>
${report.time.slowest.length === 0 ? html`<p class="na">no timed verdict yet</p>` : html`<div class="wide"><table><thead><tr><th>slowest items</th><th>key</th><th>stratum</th><th>median</th><th>each rater</th></tr></thead><tbody>
${report.time.slowest.map((entry) => html`<tr><td>${entry.item}</td><td class="key">${entry.key}</td><td>${entry.stratum}</td><td>${seconds(entry.median_seconds)}</td><td>${entry.seconds.map(seconds).join(', ')}</td></tr>`)}
</tbody></table></div>`}</section>
<section class="admin-disputed"><h2>Disputed items <small>${report.disputed.length}</small></h2>
${report.disputed.length === 0 ? html`<p class="na">none yet</p>` : html`<div class="wide"><table><thead><tr><th>item</th><th>key</th><th>stratum</th><th>correct</th><th>debatable</th><th>wrong</th></tr></thead><tbody>
${report.disputed.map((entry) => html`<tr><td>${entry.item}</td><td class="key">${entry.key}</td><td>${entry.stratum}</td><td>${entry.votes.correct}</td><td>${entry.votes.debatable}</td><td>${entry.votes.wrong}</td></tr>`)}
</tbody></table></div>`}</section>`;
}

/** An audit of predictions: the judge against the annotators' majority (its precision per verdict is the table above). */
function judgeBlock(judge: NonNullable<AuditReport['judge']>): Html {
  const kappa = judge.kappa_interval ? html` [${judge.kappa_interval[0].toFixed(3)}, ${judge.kappa_interval[1].toFixed(3)}]` : '';
  return html`<h3>The judge against the annotators <small>${judge.judge} · ${judge.mode}</small></h3>
<p class="judge">Cohen's κ ${statistic(judge.kappa)}${kappa} · the same label ${interval(judge.agreement)}<span class="left-out">left out: ${describeLeftOut(judge.left_out)}</span></p>`;
}

function publishedTable(published: NonNullable<AuditReport['published']>, leftOut: Record<string, LeftOut>): Html {
  const sources = [...new Set(published.map((entry) => entry.source))];
  return html`<h3>Beside the published figures <small>${sources.join('; ')}</small></h3>
<div class="wide"><table class="published"><thead><tr><th>stratum</th><th>published</th><th>ours</th></tr></thead><tbody>
${published.map((entry) => html`<tr><th>${entry.stratum}</th><td>${(entry.published * 100).toFixed(1)}%</td><td>${withLeftOut(entry.ours, leftOut[entry.stratum])}</td></tr>`)}
</tbody></table></div>`;
}
