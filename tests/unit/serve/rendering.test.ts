import { describe, expect, it } from 'vitest';
import type { AuditItem } from '../../../src/audit/model.js';
import { highlight, wordDiff } from '../../../src/serve/highlight.js';
import { escapeHtml, html } from '../../../src/serve/html.js';
import { itemView } from '../../../src/serve/itemView.js';
import { annotatorPage } from '../../../src/serve/pages.js';
import { AUDIT_CONTENTS, HOSTILE } from '../../../testkit/auditFixture.js';

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
      expect(tagsOf(markup)).not.toContain('a');
      expect(markup).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    }
    const label = itemView(AUDIT_CONTENTS[0]!.content).value;
    expect(label).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(label).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(label).toContain('[javascript:alert(3) the official site]');
  });

  it('marks the changed infobox key and the old answer of a CHANGED item', () => {
    const weekly = itemView(AUDIT_CONTENTS.find((entry) => entry.content.kind === 'weekly')!.content).value;
    expect(weekly).toMatch(/<tr class="changed"><th>▶ manager<\/th><td>John Hale<\/td><td>Kenji Ito<\/td><\/tr>/);
    expect(weekly).toMatch(/<tr class="differs"><th>capacity<\/th>/);
    const changed = itemView(AUDIT_CONTENTS.find((entry) => entry.stratum === 'CHANGED')!.content).value;
    expect(changed).toContain('<dd class="old-answer">9,800</dd>');
    expect(changed).toContain('<mark class="cited">Its population was 11,200 at the 2020 census, up from 9,800 in 2010.</mark>');
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
    const item: AuditItem = { id: 7, auditId: 1, key: 'k', stratum: 'changed', content: AUDIT_CONTENTS[0]!.content };
    const page = annotatorPage({ audit: HOSTILE.script, annotator: HOSTILE.image, total: 3, judged: 1, current: { item, position: 2, latest: null }, previous: 5, next: 9, undo: 5 });
    expect(page.match(/<script\b[^>]*>/g)).toEqual(['<script src="/assets/annotator.js" defer>']);
    expect(page).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    expect(page).toContain('data-item="7" data-prev="5" data-next="9" data-undo="5"');
    expect(page).toContain('<option value="unchanged" selected>');
  });
});
