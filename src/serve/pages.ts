/**
 * The two pages, rendered whole on the server: the annotator's (one item, the verdict form, the
 * guidelines) and the maintainer's (progress, live figures, disputed items). Their scripts and
 * styles are static files, so the Content-Security-Policy can forbid every inline script.
 */
import type { AuditItem, Judgment } from '../audit/model.js';
import type { AuditReport, Interval } from '../audit/report.js';
import { guidelines } from './guidelines.js';
import { html, type Html } from './html.js';
import { claimOf, itemView } from './itemView.js';

const LABEL_CHOICES = ['unchanged', 'changed', 'new', 'undecided'] as const;

export interface AnnotatorView {
  audit: string;
  annotator: string;
  total: number;
  judged: number;
  /** The item shown, or null when every item is judged and none was asked for. */
  current: { item: AuditItem; position: number; latest: Judgment | null } | null;
  previous: number | null;
  next: number | null;
  /** The item judged most recently before the one shown: where `u` goes back to. */
  undo: number | null;
}

function layout(title: string, script: string | null, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="/assets/audit.css">
${script === null ? '' : html`<script src="/assets/${script}" defer></script>`}
</head>
${body}
</html>
`;
}

function progressBar(judged: number, total: number): Html {
  const percent = total === 0 ? 0 : Math.round((judged / total) * 100);
  return html`<div class="progress" title="${judged} of ${total} judged"><progress id="progress" max="${total}" value="${judged}">${percent}%</progress><span id="progress-text">${judged} / ${total} judged</span></div>`;
}

function navLink(rel: 'prev' | 'next', item: number | null, text: string): Html {
  return item === null ? html`<span class="nav disabled">${text}</span>` : html`<a class="nav" rel="${rel}" href="?item=${item}">${text}</a>`;
}

export function annotatorPage(view: AnnotatorView): string {
  const current = view.current;
  const body = html`<body class="annotator" data-item="${current?.item.id ?? ''}" data-prev="${view.previous ?? ''}" data-next="${view.next ?? ''}" data-undo="${view.undo ?? ''}" data-kind="${current?.item.content.kind ?? ''}">
<header>
  <h1>Audit <span class="audit-name">${view.audit}</span></h1>
  <span class="who">judging as <strong>${view.annotator}</strong></span>
  ${progressBar(view.judged, view.total)}
</header>
<nav class="items">${navLink('prev', view.previous, '← previous')}<span class="position">${current ? `item ${current.position} of ${view.total}` : `${view.total} items`}</span>${navLink('next', view.next, 'next →')}</nav>
<main>${current ? itemPanel(current) : html`<section class="done"><h2>All ${view.total} items judged. Thank you.</h2><p>Press <kbd>←</kbd> or <kbd>u</kbd> to look at your last verdicts again; a changed verdict is saved as a new one.</p></section>`}</main>
${guidelines(current?.item.content.kind ?? 'label')}
</body>`;
  return layout(`Audit ${view.audit}`, 'annotator.js', body).value;
}

function itemPanel(current: NonNullable<AnnotatorView['current']>): Html {
  const { item, latest } = current;
  const kind = item.content.kind;
  const proposed = item.content.kind === 'label' ? item.content.label : null;
  // A wrong label is never the proposed one, so the choice starts on another.
  const preselected = latest?.label ?? LABEL_CHOICES.find((label) => label !== proposed);
  return html`<p class="claim">${claimOf(item.content)}</p>
${itemView(item.content)}
<form id="verdict" autocomplete="off">
  ${latest ? html`<p class="previous-verdict">Your verdict so far: <strong class="verdict-${latest.verdict}">${latest.verdict}</strong>${latest.label ? html` (label ${latest.label})` : ''}${latest.answer ? html` (answer ${latest.answer})` : ''}</p>` : ''}
  <div class="buttons">
    <button type="button" data-verdict="correct" class="correct"><kbd>1</kbd> correct</button>
    <button type="button" data-verdict="debatable" class="debatable"><kbd>2</kbd> debatable</button>
    <button type="button" data-verdict="wrong" class="wrong"><kbd>3</kbd> wrong…</button>
  </div>
  <div id="correction" hidden>
    ${kind === 'label'
      ? html`<label>Right label <select name="label" id="right">${LABEL_CHOICES.map((label) => html`<option value="${label}"${label === preselected ? html` selected` : ''}>${label}</option>`)}</select></label>`
      : html`<label>Right answer <input name="answer" id="right" maxlength="2000" value="${latest?.answer ?? ''}"></label>`}
    <button type="submit">Save as wrong <kbd>Enter</kbd></button>
  </div>
  <label class="note">Note (optional) <textarea name="note" id="note" maxlength="2000" rows="2">${latest?.note ?? ''}</textarea></label>
  <p id="status" role="status"></p>
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

function statistic(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(3);
}

/** The part of the maintainer's page that refreshes: fetched as markup, so it is rendered (and escaped) here only. */
export function adminPanel(view: AdminView): Html {
  const { report } = view;
  const strata = [...new Set([...Object.keys(report.precision.by_stratum), ...Object.keys(report.agreement.by_stratum)])].sort();
  return html`<section class="admin-progress"><h2>Progress</h2>
<table><thead><tr><th>annotator</th><th>judged</th><th>assigned</th><th></th><th>agreement with majority</th></tr></thead><tbody>
${view.progress.map((row) => {
  const agreement = report.annotators.find((entry) => entry.name === row.annotator)?.agreement_with_majority;
  return html`<tr><th>${row.annotator}</th><td>${row.judged}</td><td>${row.assigned}</td><td><progress max="${row.assigned}" value="${row.judged}"></progress></td><td>${agreement === null || agreement === undefined ? '—' : `${(agreement * 100).toFixed(1)}%`}</td></tr>`;
})}
</tbody></table></section>
<section class="admin-figures"><h2>Figures <small>${report.n_items} items · ${report.n_judgments} judgments</small></h2>
<table><thead><tr><th>stratum</th><th>precision (correct + debatable)</th><th>strict (correct)</th><th>Fleiss κ</th><th>Krippendorff α</th></tr></thead><tbody>
<tr class="overall"><th>all</th><td>${interval(report.precision.overall)}</td><td>${interval(report.strict.overall)}</td><td>${statistic(report.agreement.fleiss_kappa)}</td><td>${statistic(report.agreement.krippendorff_alpha)}</td></tr>
${strata.map((stratum) => html`<tr><th>${stratum}</th><td>${interval(report.precision.by_stratum[stratum])}</td><td>${interval(report.strict.by_stratum[stratum])}</td><td>${statistic(report.agreement.by_stratum[stratum]?.fleiss_kappa)}</td><td>${statistic(report.agreement.by_stratum[stratum]?.krippendorff_alpha)}</td></tr>`)}
</tbody></table>
${Object.keys(report.agreement.cohen).length === 0 ? '' : html`<p class="cohen">Cohen's κ: ${Object.entries(report.agreement.cohen).map(([pair, kappa], index) => html`${index > 0 ? ' · ' : ''}${pair.replace('|', ' & ')} ${statistic(kappa)}`)}</p>`}
${report.published && report.published.length > 0 ? publishedTable(report.published) : ''}
</section>
<section class="admin-disputed"><h2>Disputed items <small>${report.disputed.length}</small></h2>
${report.disputed.length === 0 ? html`<p class="na">none yet</p>` : html`<table><thead><tr><th>item</th><th>key</th><th>stratum</th><th>correct</th><th>debatable</th><th>wrong</th></tr></thead><tbody>
${report.disputed.map((entry) => html`<tr><td>${entry.item}</td><td class="key">${entry.key}</td><td>${entry.stratum}</td><td>${entry.votes.correct}</td><td>${entry.votes.debatable}</td><td>${entry.votes.wrong}</td></tr>`)}
</tbody></table>`}</section>`;
}

function publishedTable(published: NonNullable<AuditReport['published']>): Html {
  const sources = [...new Set(published.map((entry) => entry.source))];
  return html`<h3>Beside the published figures <small>${sources.join('; ')}</small></h3>
<table class="published"><thead><tr><th>stratum</th><th>published</th><th>ours</th></tr></thead><tbody>
${published.map((entry) => html`<tr><th>${entry.stratum}</th><td>${(entry.published * 100).toFixed(1)}%</td><td>${interval(entry.ours)}</td></tr>`)}
</tbody></table>`;
}
