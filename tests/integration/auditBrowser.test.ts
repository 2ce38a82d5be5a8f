/**
 * The annotator's and maintainer's pages in Debian's chromium against the real server on loopback:
 * two annotators judge at the same time with the keyboard (one withdraws a verdict with u, skips an
 * item with s and gets it back at the end, opens her items with h and the keys with ?, reloads
 * half-way and goes on where she was), a third posts through the API, hostile wiki text stays
 * inert (no dialog, no request leaves for another address), and the report equals the one worked
 * out by hand below. The weekly item shows its change above the verdict bar at 1280x900 and on a
 * 390 px screen (the right answer's box too); errors are seen; a page left open for days sends a
 * day; the dark scheme follows the system's; a stale second tab on one item replaces, withdraws or
 * skips nothing unawares. A GrowOVER prediction keeps its reply's lines and its column heads whole
 * on a phone. Screenshots go to $AUDIT_SHOTS (default tests/.artifacts/audit-pages).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditReport } from '../../src/audit/report.js';
import { renewLinks } from '../../pipelines/audit/build.js';
import { startAuditServer, type AuditServer } from '../../src/serve/server.js';
import { Store } from '../../src/store/store.js';
import { GROWOVER_PREDICTION_CONTENT, seedAudit, type SeededAudit } from '../../testkit/auditFixture.js';
import { launchChromium } from '../../testkit/browser.js';
import { repoRoot, tempDir } from '../../testkit/cli.js';

// The callbacks given to evaluate() run in the page; the project compiles without the DOM library,
// so the page's globals they use are declared here, loosely.
declare const document: any;
declare const NodeFilter: { SHOW_TEXT: number };
declare function getComputedStyle(element: unknown): { backgroundColor: string; color: string };

const SHOTS = process.env.AUDIT_SHOTS ?? join(repoRoot, 'tests/.artifacts/audit-pages');
const Z = 1.959964;

let store: Store;
let server: AuditServer;
let seeded: SeededAudit;
let browser: Browser;
const incidents: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  store = Store.open(join(tempDir('wikidelta-browser-'), 'store.sqlite'));
  seeded = seedAudit(store, { annotators: ['alice', 'bob', 'carol', 'dana'] });
  server = await startAuditServer({ store, host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  store?.close();
});

/** A page in its own browser context that records any dialog, script error or request to another address. */
async function openPage(who: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    incidents.push(`${who}: dialog ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => incidents.push(`${who}: script error ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(`${server.url}/`)) incidents.push(`${who}: request to ${request.url()}`);
  });
  return page;
}

/** Presses a key that saves a verdict or moves, and waits for the page it leads to. */
async function pressAndLoad(page: Page, key: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.keyboard.press(key)]);
}

const shownItem = async (page: Page) => Number(await page.locator('body').getAttribute('data-item'));
const position = (page: Page) => page.locator('nav .position').textContent();
const top = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())?.y ?? Number.NaN;
const aliceRows = () => {
  const audits = store.audits;
  const alice = audits.annotators(seeded.audit.id).find((annotator) => annotator.name === 'alice');
  return audits.judgments(seeded.audit.id).filter((row) => row.annotatorId === alice?.id);
};

/**
 * Whether every word of the cells lies on one line: a cell may wrap between words (or after a key's
 * "_"), never inside one, unless the word alone is wider than the cell.
 */
const wordsUnbroken = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((cells) =>
    cells.every((cell) => {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const rects = [...range.getClientRects()];
          const width = rects.reduce((sum, rect) => sum + rect.width, 0);
          if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1 && width <= cell.clientWidth) return false;
        }
      }
      return true;
    }),
  );

