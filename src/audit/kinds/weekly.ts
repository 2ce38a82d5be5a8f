/**
 * Weekly questions (`audit create --of weekly`): a week's kept questions, stratum the domain, each
 * shown with its change first (key, before, after, the revisions), then the question, the
 * answer's timeline and the whole infobox folded: an annotator checks one row, which the infobox
 * in source order put hundreds of pixels down, under the verdict bar.
 */
import { z } from 'zod';
import { labelledKey, namedInfobox } from '../../content/entityRefs.js';
import { windowFrom } from '../../dates.js';
import { pairedBefore } from '../../diff/infoboxDiff.js';
import { UserError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { answerSubject } from '../../timeline/answers.js';
import { revisionLinks, RevisionLinksSchema, timelineAround } from '../freeze.js';
import { dateText, html, type Html } from '../html.js';
import type { AuditItemKind, KindCandidate } from './kind.js';

export const WeeklyContentSchema = z.object({
  kind: z.literal('weekly'),
  title: z.string(),
  week: z.string(),
  domain: z.string(),
  question: z.string(),
  answer: z.string(),
  /** The infobox key that changed. */
  key: z.string(),
  /** Values as people read them: entities by their label. */
  infoboxBefore: z.record(z.string(), z.string()),
  infoboxAfter: z.record(z.string(), z.string()),
  /** The labels of keys that are properties (`P1082` → `population`). */
  keyLabels: z.record(z.string(), z.string()).optional(),
  firstParagraph: z.string(),
  /** The answer's timeline around the change. */
  timeline: z.array(z.object({ from: z.string(), value: z.string() })),
  /** Frozen since revision links were kept; older items lack them. */
  revisions: RevisionLinksSchema.optional(),
});
export type WeeklyContent = z.infer<typeof WeeklyContentSchema>;

const WeeklyParams = z.object({ week: z.string(), wiki: z.string().optional() });
type WeeklyParams = z.infer<typeof WeeklyParams>;

export const weeklyKind: AuditItemKind<WeeklyContent, WeeklyParams> = {
  name: 'weekly',
  source: 'weekly',
  noun: 'weekly questions',
  content: WeeklyContentSchema,
  params: WeeklyParams,
  flags: {
    week: { flags: '--week <date>', description: '--of weekly: the first day of the week (YYYY-MM-DD)', date: true },
    wiki: { flags: '--wiki <name>', description: '--of weekly: the wiki (default: the only one with questions that week)' },
  },
  paramsFromFlags: (flags, need) => ({ week: need(flags.week, '--week'), ...(flags.wiki === undefined ? {} : { wiki: need(flags.wiki, '--wiki') }) }),
  describe: (params) => `the weekly questions of the week of ${params.week}`,
  candidates: (store, params) => weeklyCandidates(store, params.week, params.wiki),
  claim: (content) => `Is the answer correct after the change of "${labelledKey(content.key, content.keyLabels)}" in the week of ${content.week}?`,
  section: weeklyView,
  guidelines: {
    heading: 'Weekly questions',
    examples: [
      { term: 'changed key', meaning: 'the answer must be the value in effect after the week, as the infobox after shows for the marked key.', example: 'Key "manager" before "J. Smith", after "K. Ito": Q "Who manages the club?" A "K. Ito".' },
      { term: 'timeline', meaning: 'the question should have a single answer on the evaluation date; a value reverted within the week makes it debatable.', example: 'A value set on Monday and reverted on Tuesday.' },
    ],
  },
};

/** The week's kept questions; stratum: the domain. `wiki` may be left out when one wiki has questions that week. */
function weeklyCandidates(store: Store, week: string, wiki?: string): Array<KindCandidate<WeeklyContent>> {
  const window = windowFrom(week, 7);
  const wikis = store.queries.wikisWithQuestions(window);
  const chosen = wiki ?? wikis[0];
  if (chosen === undefined || !wikis.includes(chosen)) {
    const weeks = store.queries.keptWeeks().map((start) => start.slice(0, 10));
    const known = weeks.length > 0 ? `weeks with questions: ${weeks.join(', ')}` : `run wikidelta weekly --start ${week} first`;
    throw new UserError('E_NOTHING_TO_AUDIT', `no weekly questions${wiki ? ` of wiki ${wiki}` : ''} in the week of ${week}: ${known}`);
  }
  if (wiki === undefined && wikis.length > 1) throw new UserError('E_WIKI_AMBIGUOUS', `several wikis have questions in the week of ${week} (${wikis.join(', ')}): name one with --wiki`);
  const reads = store.pages;
  const entities = store.entities;
  const kept = store.questions(chosen).generatedItems(window).filter((item) => item.kept && item.text !== null);
  if (kept.length === 0) throw new UserError('E_NOTHING_TO_AUDIT', `no kept weekly questions in the week of ${week}`);
  return kept.map((item) => ({
    key: item.id,
    stratum: item.domain ?? 'unclassified',
    freeze: () => {
      // The infobox after is the data unit's, named by select; the one before is named the same way.
      const stored = pairedBefore(reads.infoboxes(item.wiki, item.pageId, item.prevRevId), reads.infoboxes(item.wiki, item.pageId, item.revId), item.template);
      const before = stored && namedInfobox(stored.fields, entities);
      const subject = { wiki: item.wiki, pageId: item.pageId, key: item.key, template: item.template };
      return {
        kind: 'weekly',
        title: item.title,
        week: window.start.slice(0, 10),
        domain: item.domain ?? 'unclassified',
        question: item.text ?? '',
        answer: item.gold,
        key: item.key,
        infoboxBefore: before ? before.values : { ...item.infobox, [item.key]: item.old },
        infoboxAfter: item.infobox,
        keyLabels: { ...before?.keyLabels, ...item.keyLabels },
        firstParagraph: item.firstParagraph,
        timeline: timelineAround(item.timestamp, (instant) => {
          const answer = answerSubject(store, subject, instant);
          return answer.status === 'ok' && answer.valid_from !== null ? { value: answer.answer, validFrom: answer.valid_from, validTo: answer.valid_to } : undefined;
        }),
        revisions: revisionLinks(item.url, item.prevRevId, item.revId, item.timestamp),
      };
    },
  }));
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
  <h2><span class="title">${item.title}</span> <small>week of ${dateText(item.week)} · ${item.domain}</small></h2>
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
  <tbody>${item.timeline.map((step) => html`<tr><td>${dateText(step.from)}</td><td>${infoboxValue(step.value)}</td></tr>`)}</tbody></table></div>
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
  ${blanks ? html`<p class="na blank-note">(blank): the parser gave no text for the value (a template it does not render as text); the revisions above show the wikitext.</p>` : ''}</details>
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
