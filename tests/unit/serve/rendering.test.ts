import { describe, expect, it } from 'vitest';
import type { ShippedItemContent } from '../../../src/audit/kinds/index.js';
import type { LabelContent } from '../../../src/audit/kinds/label.js';
import { PredictionContentSchema } from '../../../src/audit/kinds/prediction.js';
import { WeeklyContentSchema, type WeeklyContent } from '../../../src/audit/kinds/weekly.js';
import type { AuditItem, Judgment } from '../../../src/model/audit.js';
import { highlight, wordDiff } from '../../../src/audit/highlight.js';
import { escapeHtml, html } from '../../../src/audit/html.js';
import { claimOf, itemView } from '../../../src/serve/itemView.js';
import { annotatorPage, type AnnotatorView } from '../../../src/serve/pages.js';
import { AUDIT_CONTENTS, HOSTILE, PREDICTION_CONTENT } from '../../../testkit/auditFixture.js';

const contentOf = (stratum: string): ShippedItemContent => AUDIT_CONTENTS.find((entry) => entry.stratum === stratum)!.content;

/** The annotator's page on the fixture's first item (a label changed → proposed "changed"). */
const view: AnnotatorView = {
  audit: 'pages',
  source: 'labels',
  annotator: 'alice',
  total: 3,
  judged: 1,
  skipped: 0,
  current: { item: { id: 7, auditId: 1, key: 'k', stratum: 'changed', content: AUDIT_CONTENTS[0]!.content } satisfies AuditItem, position: 2, latest: null, withdrawn: null, skipped: false, version: 0 },
  previous: 5,
  next: 9,
  undo: 5,
  undoVersion: 1,
};

/** Every tag the markup opens, by name: wiki text must never add one. */
const tagsOf = (markup: string) => [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((match) => (match[1] as string).toLowerCase());

describe('html', () => {
  it('escapes every interpolated value, arrays included, and leaves Html as it is', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``).value).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;');
    const item = '<b>bold</b>';
    expect(html`<p>${item}</p>${[item, html`<i>ok</i>`]}${null}${undefined}${false}${3}`.value).toBe('<p>&lt;b&gt;bold&lt;/b&gt;</p>&lt;b&gt;bold&lt;/b&gt;<i>ok</i>3');
  });
});

describe('highlight', () => {
  it('marks each needle, merges overlaps, escapes the rest', () => {
    expect(highlight('a <b> c d e', ['<b> c', 'c d', '']).value).toBe('a <mark class="hit">&lt;b&gt; c d</mark> e');
    expect(highlight('x y x', ['x'], 'old').value).toBe('<mark class="old">x</mark> y <mark class="old">x</mark>');
  });

  it('finds a needle whose spacing differs from the text', () => {
    expect(highlight('It was\nfounded  in 1821.', ['was founded in']).value).toBe('It <mark class="hit">was\nfounded  in</mark> 1821.');
  });

  it('takes needles with regular-expression characters literally', () => {
    expect(highlight('cost (in $) is 5', ['(in  $)']).value).toBe('cost <mark class="hit">(in $)</mark> is 5');
  });

  it('shows a word diff as deletions and insertions', () => {
    expect(wordDiff('The mayor is John Smith.', 'The mayor is <i>Jane</i>.').value).toBe(
      'The mayor is <del>John Smith</del><ins>&lt;i&gt;Jane&lt;/i&gt;</ins>.',
    );
  });
});