async function alice(page: Page, items: number[]): Promise<void> {
  await page.goto(`${server.url}/a/${seeded.tokens.alice}`);
  expect(await position(page)).toBe('item 1 of 7');
  expect(await page.locator('.item h2 .title').textContent()).toBe('Riverton <script>alert(1)</script>');
  expect(await page.locator('.sentence p').textContent()).toBe('The mayor is <img src=x onerror=alert(2)> Jane Doe, see [javascript:alert(3) the official site].');
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
  expect(await page.locator('script').count()).toBe(1);
  await page.keyboard.press('g');
  await page.screenshot({ path: join(SHOTS, 'annotator-label.png'), fullPage: true });
  await page.keyboard.press('g');
  await pressAndLoad(page, '1');
  await pressAndLoad(page, '2');

  // A CHANGED item: the old evidence beside the new.
  expect(await shownItem(page)).toBe(items[2]);
  expect(await page.locator('.old-evidence p').textContent()).toBe('Its population was 9,800 at the 2010 census.');
  expect(await page.locator('.new-evidence mark').textContent()).toBe('11,200');
  await page.keyboard.press('3');
  await page.keyboard.type('9,800');
  await page.screenshot({ path: join(SHOTS, 'annotator-qa-changed.png'), fullPage: true });
  await pressAndLoad(page, 'Enter');

  // u withdraws the verdict just given: its item comes back unjudged, and a new verdict goes on where she was.
  expect(await shownItem(page)).toBe(items[3]);
  await pressAndLoad(page, 'u');
  expect(await shownItem(page)).toBe(items[2]);
  expect(await page.locator('.notice.withdrawn').textContent()).toBe('You withdrew your verdict wrong on this item: it is unjudged again.');
  expect(await page.locator('#progress-text').textContent()).toBe('2 / 7 judged');
  expect(aliceRows().map((row) => [row.verdict, row.withdrawn])).toEqual([['correct', false], ['debatable', false], ['wrong', false], ['wrong', true]]);
  await pressAndLoad(page, '1');
  expect(await shownItem(page)).toBe(items[3]);
  await pressAndLoad(page, 'ArrowLeft');
  expect(await position(page)).toBe('item 3 of 7');
  await pressAndLoad(page, 'ArrowRight');
  expect(await position(page)).toBe('item 4 of 7');
  await page.screenshot({ path: join(SHOTS, 'annotator-qa-dialogue.png'), fullPage: true });

  // s puts the dialogue off: on to the weekly item, the change at the top, the infobox folded.
  await pressAndLoad(page, 's');
  expect(await shownItem(page)).toBe(items[4]);
  expect(await page.locator('#progress-text').textContent()).toBe('3 / 7 judged');
  expect(await page.locator('.skipped-count').textContent()).toBe('· 1 skipped');
  const changedRow = await top(page, '#change tr.changed');
  const verdictBar = await top(page, 'form#verdict');
  expect(changedRow).toBeLessThan(verdictBar - 100);
  expect(await page.locator('#change tr.changed').textContent()).toBe('managerJohn HaleKenji Ito');
  expect(await page.locator('#change .revisions a').evaluateAll((links) => links.map((link) => (link as unknown as { href: string }).href))).toEqual([
    'https://en.wikipedia.org/w/index.php?oldid=1006',
    'https://en.wikipedia.org/w/index.php?oldid=1010',
    'https://en.wikipedia.org/w/index.php?diff=1010&oldid=1006',
  ]);
  expect(await page.locator('details#infobox').evaluate((details) => (details as unknown as { open: boolean }).open)).toBe(false);
  await page.screenshot({ path: join(SHOTS, 'weekly-1280x900.png') });
  console.log(`weekly item at 1280x900: changed row at y=${changedRow}, verdict bar at y=${verdictBar}`);
  await page.locator('details#infobox summary').click();
  expect(await page.locator('details#infobox tr', { hasText: 'dissolved' }).locator('td').allTextContents()).toEqual(['(blank)', '(blank)']);
  expect(await wordsUnbroken(page, 'th.key')).toBe(true);
  await page.keyboard.press('3');
  await page.keyboard.type('John Hale');
  await pressAndLoad(page, 'Enter');

  await page.reload();
  expect(await position(page)).toBe('item 6 of 7');
  expect(await page.locator('#progress-text').textContent()).toBe('4 / 7 judged');
  await pressAndLoad(page, '1');

  // The `new` label: the closest old sentences, and the old article searched for a word.
  expect(await shownItem(page)).toBe(items[6]);
  expect(await page.locator('#closest li').allTextContents()).toEqual([
    '0.41 The station opened in 1850 on the northern line.',
    '0.37 Steam trains called at the station until 1968.',
    '0.22 The line was doubled in 1901.',
  ]);
  await page.screenshot({ path: join(SHOTS, 'label-new.png') });
  await page.keyboard.press('/');
  await page.keyboard.type('1968');
  expect(await page.locator('#old-sentences li:visible').allTextContents()).toEqual(['Steam trains called at the station until 1968.', 'Diesel units have served it since 1968, hourly to the city.']);
  expect(await page.locator('#old-sentences mark').allTextContents()).toEqual(['1968', '1968']);
  expect(await page.locator('#old-search-count').textContent()).toBe('2 of 6 sentences hold "1968"');
  await page.screenshot({ path: join(SHOTS, 'label-new-search.png') });
  await page.keyboard.press('Escape');

  // 3 then Enter chooses nothing for her: the error is said, loudly, and nothing is saved.
  const before = aliceRows().length;
  await page.keyboard.press('3');
  expect(await page.locator('#right').inputValue()).toBe('');
  await page.keyboard.press('Enter');
  await page.locator('#status.error').waitFor();
  expect(await page.locator('#status').textContent()).toBe('Choose the right label first: a wrong label is saved with the one it should be.');
  expect(await page.locator('#status').evaluate((status) => getComputedStyle(status).backgroundColor)).toBe('rgb(179, 38, 30)');
  expect(aliceRows()).toHaveLength(before);
  await page.selectOption('#right', 'unchanged');
  await pressAndLoad(page, 'Enter');

  // The skipped dialogue comes back at the end.
  expect(await shownItem(page)).toBe(items[3]);
  expect(await page.locator('.notice.skipped').count()).toBe(1);
  await page.keyboard.press('h');
  await page.locator('#history-table tbody tr').nth(6).waitFor();
  expect(await page.locator('#history-table tbody tr td:last-child').allTextContents()).toEqual([
    'judged: correct', 'judged: debatable', 'judged: correct', 'skipped', 'judged: wrong', 'judged: correct', 'judged: wrong',
  ]);
  expect(await page.locator('#history-status').textContent()).toBe('6 judged · 1 skipped · 0 to do');
  // Each judged state in its verdict's colour: every one was green, a wrong verdict too.
  const stateColours = await page.locator('#history-table tbody tr td:last-child').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).color));
  expect(stateColours[4]).toBe(stateColours[6]);
  expect(new Set([stateColours[0], stateColours[1], stateColours[3], stateColours[4]]).size).toBe(4);
  await page.screenshot({ path: join(SHOTS, 'history.png') });
  await page.keyboard.press('Escape');
  expect(await page.locator('#history').evaluate((dialog) => (dialog as unknown as { open: boolean }).open)).toBe(false);
  await page.keyboard.press('?');
  expect(await page.locator('#help').isVisible()).toBe(true);
  expect(await page.locator('#help dt').count()).toBe(11);
  await page.screenshot({ path: join(SHOTS, 'help.png') });
  await page.keyboard.press('1');
  expect(await shownItem(page)).toBe(items[3]);
  await page.keyboard.press('?');
  expect(await page.locator('#help').isVisible()).toBe(false);
  await pressAndLoad(page, '1');
  expect(await page.locator('.done h2').textContent()).toBe('All 7 items judged. Thank you.');
  await page.screenshot({ path: join(SHOTS, 'annotator-done.png'), fullPage: true });
}

