/**
 * The guidelines panel: what each verdict means for the kind of item judged, with one worked
 * example per label and per verdict, so that three judges who never talk read the scale alike
 * (Natural Questions' precision study gave its experts the same kind of sheet).
 */
import type { AuditItemContent } from '../model/audit.js';
import { html, type Html } from './html.js';

interface Example {
  term: string;
  meaning: string;
  example: string;
}

const VERDICTS: Example[] = [
  { term: '1 · correct', meaning: 'what is proposed is right, as the shown text supports it.', example: 'Answer "Lisbon" to "Where is the company headquartered?" and the evidence says "headquartered in Lisbon".' },
  { term: '2 · debatable', meaning: 'defensible, but a careful reader could disagree (partial, ambiguous, a matter of granularity).', example: 'Answer "2019" where the article says "late 2019 or early 2020".' },
  { term: '3 · wrong', meaning: 'not supported or contradicted; give the right label or answer, and a note if useful.', example: 'Answer "Madrid" where the evidence says "moved its headquarters from Madrid to Lisbon".' },
];

const LABELS: Example[] = [
  { term: 'unchanged', meaning: 'the new sentence says the same as a matched old sentence (wording may differ).', example: 'Old "The bridge opened in 1932." → new "The bridge was opened in 1932."' },
  { term: 'changed', meaning: 'a matched old sentence says something the new one contradicts or updates.', example: 'Old "Its population is 9,800." → new "Its population is 11,200."' },
  { term: 'new', meaning: 'no old sentence carries this information.', example: 'New "In 2021 the station was electrified." with no old sentence about electrification.' },
  { term: 'undecided', meaning: 'the labeler could not tell; judge it correct only if it truly cannot be told from the text.', example: 'Old "He played for the club." → new "He played for the club until 2020." (an addition, or a change?)' },
];

const QA: Example[] = [
  { term: 'SAME', meaning: 'the question is answered the same way by the old and new article.', example: 'Q "Who designed the bridge?" A "Joseph Strauss", unchanged.' },
  { term: 'NEW', meaning: 'the question is about information that appeared in the new article.', example: 'Q "When was the station electrified?" A "2021".' },
  { term: 'CHANGED', meaning: 'the answer differs from the old answer, shown beside it.', example: 'Q "What is the population?" A "11,200", old answer "9,800".' },
  { term: 'dialogue', meaning: 'each turn must be answered correctly from the article; one wrong turn makes the item wrong.', example: 'Turn 1 "Who founded it?" "Ada", turn 2 "When?" "1901".' },
];

const WEEKLY: Example[] = [
  { term: 'changed key', meaning: 'the answer must be the value in effect after the week, as the infobox after shows for the marked key.', example: 'Key "manager" before "J. Smith", after "K. Ito": Q "Who manages the club?" A "K. Ito".' },
  { term: 'timeline', meaning: 'the question should have a single answer on the evaluation date; a value reverted within the week makes it debatable.', example: 'A value set on Monday and reverted on Tuesday.' },
];

const PREDICTIONS: Example[] = [
  { term: 'correct', meaning: 'the reply gives the value in effect when the question was asked (another name or form of it counts).', example: 'Values 5th (until 2025-01-26), 4th (in effect): reply "They are fourth".' },
  { term: 'outdated', meaning: 'the reply gives a value that held earlier in the list, no longer in effect.', example: 'Values 5th, then 4th (in effect): reply "5th".' },
  { term: 'wrong', meaning: 'anything else: a value not in the list, a refusal to answer a question that has an answer, a hedge between several answers in strict mode.', example: 'Values 5th, 4th: reply "2nd".' },
  { term: 'relaxed / strict', meaning: "FreshEval's modes: relaxed judges the primary answer only; strict also every other claim of the reply.", example: 'Reply "4th, after winning the cup" where no cup was won: correct relaxed, wrong strict.' },
];

/** A key of the annotator's page and what it does; `kinds` limits it to some item kinds. */
export interface KeyHelp {
  keys: string[];
  does: string;
  kinds?: ReadonlyArray<AuditItemContent['kind']>;
}

/** Every key of the annotator's page (annotator.js), for the `?` overlay and the guidelines. */
export const KEYS: KeyHelp[] = [
  { keys: ['1'], does: 'correct: saved, and on to the next item' },
  { keys: ['2'], does: 'debatable: saved, and on to the next item' },
  { keys: ['3'], does: 'wrong: choose the right label, then Enter', kinds: ['label', 'prediction'] },
  { keys: ['3'], does: 'wrong: type the right answer (or a note saying why there is none), then Enter', kinds: ['qa', 'weekly'] },
  { keys: ['s'], does: 'skip for now: the item comes back after all the others' },
  { keys: ['u'], does: 'withdraw your verdict on this item, or else your last verdict, and show that item unjudged again' },
  { keys: ['←', '→'], does: 'previous / next item' },
  { keys: ['h'], does: 'your items: judged, skipped, still to do' },
  { keys: ['/'], does: 'search the old article (items labeled new)', kinds: ['label'] },
  { keys: ['n'], does: 'write a note' },
  { keys: ['g'], does: 'open or close the guidelines' },
  { keys: ['?'], does: 'this list of keys' },
  { keys: ['Esc'], does: 'leave a text field; close this list or your items' },
];

/** The keys that work on an item of this kind. */
export function keysFor(kind: AuditItemContent['kind']): KeyHelp[] {
  return KEYS.filter((entry) => entry.kinds === undefined || entry.kinds.includes(kind));
}

function examples(list: Example[]): Html {
  return html`<dl class="examples">${list.map((entry) => html`<dt>${entry.term}</dt><dd>${entry.meaning}<br><span class="example">e.g. ${entry.example}</span></dd>`)}</dl>`;
}

const rendered = new Map<AuditItemContent['kind'], Html>();

/** The panel for an item kind; the same on every page, so rendered once per kind. */
export function guidelines(kind: AuditItemContent['kind']): Html {
  const cached = rendered.get(kind);
  if (cached) return cached;
  const panel = guidelinesPanel(kind);
  rendered.set(kind, panel);
  return panel;
}

function guidelinesPanel(kind: AuditItemContent['kind']): Html {
  const specific = {
    label: html`<h3>Labels</h3>${examples(LABELS)}`,
    qa: html`<h3>Item types</h3>${examples(QA)}`,
    weekly: html`<h3>Weekly questions</h3>${examples(WEEKLY)}`,
    prediction: html`<h3>Verdicts on a reply</h3>${examples(PREDICTIONS)}`,
  }[kind];
  return html`<details class="guidelines" id="guidelines"><summary>Guidelines (g)</summary>
<h3>Verdicts</h3>${examples(VERDICTS)}${specific}
<h3>Keys</h3><p>${keysFor(kind).map((entry, index) => html`${index > 0 ? ' · ' : ''}${entry.keys.map((key) => html`<kbd>${key}</kbd>`)} ${entry.does}`)}</p>
</details>`;
}
