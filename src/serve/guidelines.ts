/**
 * The guidelines panel: what each verdict means for the kind of item judged, with one worked
 * example per label and per verdict, so that three judges who never talk read the scale alike
 * (Natural Questions' precision study gave its experts the same kind of sheet).
 */
import { html, type Html } from '../audit/html.js';
import type { AuditItemKind, GuidelineExample, KeyHelp } from '../audit/kinds/kind.js';

const VERDICTS: GuidelineExample[] = [
  { term: '1 · correct', meaning: 'what is proposed is right, as the shown text supports it.', example: 'Answer "Lisbon" to "Where is the company headquartered?" and the evidence says "headquartered in Lisbon".' },
  { term: '2 · debatable', meaning: 'defensible, but a careful reader could disagree (partial, ambiguous, a matter of granularity).', example: 'Answer "2019" where the article says "late 2019 or early 2020".' },
  { term: '3 · wrong', meaning: 'not supported or contradicted; give the right label or answer, and a note if useful.', example: 'Answer "Madrid" where the evidence says "moved its headquarters from Madrid to Lisbon".' },
];

/** The keys of the annotator's page (annotator.js) before those of a kind, for the `?` overlay and the guidelines. */
const KEYS_FIRST: KeyHelp[] = [
  { keys: ['1'], does: 'correct: saved, and on to the next item' },
  { keys: ['2'], does: 'debatable: saved, and on to the next item' },
];

/** What `3` does: a kind that proposes a label takes the right one, any other the right answer. */
const WRONG_LABEL: KeyHelp = { keys: ['3'], does: 'wrong: choose the right label, then Enter' };
const WRONG_ANSWER: KeyHelp = { keys: ['3'], does: 'wrong: type the right answer (or a note saying why there is none), then Enter' };

const KEYS_BEFORE_KIND: KeyHelp[] = [
  { keys: ['s'], does: 'skip for now: the item comes back after all the others' },
  { keys: ['u'], does: 'withdraw your verdict on this item, or else your last verdict, and show that item unjudged again' },
  { keys: ['←', '→'], does: 'previous / next item' },
  { keys: ['h'], does: 'your items: judged, skipped, still to do' },
];

const KEYS_AFTER_KIND: KeyHelp[] = [
  { keys: ['n'], does: 'write a note' },
  { keys: ['g'], does: 'open or close the guidelines' },
  { keys: ['?'], does: 'this list of keys' },
  { keys: ['Esc'], does: 'leave a text field; close the box of 3 (nothing saved), this list or your items' },
];

/** Every key that works on an item of this kind, the kind's own among them. */
export function keysFor(kind: AuditItemKind): KeyHelp[] {
  return [...KEYS_FIRST, kind.choices ? WRONG_LABEL : WRONG_ANSWER, ...KEYS_BEFORE_KIND, ...(kind.keys ?? []), ...KEYS_AFTER_KIND];
}

function examples(list: readonly GuidelineExample[]): Html {
  return html`<dl class="examples">${list.map((entry) => html`<dt>${entry.term}</dt><dd>${entry.meaning}<br><span class="example">e.g. ${entry.example}</span></dd>`)}</dl>`;
}

const rendered = new Map<AuditItemKind, Html>();

/** The panel for an item kind; the same on every page, so rendered once per kind. */
export function guidelines(kind: AuditItemKind): Html {
  const cached = rendered.get(kind);
  if (cached) return cached;
  const panel = guidelinesPanel(kind);
  rendered.set(kind, panel);
  return panel;
}

function guidelinesPanel(kind: AuditItemKind): Html {
  return html`<details class="guidelines" id="guidelines"><summary>Guidelines (g)</summary>
<h3>Verdicts</h3>${examples(VERDICTS)}<h3>${kind.guidelines.heading}</h3>${examples(kind.guidelines.examples)}
<h3>Keys</h3><p>${keysFor(kind).map((entry, index) => html`${index > 0 ? ' · ' : ''}${entry.keys.map((key) => html`<kbd>${key}</kbd>`)} ${entry.does}`)}</p>
</details>`;
}