describe('item views', () => {
  it('render hostile wiki text as text in every kind', () => {
    for (const { content } of AUDIT_CONTENTS) {
      const markup = itemView(content).value;
      expect(tagsOf(markup)).not.toContain('script');
      expect(tagsOf(markup)).not.toContain('img');
      // The only links are the weekly item's revisions, to http(s) addresses.
      expect([...markup.matchAll(/<a\b[^>]*>/g)].map((match) => match[0]).every((tag) => /^<a href="https:\/\/[^"]*" target="_blank" rel="noopener noreferrer">$/.test(tag))).toBe(true);
      expect(markup).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    }
    const label = itemView(AUDIT_CONTENTS[0]!.content).value;
    expect(label).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(label).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(label).toContain('[javascript:alert(3) the official site]');
  });

  it('puts the change of a weekly item first, with its revisions, and folds the rest of the infobox', () => {
    const weekly = itemView(contentOf('sports')).value;
    const change = weekly.indexOf('<div class="change" id="change">');
    expect(change).toBeGreaterThan(-1);
    expect(change).toBeLessThan(weekly.indexOf('<dd class="question">'));
    expect(weekly.slice(change)).toMatch(/^<div class="change" id="change"><span class="caption">The change<\/span>\s*<table>\s*<thead>.*?<\/thead>\s*<tbody><tr class="changed"><th class="key">manager<\/th><td class="before">John Hale<\/td><td class="after">Kenji Ito<\/td><\/tr><\/tbody>/s);
    expect(weekly).toContain('Changed 2024-03-06 09:12 UTC · <a href="https://en.wikipedia.org/w/index.php?oldid=1006" target="_blank" rel="noopener noreferrer">revision 1006 (before)</a>');
    expect(weekly).toContain('<a href="https://en.wikipedia.org/w/index.php?diff=1010&amp;oldid=1006" target="_blank" rel="noopener noreferrer">diff</a>');
    // The whole infobox is folded, its summary naming the other keys that differ.
    expect(weekly).toMatch(/<details class="infobox" id="infobox"><summary>The whole infobox, before and after the week: 24 keys; 1 other differs: capacity<\/summary>/);
    expect(weekly).toMatch(/<tr class="differs"><th class="key">capacity<\/th>/);
    expect(weekly.match(/<tr class="changed">/g)).toHaveLength(2);
  });

  it('breaks infobox keys only after an underscore, and shows a blank or absent value in words', () => {
    const weekly = itemView(contentOf('sports')).value;
    expect(weekly).toContain('<th class="key">ground_<wbr>coordinates_<wbr>and_<wbr>capacity_<wbr>note</th>');
    expect(weekly).toContain('<tr class=""><th class="key">dissolved</th><td><span class="na blank">(blank)</span></td><td><span class="na blank">(blank)</span></td></tr>');
    expect(weekly).toContain('a template it does not render as text');
    // A blank value in the answer's timeline is said as in the change, not an empty cell.
    const blankBefore = itemView({ ...(contentOf('sports') as WeeklyContent), timeline: [{ from: '2024-03-01T00:00:00Z', value: '' }, { from: '2024-03-06T09:12:00Z', value: 'Kenji Ito' }] }).value;
    expect(blankBefore).toContain('<tr><td><span class="date">2024-03-01T00:00:00Z</span></td><td><span class="na blank">(blank)</span></td></tr>');
    const absent = itemView({ ...(contentOf('sports') as WeeklyContent), infoboxAfter: { manager: 'Kenji Ito' } }).value;
    expect(absent).toContain('<tr class="differs"><th class="key">clubname</th><td>Riverton Rovers</td><td><span class="na">(absent)</span></td></tr>');
  });

  it('names the properties of an entity item by their labels beside their ids, in the change, the infobox and the claim', () => {
    const entity: WeeklyContent = {
      ...(contentOf('sports') as WeeklyContent),
      key: 'P1082',
      infoboxBefore: { P1082: '333509', P17: 'Germany', P2046: '258.82' },
      infoboxAfter: { P1082: '334002', P17: 'Germany', P2046: '258.83' },
      keyLabels: { P1082: 'population', P17: 'country' },
    };
    const weekly = itemView(entity).value;
    expect(weekly).toContain('<tr class="changed"><th class="key">population (P1082)</th><td class="before">333509</td><td class="after">334002</td></tr>');
    expect(weekly).toContain('<tr class=""><th class="key">country (P17)</th><td>Germany</td><td>Germany</td></tr>');
    // A property without a label keeps its id.
    expect(weekly).toMatch(/1 other differs: P2046<\/summary>/);
    expect(claimOf(entity)).toBe(`Is the answer correct after the change of "population (P1082)" in the week of ${entity.week}?`);
  });

  it('says when a weekly item was frozen without revision links, and refuses a link that is not http(s)', () => {
    const { revisions: _revisions, ...older } = contentOf('sports') as WeeklyContent;
    expect(itemView(older).value).toContain('This item was frozen before revision links were kept.');
    const hostile = { ...(contentOf('sports') as WeeklyContent), revisions: { changedAt: 't', before: { revId: 1, url: 'javascript:alert(1)' }, after: { revId: 2, url: 'https://x.example/' }, diff: 'https://x.example/' } };
    expect(WeeklyContentSchema.safeParse(hostile).success).toBe(false);
  });

  it('shows the old evidence of a CHANGED item beside the new, each answer marked', () => {
    const changed = itemView(contentOf('CHANGED')).value;
    expect(changed).toContain('<dd class="old-answer">9,800</dd>');
    expect(changed).toContain('<div class="column old-evidence"><span class="caption">Old evidence (2024-01) · old answer marked</span><p>Its population was <mark class="old">9,800</mark> at the 2010 census.</p></div>');
    expect(changed).toContain('<div class="column new-evidence"><span class="caption">New evidence (2024-02) · answer marked</span><p>Its population was <mark class="new">11,200</mark> at the 2020 census, up from 9,800 in 2010.</p></div>');
    expect(changed).toContain('<mark class="cited">Its population was 11,200 at the 2020 census, up from 9,800 in 2010.</mark>');
  });

  it("shows a new label's closest old sentences, as the labeler measured them, and the old article to search", () => {
    const label = itemView(contentOf('new')).value;
    expect(label).toContain('Closest old sentences (2024-01) · by cosine of the use-lite vectors the labeler compared');
    expect(label).toContain('<li><span class="score">0.41</span> The station opened in 1850 on the northern line.</li>');
    expect(label.match(/<span class="score">/g)).toHaveLength(3);
    expect(label).toContain('<input type="search" id="old-search"');
    expect(label.match(/<ol class="old-sentences scroll" id="old-sentences">(.*?)<\/ol>/s)?.[1]?.match(/<li>/g)).toHaveLength(6);
    const newArticle = itemView({ ...(contentOf('new') as LabelContent), oldArticle: null, closestOld: undefined }).value;
    expect(newArticle).toContain('The article did not exist in 2024-01: no old sentence can have said it.');
    expect(newArticle).not.toContain('old-search');
    const older = itemView({ ...(contentOf('new') as LabelContent), oldArticle: undefined, closestOld: undefined }).value;
    expect(older).not.toContain('Closest old sentences');
  });

  it('lists the dialogue turns and marks evidence sentences apart in the article', () => {
    const dialogue = itemView(AUDIT_CONTENTS.find((entry) => entry.stratum === 'dialogue')!.content).value;
    expect(dialogue.match(/<li>/g)).toHaveLength(3);
    expect(dialogue.match(/<mark class="cited">/g)).toHaveLength(2);
  });

  it('cuts evidence into sentences as the articles are cut, so an abbreviation or an initial stays inside its sentence', () => {
    const base = AUDIT_CONTENTS.find((entry) => entry.stratum === 'CHANGED')!.content;
    if (base.kind !== 'qa') throw new Error('the fixture has no QA item');
    const sentence = 'They met on St. Brannoc Street in 2011 with A. K. Demir.';
    const markup = itemView({ ...base, evidence: sentence, article: `The band is from Vellan. ${sentence} It split in 2020.` }).value;
    expect(markup.match(/<mark class="cited">[^<]*<\/mark>/g)).toEqual([`<mark class="cited">${sentence}</mark>`]);
  });

  it('puts no inline script or handler on the annotator page, and the item id where the script finds it', () => {
    const page = annotatorPage({ ...view, audit: HOSTILE.script, annotator: HOSTILE.image });
    expect(page.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/annotator.js" defer>']);
    expect(page).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    expect(page).toContain('data-item="7" data-prev="5" data-next="9" data-undo="5" data-undo-version="1" data-version="0" data-kind="label" data-judged=""');
  });

  it("shows a judged prediction with the answer's dated values and the verdict proposed, never the judge's reason", () => {
    expect(PredictionContentSchema.parse(JSON.parse(JSON.stringify(PREDICTION_CONTENT)))).toEqual(PREDICTION_CONTENT);
    const markup = itemView(PREDICTION_CONTENT).value;
    expect(tagsOf(markup)).not.toContain('script');
    expect(tagsOf(markup)).not.toContain('img');
    expect(markup).toContain('They are 4th &lt;img src=x onerror=alert(2)&gt;');
    expect(markup).toContain('<tr><td><span class="date">2025-01-10</span> or earlier</td><td><span class="date">2025-01-26</span></td><td>5th</td></tr>');
    expect(markup).toContain('<tr class="changed"><td><span class="date">2025-02-05</span></td><td><strong>in effect when asked</strong></td><td>3rd</td></tr>');
    expect(markup).toContain('Verdict of the judge (relaxed): <strong class="label label-outdated">outdated</strong>');
    expect(markup).not.toContain('which held until');
    // A wrong verdict is corrected with one of the other two, none chosen for the annotator.
    const page = annotatorPage({ ...view, current: { ...view.current!, item: { ...view.current!.item, content: PREDICTION_CONTENT } } });
    expect(page).toContain('<select name="label" id="right" required><option value="" selected disabled>choose…</option><option value="correct">correct</option><option value="wrong">wrong</option></select>');
    expect(page).toContain('Is &quot;outdated&quot; the right verdict on this reply (relaxed: the primary answer only)?');
    expect(page).toContain('<h3>Verdicts on a reply</h3>');
  });

  it('chooses no right label for the annotator: none selected, the proposed one not offered', () => {
    const page = annotatorPage(view);
    expect(page).toContain('<select name="label" id="right" required><option value="" selected disabled>choose…</option><option value="unchanged">unchanged</option><option value="new">new</option><option value="undecided">undecided</option></select>');
    const own: Judgment = { id: 3, itemId: 7, annotatorId: 1, verdict: 'wrong', label: 'new', answer: null, note: null, seconds: 2, createdAt: 't' };
    const again = annotatorPage({ ...view, current: { ...view.current!, latest: own } });
    expect(again).toContain('<option value="" disabled>choose…</option>');
    expect(again).toContain('<option value="new" selected>new</option>');
    expect(again).toContain('data-judged="1"');
    // Both buttons are there for the script to swap when another tab judged the item: the one that applies shown.
    expect(again).toContain('<button type="button" id="withdraw" class="link"><kbd>u</kbd> withdraw<span class="wide-only"> my verdict</span></button><button type="button" id="skip" class="link" hidden>');
    expect(page).toContain('<button type="button" id="withdraw" class="link" hidden><kbd>u</kbd> withdraw<span class="wide-only"> my verdict</span></button><button type="button" id="skip" class="link">');
  });

  it("asks a dialogue's right answers turn by turn, and any other item's as one", () => {
    const at = (content: ShippedItemContent) => annotatorPage({ ...view, current: { ...view.current!, item: { ...view.current!.item, content } } });
    expect(at(contentOf('dialogue'))).toContain('<label>Right answer, turn by turn (1–3) <input name="answer" id="right" maxlength="2000" value="" placeholder="3: the right answer"></label>');
    expect(at(contentOf('CHANGED'))).toContain('<label>Right answer <input name="answer" id="right" maxlength="2000" value=""></label>');
  });

  it("gives a page with every item judged the guidelines and keys of the audit's kind", () => {
    const done = annotatorPage({ ...view, source: 'growover', current: null });
    expect(done).toContain('All 3 items judged. Thank you.');
    expect(done).toContain('wrong: type the right answer (or a note saying why there is none), then Enter');
    expect(done).not.toContain('choose the right label');
    expect(done).not.toContain('search the old article');
    expect(annotatorPage({ ...view, current: null })).toContain('wrong: choose the right label, then Enter');
  });

  it('says when the verdict shown was withdrawn or the item skipped, and lists every key in the help overlay', () => {
    const withdrawn: Judgment = { id: 4, itemId: 7, annotatorId: 1, verdict: 'debatable', label: null, answer: null, note: null, seconds: null, createdAt: 't' };
    expect(annotatorPage({ ...view, current: { ...view.current!, withdrawn } })).toContain('You withdrew your verdict <strong>debatable</strong> on this item: it is unjudged again.');
    expect(annotatorPage({ ...view, current: { ...view.current!, skipped: true } })).toContain('You skipped this item; it waits at the end of your items');
    const help = annotatorPage(view).match(/<dialog id="help".*?<\/dialog>/s)?.[0] ?? '';
    for (const key of ['1', '2', '3', 's', 'u', '←', '→', 'h', '/', 'n', 'g', '?', 'Esc']) expect(help).toContain(`<kbd>${key}</kbd>`);
    const qaPage = annotatorPage({ ...view, current: { ...view.current!, item: { ...view.current!.item, content: contentOf('CHANGED') } } });
    expect(qaPage.match(/<dialog id="help".*?<\/dialog>/s)?.[0]).not.toContain('<kbd>/</kbd>');
  });
});
