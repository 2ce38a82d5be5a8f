/**
 * The annotator's and maintainer's pages in Debian's chromium against the real server on loopback:
 * two annotators judge at the same time with the keyboard (one reloads half-way and goes on where
 * she was), a third posts through the API, hostile wiki text stays inert (no dialog, no request
 * leaves for another address), and the report equals the one worked out by hand below. The tests
 * write screenshots of every item kind and of the maintainer's page to tests/.artifacts/.
 */
import type { Database } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditReport } from '../../src/audit/report.js';
import { AuditStore } from '../../src/store/auditStore.js';
import { openDatabase } from '../../src/store/database.js';
import { startAuditServer, type AuditServer } from '../../src/serve/server.js';
import { seedAudit, type SeededAudit } from '../../testkit/auditFixture.js';
import { launchChromium } from '../../testkit/browser.js';
import { repoRoot, tempDir } from '../../testkit/cli.js';

const SHOTS = join(repoRoot, 'tests/.artifacts/audit-pages');
const Z = 1.959964;

let db: Database;
let server: AuditServer;
let seeded: SeededAudit;
let browser: Browser;
const incidents: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  db = openDatabase(join(tempDir('wikidelta-browser-'), 'store.sqlite'));
  seeded = seedAudit(db, { annotators: ['alice', 'bob', 'carol'] });
  server = await startAuditServer({ db, host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  db?.close();
});

/** A page in its own browser context that records any dialog, script error or request to another address. */
async function openPage(who: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

  expect(await shownItem(page)).toBe(items[2]);
  await page.keyboard.press('3');
  await page.keyboard.type('9,800');
  await page.screenshot({ path: join(SHOTS, 'annotator-qa-changed.png'), fullPage: true });
  await pressAndLoad(page, 'Enter');

  // u: back to the verdict just given; a new one replaces it and the page goes on where it was.
  await pressAndLoad(page, 'u');
  expect(await shownItem(page)).toBe(items[2]);
  expect(await page.locator('.previous-verdict').textContent()).toContain('wrong (answer 9,800)');
  await pressAndLoad(page, '1');
  expect(await shownItem(page)).toBe(items[3]);
  await pressAndLoad(page, 'ArrowLeft');
  expect(await position(page)).toBe('item 3 of 7');
  await pressAndLoad(page, 'ArrowRight');
  expect(await position(page)).toBe('item 4 of 7');
  await page.screenshot({ path: join(SHOTS, 'annotator-qa-dialogue.png'), fullPage: true });
  await pressAndLoad(page, '1');

  await page.reload();
  expect(await position(page)).toBe('item 5 of 7');
  expect(await page.locator('#progress-text').textContent()).toBe('4 / 7 judged');
  await page.keyboard.press('3');
  await page.keyboard.type('John Hale');
  await page.screenshot({ path: join(SHOTS, 'annotator-weekly.png'), fullPage: true });
  await pressAndLoad(page, 'Enter');
  await page.screenshot({ path: join(SHOTS, 'annotator-qa-new.png'), fullPage: true });
  await pressAndLoad(page, '1');
  await page.keyboard.press('3');
  expect(await page.locator('#right:focus').count()).toBe(1);
  await page.selectOption('#right', 'unchanged');
  await page.screenshot({ path: join(SHOTS, 'annotator-label-new.png'), fullPage: true });
  await pressAndLoad(page, 'Enter');
  expect(await page.locator('.done h2').textContent()).toBe('All 7 items judged. Thank you.');
  await page.screenshot({ path: join(SHOTS, 'annotator-done.png'), fullPage: true });
}

async function bob(page: Page): Promise<void> {
  await page.goto(`${server.url}/a/${seeded.tokens.bob}`);
  await page.keyboard.press('3');
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
    //   2 CHANGED   correct · correct · correct    → correct (alice first said wrong, then undid it)
    //   3 dialogue  correct · debatable · wrong    → none: left out of n, disputed
    //   4 sports    wrong · correct · wrong        → wrong
    //   5 NEW       correct · debatable · debatable → debatable
    //   6 new       wrong · correct · correct      → correct
    // precision (correct + debatable) = 4 of 6, strict (correct) = 3 of 6; disputed: every item but 2.
    // alice against the others' majority: items 0, 1, 5, 6 disagree, 2 agrees, 3 and 4 have none → 1/5.
    const store = new AuditStore(db);
    const report = auditReport({ audit: seeded.audit, items: store.items(seeded.audit.id), annotators: store.annotators(seeded.audit.id), judgments: store.latestJudgments(seeded.audit.id) });
    expect(report.majority.map((entry) => entry.verdict)).toEqual(['wrong', 'correct', 'correct', null, 'wrong', 'debatable', 'correct']);
    expect(report.n_judgments).toBe(21);
    for (const [measure, k] of [['precision', 4], ['strict', 3]] as const) {
      const expected = wilson(k, 6);
      expect(report[measure].overall.n).toBe(6);
      expect(report[measure].overall.value).toBeCloseTo(expected.value, 10);
      expect(report[measure].overall.low).toBeCloseTo(expected.low, 6);
      expect(report[measure].overall.high).toBeCloseTo(expected.high, 6);
    }
    expect(report.disputed.map((entry) => entry.item)).toEqual([0, 1, 3, 4, 5, 6].map((index) => items[index]));
    expect(report.annotators.find((entry) => entry.name === 'alice')?.agreement_with_majority).toBeCloseTo(1 / 5, 10);

    const rows = store.judgments(seeded.audit.id);
    expect(rows).toHaveLength(22);
    expect(rows.every((row) => row.seconds !== null && row.seconds >= 0)).toBe(true);
    const aliceRows = rows.filter((row) => store.annotators(seeded.audit.id).find((annotator) => annotator.id === row.annotatorId)?.name === 'alice');
    expect(aliceRows.map((row) => [row.verdict, row.label, row.answer])).toEqual([
      ['correct', null, null],
      ['debatable', null, null],
      ['wrong', null, '9,800'],
      ['correct', null, null],
      ['correct', null, null],
      ['wrong', null, 'John Hale'],
      ['correct', null, null],
      ['wrong', 'unchanged', null],
    ]);

    const served = await fetch(`${server.url}/api/admin/report`, { headers: { authorization: `Bearer ${seeded.adminToken}` } });
    expect(await served.json()).toEqual(JSON.parse(JSON.stringify(report)));

    // The maintainer's page refreshes on its own: its panel catches up with every verdict.
    await admin.locator('.admin-disputed h2 small').filter({ hasText: /^6$/ }).waitFor({ timeout: 15_000 });
    // Agreement with the others' majority: bob 1 of 2 (items 2 and 4), carol 1 of 1 (item 2).
    expect(await admin.locator('.admin-progress tbody tr').allTextContents()).toEqual(['alice7720.0%', 'bob7750.0%', 'carol77100.0%']);
    await admin.screenshot({ path: join(SHOTS, 'admin.png'), fullPage: true });

    expect(incidents).toEqual([]);
  }, 180_000);
});