async function bob(page: Page): Promise<void> {
  await page.goto(`${server.url}/a/${seeded.tokens.bob}`);
  await page.keyboard.press('3');
  await page.selectOption('#right', 'new');
  await pressAndLoad(page, 'Enter');
  for (const key of ['1', '1', '2', '1', '2', '1']) await pressAndLoad(page, key);
  expect(await page.locator('#progress-text').textContent()).toBe('7 / 7 judged');
}

/** The third rater is a script on the JSON API. */
async function carol(items: number[]): Promise<void> {
  const bodies = [
    { verdict: 'wrong', label: 'new' },
    { verdict: 'correct' },
    { verdict: 'correct' },
    { verdict: 'wrong', answer: '1820' },
    { verdict: 'wrong', answer: 'John Hale' },
    { verdict: 'debatable', note: 'the timeline shows two managers this week' },
    { verdict: 'correct' },
  ];
  for (const [index, body] of bodies.entries()) {
    const response = await fetch(`${server.url}/api/judgments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded.tokens.carol}` },
      body: JSON.stringify({ item: items[index], seconds: 4, ...body }),
    });
    expect(response.status).toBe(201);
  }
}

function wilson(k: number, n: number) {
  const p = k / n;
  const denominator = 1 + (Z * Z) / n;
  const centre = (p + (Z * Z) / (2 * n)) / denominator;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / denominator;
  return { value: p, low: centre - half, high: centre + half, n };
}

describe('audit pages in chromium', () => {
  it('two annotators judge with the keyboard at once, a third by API; the report is the hand computation', async () => {
    const items = seeded.items.map((item) => item.id);
    const admin = await openPage('admin');
    await admin.goto(`${server.url}/admin/${seeded.adminToken}`);
    await Promise.all([alice(await openPage('alice'), items), bob(await openPage('bob')), carol(items)]);

    // Latest verdicts (alice · bob · carol) and the strict majority of each item:
    //   0 changed   correct · wrong · wrong        → wrong
    //   1 unchanged debatable · correct · correct  → correct
    //   2 CHANGED   correct · correct · correct    → correct (alice first said wrong, then withdrew it)
    //   3 dialogue  correct · debatable · wrong    → none: left out of n, disputed
    //   4 sports    wrong · correct · wrong        → wrong
    //   5 NEW       correct · debatable · debatable → debatable
    //   6 new       wrong · correct · correct      → correct
    // precision (correct + debatable) = 4 of 6, strict (correct) = 3 of 6; disputed: every item but 2.
    // Disputed as half: precision 1/2 + 1 + 1 + 1/2 + 1/2 + 1 + 1/2 = 5 of 7; strict 1/2 + 1/2 + 1 +
    // 1/2 + 1/2 + 1/2 + 1/2 = 4 of 7. alice against the others' majority: items 0, 1, 5, 6 disagree,
    // 2 agrees, 3 and 4 have none → 1/5. dana, assigned everything, judged nothing.
    const report = auditReport(store.audits.reportInput(seeded.audit));
    expect(report.majority.map((entry) => entry.verdict)).toEqual(['wrong', 'correct', 'correct', null, 'wrong', 'debatable', 'correct']);
    expect(report.n_judgments).toBe(21);
    for (const [measure, k] of [['precision', 4], ['strict', 3]] as const) {
      const expected = wilson(k, 6);
      expect(report[measure].overall.n).toBe(6);
      expect(report[measure].overall.value).toBeCloseTo(expected.value, 10);
      expect(report[measure].overall.low).toBeCloseTo(expected.low, 6);
      expect(report[measure].overall.high).toBeCloseTo(expected.high, 6);
    }
    expect(report.left_out.overall).toEqual({ no_majority: 1, unjudged: 0 });
    for (const [measure, k] of [['precision', 5], ['strict', 4]] as const) {
      const expected = wilson(k, 7);
      expect(report.disputed_as_half[measure].overall.value).toBeCloseTo(expected.value, 10);
      expect(report.disputed_as_half[measure].overall.low).toBeCloseTo(expected.low, 6);
    }
    expect(report.disputed.map((entry) => entry.item)).toEqual([0, 1, 3, 4, 5, 6].map((index) => items[index]));
    expect(report.annotators.find((entry) => entry.name === 'alice')?.agreement_with_majority).toBeCloseTo(1 / 5, 10);
    expect(report.annotators.map((entry) => entry.name)).toEqual(['alice', 'bob', 'carol', 'dana']);

    const rows = store.audits.judgments(seeded.audit.id);
    expect(rows).toHaveLength(23);
    expect(rows.every((row) => row.withdrawn || (row.seconds !== null && row.seconds >= 0 && row.seconds <= 86_400))).toBe(true);
    expect(aliceRows().map((row) => [row.verdict, row.label, row.answer, row.withdrawn])).toEqual([
      ['correct', null, null, false],
      ['debatable', null, null, false],
      ['wrong', null, '9,800', false],
      ['wrong', null, null, true],
      ['correct', null, null, false],
      ['wrong', null, 'John Hale', false],
      ['correct', null, null, false],
      ['wrong', 'unchanged', null, false],
      ['correct', null, null, false],
    ]);

    const served = await fetch(`${server.url}/api/admin/report`, { headers: { authorization: `Bearer ${seeded.adminToken}` } });
    expect(await served.json()).toEqual(JSON.parse(JSON.stringify(report)));

    // The maintainer's page refreshes on its own: its panel catches up with every verdict.
    await admin.waitForFunction(
      () => [...document.querySelectorAll('.admin-progress tbody tr')].filter((row) => row.children[1]?.textContent === '7').length === 3,
      undefined,
      { timeout: 15_000 },
    );
    expect(await admin.locator('.admin-disputed h2 small').textContent()).toBe('6');
    // Agreement with the others' majority: bob 1 of 2 (items 2 and 4), carol 1 of 1 (item 2).
    const progress = await admin.locator('.admin-progress tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 5).map((cell) => cell.textContent)));
    expect(progress).toEqual([
      ['alice', '7', '7', '', '20.0%'],
      ['bob', '7', '7', '', '50.0%'],
      ['carol', '7', '7', '', '100.0%'],
      ['dana', '0', '7', '', '—'],
    ]);
    expect(await admin.locator('.admin-progress tbody tr', { hasText: 'carol' }).locator('td').last().textContent()).toBe('4.0 s');
    expect(await admin.locator('.admin-figures tr.overall td').first().textContent()).toBe('66.7% [30.0%, 90.3%] n=6left out: 1 (1 no majority)');
    expect(await admin.locator('.admin-figures tr.overall td').nth(2).textContent()).toBe('71.4% [35.9%, 91.8%] n=7left out: 0');
    expect(await admin.locator('.admin-time h2 small').textContent()).toMatch(/^median \d+\.\d s over 21 timed verdicts$/);
    expect(await admin.locator('.admin-time tbody tr').count()).toBe(5);
    await admin.screenshot({ path: join(SHOTS, 'admin.png'), fullPage: true });
    // On a phone the wide tables scroll inside their box: the progress table (its bars) widened the
    // whole page to about 590 px, which the phone then showed zoomed out.
    const phoneAdmin = await openPage('phone admin', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phoneAdmin.goto(`${server.url}/admin/${seeded.adminToken}`);
    await phoneAdmin.locator('.admin-progress tbody tr').first().waitFor();
    expect(await phoneAdmin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    expect(incidents).toEqual([]);
  }, 180_000);

  it('shows the change of a weekly item above the verdict bar on a 390 px screen, and in the dark scheme', async () => {
    const weekly = seeded.items[4]!.id;
    const phone = await openPage('phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${server.url}/a/${seeded.tokens.dana}?item=${weekly}`);
    const changedRow = await top(phone, '#change tr.changed');
    const verdictBar = await top(phone, 'form#verdict');
    expect(changedRow).toBeLessThan(verdictBar - 100);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: join(SHOTS, 'weekly-390.png') });
    console.log(`weekly item at 390x844: changed row at y=${changedRow}, verdict bar at y=${verdictBar}`);
    // A date breaks at none of its hyphens: the heading showed "week of 2024-" over "03-04".
    expect(await wordsUnbroken(phone, '.item h2, .timeline td')).toBe(true);
    await phone.locator('details#infobox summary').click();
    expect(await wordsUnbroken(phone, 'th.key')).toBe(true);
    expect(await wordsUnbroken(phone, 'details#infobox td')).toBe(true);
    // Before and after share the width under their key: no value squeezed into a sliver.
    expect(Math.min(...(await phone.locator('details#infobox tbody td').evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().width))))).toBeGreaterThan(150);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: join(SHOTS, 'weekly-390-infobox.png'), fullPage: true });
    await phone.keyboard.press('h');
    await phone.locator('#history-table tbody tr').first().waitFor();
    // The item column may break a long title anywhere; the number and the state only between words.
    expect(await wordsUnbroken(phone, '#history-table :is(th, td):is(:first-child, :last-child)')).toBe(true);
    await phone.screenshot({ path: join(SHOTS, 'history-390.png') });
    await phone.keyboard.press('Escape');
    // The right answer's box fits the phone too: it was 24rem wide and the page scrolled sideways.
    await phone.keyboard.press('3');
    expect(await phone.locator('#right').isVisible()).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const dark = await openPage('dark', { colorScheme: 'dark' });
    await dark.goto(`${server.url}/a/${seeded.tokens.dana}?item=${weekly}`);
    expect(await dark.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(20, 24, 30)');
    expect(await dark.locator('#change tr.changed').evaluate((row) => getComputedStyle(row).backgroundColor)).toBe('rgb(92, 82, 18)');
    await dark.screenshot({ path: join(SHOTS, 'dark.png') });
    const light = await openPage('light', { colorScheme: 'light' });
    await light.goto(`${server.url}/a/${seeded.tokens.dana}?item=${weekly}`);
    expect(await light.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(incidents).toEqual([]);
  }, 60_000);

  it("shows a GrowOVER reply's lines as given and the values' column heads whole on a 390 px screen", async () => {
    const growover = seedAudit(store, { name: 'growover-judge', annotators: ['erin'], contents: [{ stratum: 'outdated', content: GROWOVER_PREDICTION_CONTENT }] });
    const phone = await openPage('phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${server.url}/a/${growover.tokens.erin}`);
    // GrowOVER's scorer and the rule-based verdict read the first line: the annotator sees where it ends.
    expect(await phone.locator('.item-prediction dd.answer').innerText()).toBe('3\nIt may be 4 by now');
    // Short values let the value column shrink: its head broke into "valu" over "e".
    const headLines = await phone.locator('.timeline thead th').evaluateAll((cells) =>
      cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect: { top: number }) => Math.round(rect.top))).size;
      }),
    );
    expect(headLines).toEqual([1, 1, 1]);
    // Nor do its dates break at a hyphen: "asked on 2025-04-" over "01", "2025-03-" over "01" in the squeezed from column.
    expect(await wordsUnbroken(phone, '.item h2, .timeline td')).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The value in effect when asked, what the reply is checked against, is seen without scrolling (the judge's
    // verdict is in the question above); the sticky verdict bar covered it.
    const bottom = async (selector: string) => {
      const box = await phone.locator(selector).first().boundingBox();
      return box === null ? Number.NaN : box.y + box.height;
    };
    const verdictBar = await top(phone, 'form#verdict');
    console.log(`GrowOVER prediction at 390x844: value in effect ends at y=${await bottom('.timeline tr.changed')}, judge's verdict at y=${await bottom('.item-prediction .proposed')}, verdict bar at y=${verdictBar}`);
    await phone.screenshot({ path: join(SHOTS, 'growover-prediction-390-first-screen.png') });
    expect(await bottom('.timeline tr.changed')).toBeLessThanOrEqual(verdictBar);
    await phone.screenshot({ path: join(SHOTS, 'growover-prediction-390.png'), fullPage: true });
    // Values as long as a date did not fit the column the dates and "in effect when asked" left them:
    // "38,940" showed as "38,94" over "0", a number an annotator could misread.
    const numbers = seedAudit(store, {
      name: 'judge-numbers',
      annotators: ['erin'],
      contents: [
        {
          stratum: 'wrong',
          content: {
            ...GROWOVER_PREDICTION_CONTENT,
            timeline: [
              { from: '2025-02-04', to: '2025-02-05', value: '38,940', seen: true },
              { from: '2025-02-05', to: null, value: '43,450', seen: true },
            ],
          },
        },
      ],
    });
    await phone.goto(`${server.url}/a/${numbers.tokens.erin}`);
    expect(await wordsUnbroken(phone, '.timeline td')).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(incidents).toEqual([]);
  }, 60_000);

  it('says loudly when a verdict is not saved, and sends a page left open for days as a day', async () => {
    const page = await openPage('dana');
    await page.clock.install();
    await page.goto(`${server.url}/a/${seeded.tokens.dana}?item=${seeded.items[1]!.id}`);
    await page.route('**/api/judgments', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the store is busy' }) }));
    const [refused] = await Promise.all([page.waitForResponse('**/api/judgments'), page.keyboard.press('1')]);
    expect(refused.status()).toBe(503);
    await page.locator('#status.error').waitFor();
    expect(await page.locator('#status').textContent()).toBe('Not saved: the store is busy');
    expect(await page.locator('#status').getAttribute('role')).toBe('alert');
    await page.screenshot({ path: join(SHOTS, 'error.png') });
    await page.unroute('**/api/judgments');

    await page.clock.fastForward(60 * 3600 * 1000);
    const [posted] = await Promise.all([page.waitForRequest('**/api/judgments'), page.waitForEvent('load'), page.keyboard.press('1')]);
    expect(posted.postDataJSON()).toEqual({ item: seeded.items[1]!.id, verdict: 'correct', seconds: 86_400, version: 0 });
    const audits = store.audits;
    const dana = audits.annotators(seeded.audit.id).find((annotator) => annotator.name === 'dana')!;
    expect(audits.judgments(seeded.audit.id).filter((row) => row.annotatorId === dana.id).map((row) => row.seconds)).toEqual([86_400]);
    expect(incidents).toEqual([]);
  }, 60_000);
  it("shows the whole old article again when Esc empties its search box (the browser's clearing sends no input event)", async () => {
    const page = await openPage('search');
    await page.goto(`${server.url}/a/${seeded.tokens.dana}?item=${seeded.items[6]!.id}`);
    await page.keyboard.press('/');
    await page.keyboard.type('1968');
    expect(await page.locator('#old-sentences li:visible').count()).toBe(2);
    await page.keyboard.press('Escape');
    expect(await page.locator('#old-search').inputValue()).toBe('');
    expect(await page.locator('#old-sentences li:visible').count()).toBe(6);
    expect(await page.locator('#old-sentences mark').count()).toBe(0);
    expect(await page.locator('#old-search-count').textContent()).toBe('');
    expect(incidents).toEqual([]);
  }, 60_000);
  it("never lets a stale tab replace or withdraw a verdict given in another unawares: it shows the verdict standing, a second press replaces it", async () => {
    const item = seeded.items[5]!.id;
    const link = `${server.url}/a/${seeded.tokens.dana}?item=${item}`;
    const audits = store.audits;
    const dana = audits.annotators(seeded.audit.id).find((annotator) => annotator.name === 'dana')!;
    const rows = () => audits.judgments(seeded.audit.id).filter((row) => row.itemId === item && row.annotatorId === dana.id).map((row) => [row.verdict, row.withdrawn]);
    const first = await openPage('first tab');
    const second = await first.context().newPage();
    await first.goto(link);
    await second.goto(link);

    await pressAndLoad(first, '1');
    await second.keyboard.press('2');
    await second.locator('#status.error').waitFor();
    expect(await second.locator('#status').textContent()).toBe('Not saved: since this page was loaded you judged this item correct in another tab or on another device (shown above). Give your verdict again to replace it.');
    expect(await second.locator('.previous-verdict').textContent()).toBe('Your verdict so far: correct');
    expect([await second.locator('#withdraw').isVisible(), await second.locator('#skip').isVisible()]).toEqual([true, false]);
    expect(rows()).toEqual([['correct', false]]);
    await second.screenshot({ path: join(SHOTS, 'stale-tab.png') });
    await pressAndLoad(second, '2');
    expect(rows()).toEqual([['correct', false], ['debatable', false]]);

    // Both tabs show debatable; the second replaces it with correct, then the first presses u.
    await first.goto(link);
    await second.goto(link);
    await pressAndLoad(second, '1');
    await first.keyboard.press('u');
    await first.locator('#status.error').waitFor();
    expect(await first.locator('#status').textContent()).toBe('Not withdrawn: since this page was loaded that verdict was replaced by correct in another tab or on another device. Press u again to withdraw it.');
    expect(await first.locator('.previous-verdict').textContent()).toBe('Your verdict so far: correct');
    expect(rows()).toEqual([['correct', false], ['debatable', false], ['correct', false]]);
    await pressAndLoad(first, 'u');
    expect(await first.locator('.notice.withdrawn').textContent()).toBe('You withdrew your verdict correct on this item: it is unjudged again.');
    expect(rows().at(-1)).toEqual(['correct', true]);

    // Unjudged in both tabs, judged in the first: s in the second skips nothing and says why.
    await second.goto(link);
    await pressAndLoad(first, '2');
    await second.keyboard.press('s');
    await second.locator('#status.error').waitFor();
    expect(await second.locator('#status').textContent()).toBe('Not saved: since this page was loaded you judged this item debatable in another tab or on another device (shown above). Give your verdict again to replace it.');
    expect(audits.assignedItems(dana.id).find((entry) => entry.itemId === item)).toMatchObject({ latest: { verdict: 'debatable' }, skipped: null });
    expect(incidents).toEqual([]);
  }, 60_000);
  it('opens the guidelines with g where they are seen, below a long item too', async () => {
    const page = await openPage('guidelines');
    await page.goto(`${server.url}/a/${seeded.tokens.dana}?item=${seeded.items[4]!.id}`);
    const verdicts = page.locator('#guidelines h3').first();
    await page.keyboard.press('g');
    const box = await verdicts.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(900);
    // Seen, not under the sticky verdict bar.
    expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent, { x: box!.x + 5, y: box!.y + box!.height / 2 })).toBe('Verdicts');
    await page.screenshot({ path: join(SHOTS, 'guidelines-g.png') });
    await page.keyboard.press('g');
    expect(await page.locator('details#guidelines').evaluate((details) => (details as unknown as { open: boolean }).open)).toBe(false);
    expect(incidents).toEqual([]);
  }, 60_000);
  it("closes the right answer's box unsaved with Esc, the page's keys working again at once", async () => {
    const page = await openPage('escape');
    await page.goto(`${server.url}/a/${seeded.tokens.dana}?item=${seeded.items[2]!.id}`);
    const saved = store.audits.judgments(seeded.audit.id).length;
    const focused = () => page.evaluate(() => document.activeElement?.tagName);
    await page.keyboard.press('3');
    await page.keyboard.type('9,800');
    await page.keyboard.press('Escape');
    expect(await page.locator('#correction').isVisible()).toBe(false);
    expect(await focused()).toBe('BODY');
    expect(await page.locator('#status').textContent()).toBe('');
    await page.keyboard.press('?');
    expect(await page.locator('#help').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    // From the box's button too; opened again, it holds what was typed.
    await page.keyboard.press('3');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('BUTTON');
    await page.keyboard.press('Escape');
    expect(await page.locator('#correction').isVisible()).toBe(false);
    await page.keyboard.press('3');
    expect(await page.locator('#right').inputValue()).toBe('9,800');
    expect(store.audits.judgments(seeded.audit.id)).toHaveLength(saved);
    expect(incidents).toEqual([]);
  }, 60_000);
  it("brings a stale tab's counter up to the server's with a refused verdict, and withdraws no other verdict with u while its item, shown unjudged, was judged since", async () => {
    const [skipped, judgedElsewhere] = [seeded.items[2]!.id, seeded.items[3]!.id];
    const audits = store.audits;
    const dana = audits.annotators(seeded.audit.id).find((annotator) => annotator.name === 'dana')!;
    const rows = () => audits.judgments(seeded.audit.id).filter((row) => row.annotatorId === dana.id).map((row) => [row.itemId, row.verdict, row.withdrawn]);
    const link = (item: number) => `${server.url}/a/${seeded.tokens.dana}?item=${item}`;
    const counter = (page: Page) => page.locator('.progress').evaluate((bar: any) => `${bar.querySelector('progress').value} ${bar.innerText}`);
    const first = await openPage('first tab of two');
    const second = await first.context().newPage();
    await second.goto(link(judgedElsewhere));
    const loaded = await counter(second);

    // The first tab skips one item and judges the one the second shows, which then presses 2.
    await first.goto(link(skipped));
    await pressAndLoad(first, 's');
    await first.goto(link(judgedElsewhere));
    await pressAndLoad(first, '1');
    await second.keyboard.press('2');
    await second.locator('#status.error').waitFor();
    const fresh = await first.context().newPage();
    await fresh.goto(link(judgedElsewhere));
    expect(await counter(second)).toBe(await counter(fresh));
    expect(await counter(second)).not.toBe(loaded);
    expect(await second.locator('#skipped-count').isVisible()).toBe(true);

    // Both show the skipped item unjudged, u meaning the verdict on judgedElsewhere; the first judges it: u in the second withdraws nothing.
    await first.goto(link(skipped));
    await second.goto(link(skipped));
    expect(await second.locator('.notice.skipped').count()).toBe(1);
    await pressAndLoad(first, '2');
    const before = rows();
    await second.keyboard.press('u');
    await second.locator('#status.error').waitFor();
    expect(await second.locator('#status').textContent()).toBe('Not withdrawn: since this page was loaded you judged this item debatable in another tab or on another device (shown above). Press u again to withdraw that verdict.');
    expect(await second.locator('.previous-verdict').textContent()).toBe('Your verdict so far: debatable');
    expect(await second.locator('.notice').count()).toBe(0);
    expect(rows()).toEqual(before);
    expect(await shownItem(second)).toBe(skipped);
    await second.screenshot({ path: join(SHOTS, 'stale-withdrawal.png') });
    // Now shown, that verdict is the one u takes back.
    await pressAndLoad(second, 'u');
    expect(await shownItem(second)).toBe(skipped);
    expect(rows()).toEqual([...before, [skipped, 'debatable', true]]);
    expect(incidents).toEqual([]);
  }, 60_000);
  it('takes the letter keys with Caps Lock on', async () => {
    const page = await openPage('caps lock');
    await page.goto(`${server.url}/a/${seeded.tokens.dana}?item=${seeded.items[6]!.id}`);
    await page.keyboard.press('G');
    expect(await page.locator('details#guidelines').evaluate((details) => (details as unknown as { open: boolean }).open)).toBe(true);
    await page.keyboard.press('H');
    await page.locator('#history-table tbody tr').first().waitFor();
    expect(await page.locator('#history').evaluate((dialog) => (dialog as unknown as { open: boolean }).open)).toBe(true);
    await page.keyboard.press('H');
    expect(await page.locator('#history').evaluate((dialog) => (dialog as unknown as { open: boolean }).open)).toBe(false);
    expect(incidents).toEqual([]);
  }, 60_000);
  it("tells an annotator whose link was renewed to ask for the new one, and sends nothing more, instead of 'try again in 59 s'", async () => {
    const page = await openPage('renewed carol');
    await page.goto(`${server.url}/a/${seeded.tokens.carol}?item=${seeded.items[0]!.id}`);
    const sent: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/')) sent.push(response.status());
    });
    renewLinks(store, seeded.audit.name, ['carol']);
    const deadLink = 'this link no longer opens the audit (renewed?): ask the maintainer for your new link';
    // Pressed again and again, as a verdict that does not save is: past ten failed tokens a machine's were answered 429.
    for (let press = 0; press < 12; press++) {
      await page.keyboard.press('1');
      await page.waitForTimeout(50);
    }
    await page.locator('#status.error').waitFor();
    expect(await page.locator('#status').textContent()).toBe(`Not saved: ${deadLink}`);
    await page.keyboard.press('h');
    await page.locator('#history-status.error').waitFor();
    expect(await page.locator('#history-status').textContent()).toBe(`Your items could not be loaded: ${deadLink}.`);
    expect(sent).toEqual([401]);
    expect(incidents).toEqual([]);
  }, 60_000);
  // Last: it renews the maintainer's link, which the tests above use.
  it("stops refreshing a maintainer's page whose link was renewed, and says so, instead of failing every 3 s", async () => {
    const admin = await openPage('stale admin');
    await admin.clock.install();
    await admin.goto(`${server.url}/admin/${seeded.adminToken}`);
    const panels: number[] = [];
    admin.on('response', (response) => {
      if (response.url().endsWith('/api/admin/panel')) panels.push(response.status());
    });
    renewLinks(store, seeded.audit.name, ['maintainer']); // the fixture's admin
    // A minute of a tab left open: one refused refresh, then none (each would count as a failed
    // token of this machine, which after ten answers every mistyped link on it with 429).
    for (let second = 0; second < 60; second += 3) {
      await admin.clock.runFor(3_000);
      await admin.waitForTimeout(20);
    }
    await admin.waitForTimeout(200);
    expect(panels).toEqual([401]);
    expect(await admin.locator('#updated').textContent()).toMatch(/^this link no longer opens the audit/);
    expect(await admin.locator('#updated').getAttribute('class')).toContain('error');
    const mistyped = await fetch(`${server.url}/api/next`, { headers: { authorization: 'Bearer not-a-token-of-this-audit' } });
    expect(mistyped.status).toBe(401);
  }, 60_000);
});
