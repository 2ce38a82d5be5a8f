/**
 * GrowOVER scoring through the CLI on two monthly snapshots of the embedded sample (offline items):
 * qa.jsonl names every item by a stable id and gives CHANGED items their old answer; `evaluate
 * growover` reads GrowOVER's results JSON and JSONL alike and scores ALL, SAME, NEW, CHANGED and
 * CHANGED_DEL, and each item's verdict (a CHANGED item answered with its old answer is outdated); the
 * release card's files all exist and parse. `--judge` judges every item offline and through the real
 * `openai` client against the local server (a judge that gives no verdict shows no rate, in text or JSON), and an
 * audit of the judge's verdicts is made from its evaluation directory and reported (one without a
 * judge is refused, naming the command that judges it).
 */
import Sqlite from 'better-sqlite3';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { QaLine } from '../../src/release/growoverFormats.js';
import { Store } from '../../src/store/store.js';
import { jsonLines, repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';
import { startOpenAiServer } from '../../testkit/openaiServer.js';
import { servePredictionAudit } from '../../testkit/predictionAudit.js';
import { checkCard, growoverTwins, parquetRows } from '../support/datasetCard.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');
const [FIRST, SECOND] = ['2025-02-01', '2025-03-01'];

describe('evaluate growover', () => {
  let dir: string;
  let db: string;
  let items: Array<{ id: string; type: string; answer: string; old_answer?: string }>;

  beforeAll(async () => {
    dir = tempDir();
    db = join(dir, 'monthly.sqlite');
    for (const date of [FIRST, SECOND]) await runCliOk(['--db', db, 'snapshot', '--name', date, '--dump', SAMPLE, '--as-of', date]);
    await runCliOk(['--db', db, 'monthly', '--new', FIRST, '--llm', 'offline']);
    await runCliOk(['--db', db, 'monthly', '--old', FIRST, '--new', SECOND, '--llm', 'offline']);
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', SECOND, '--out', join(dir, 'release')]);
    items = readFileSync(join(dir, 'release', 'qa.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .flatMap((line) => Object.values(QaLine.parse(JSON.parse(line))).flat());
  }, 300_000);

  it('gives every QA item a stable id, and CHANGED items their old answer', async () => {
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    const changed = items.filter((item) => item.type === 'CHANGED');
    expect(changed.length).toBeGreaterThan(0);
    for (const item of changed) expect(item.old_answer).not.toBe(item.answer);
    expect(items.filter((item) => item.type !== 'CHANGED').every((item) => item.old_answer === undefined)).toBe(true);
    // The same store exports the same ids again.
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', SECOND, '--out', join(dir, 'again')]);
    expect(readFileSync(join(dir, 'again', 'qa.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'release', 'qa.jsonl'), 'utf8'));
  });

  it('releases the items as Parquet tables that DuckDB reads back row for row, and the card types them', async () => {
    const release = join(dir, 'release');
    const card = await checkCard(release, growoverTwins(release));
    expect(card.configs.map((c) => c.config_name)).toEqual(['qa', 'dialogue', 'turn']);
    const qa = (await parquetRows(join(release, 'qa.parquet'))).rows;
    expect(qa.map((row) => row.id).sort()).toEqual(items.map((item) => item.id).sort());
    expect(qa.filter((row) => row.type === 'CHANGED').every((row) => typeof row.old_answer === 'string')).toBe(true);
  });

  it("writes each month's changes against the month before: items kept, new, and retired with the reason the store gives", async () => {
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', FIRST, '--out', join(dir, 'first')]);
    // Written after the first month's, beside it: that release is the one it follows.
    const second = join(dir, 'second');
    await runCliOk(['--db', db, 'export', 'growover', '--snapshot', SECOND, '--out', second]);
    const manifest = JSON.parse(readFileSync(join(second, 'MANIFEST.json'), 'utf8'));
    const first = JSON.parse(readFileSync(join(dir, 'first', 'MANIFEST.json'), 'utf8'));
    expect(manifest.previous).toEqual({ version: first.version, directory: 'first' });
    const [summary, ...changes] = jsonLines(readFileSync(join(second, 'changes.jsonl'), 'utf8'));
    const store = new Sqlite(db, { readonly: true });
    const retiredInStore = store.prepare('SELECT id, retired_reason AS reason FROM growover_qa WHERE retired_snapshot = ? ORDER BY id').all(SECOND) as Array<{ id: string; reason: string }>;
    store.close();
    const retired = changes.filter((change) => change.change === 'item_retired' && change.item === 'qa');
    expect(retired.length).toBeGreaterThan(0);
    expect(retired.map(({ id, reason }) => ({ id, reason }))).toEqual(retiredInStore);
    const firstIds = growoverTwins(join(dir, 'first')).qa?.map((row) => String(row.id)) ?? [];
    const kept = changes.filter((change) => change.change === 'item_kept' && change.item === 'qa').map((change) => String(change.id));
    const made = changes.filter((change) => change.change === 'item_new' && change.item === 'qa').map((change) => String(change.id));
    expect([...kept, ...retired.map((change) => String(change.id))].sort()).toEqual([...firstIds].sort());
    expect([...kept, ...made].sort()).toEqual(items.map((item) => item.id).sort());
    expect(summary?.counts).toMatchObject({ qa: { before: firstIds.length, after: items.length, kept: kept.length, new: made.length, retired: retired.length } });
    expect(readFileSync(join(second, 'CHANGES.md'), 'utf8')).toMatch(new RegExp(`\\| QA items \\| ${firstIds.length} \\| ${items.length} \\| ${kept.length} \\| ${made.length} \\| ${retired.length} \\|`));
    // release diff of the two directories says the same as the release's own changes.jsonl.
    const diffed = await runCliOk(['--json', 'release', 'diff', join(dir, 'first'), second]);
    expect(diffed.stdout).toBe(readFileSync(join(second, 'changes.jsonl'), 'utf8'));
  });

  it("scores ALL, SAME, NEW, CHANGED and CHANGED_DEL from GrowOVER's results JSON and from JSONL alike", async () => {
    // SAME items answered right, NEW items left empty, CHANGED items answered with the old answer.
    const reply = (item: (typeof items)[number]) => (item.type === 'SAME' ? `${item.answer}\nextra line` : item.type === 'NEW' ? '' : (item.old_answer ?? ''));
    const results = join(dir, 'results.json');
    writeFileSync(results, JSON.stringify(Object.fromEntries(items.map((item) => [item.id, { prediction: { text: reply(item) }, type: item.type }])), null, 2));
    const fromJson = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', results])).stdout);
    const count = (type: string) => items.filter((item) => item.type === type).length;
    // Percent, each with its 95% interval over the snapshot's items.
    expect(fromJson.ALL).toMatchObject({ n: items.length, em: (100 * count('SAME')) / items.length, f1: (100 * count('SAME')) / items.length });
    expect(fromJson.ALL.ci.em[0]).toBeLessThan(fromJson.ALL.em);
    expect(fromJson.ALL.ci.em[1]).toBeGreaterThan(fromJson.ALL.em);
    const all: [number, number] = [100, 100];
    const none: [number, number] = [0, 0];
    expect(fromJson.SAME).toEqual({ n: count('SAME'), em: 100, f1: 100, current: 100, outdated: 0, wrong: 0, ci: { em: all, f1: all, current: all, outdated: none, wrong: none } });
    expect(fromJson.NEW).toEqual({ n: count('NEW'), em: 0, f1: 0, current: 0, outdated: 0, wrong: 100, ci: { em: none, f1: none, current: none, outdated: none, wrong: all } });
    // The sample's changed numbers ("3.5" → "3.7", "4.2.0" → "4.2.1", …) share no token once normalised:
    // a CHANGED item answered with its old answer is outdated, every one of them (CHANGED_DEL, generalised).
    expect(fromJson.CHANGED).toMatchObject({ n: count('CHANGED'), em: 0, f1: 0, current: 0, outdated: 100, wrong: 0 });
    expect(fromJson.CHANGED_DEL).toMatchObject({ n: count('CHANGED'), em: 100, f1: 100, outdated: 100 });
    expect(fromJson.ALL).toMatchObject({ current: (100 * count('SAME')) / items.length, outdated: (100 * count('CHANGED')) / items.length });
    // Each item's verdict is written with its scores.
    const out = join(dir, 'evaluation');
    await runCliOk(['--db', db, 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', results, '--out', out]);
    const verdicts = jsonLines(readFileSync(join(out, 'items.jsonl'), 'utf8')).map((item) => [item.type, item.verdict]);
    expect(new Set(verdicts.map(([type, verdict]) => `${String(type)} ${String(verdict)}`))).toEqual(new Set(['SAME current', 'NEW wrong', 'CHANGED outdated']));

    const jsonl = join(dir, 'predictions.jsonl');
    writeFileSync(jsonl, `${items.map((item) => JSON.stringify({ id: item.id, prediction: reply(item) })).join('\n')}\n`);
    const fromJsonl = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', jsonl])).stdout);
    expect(fromJsonl).toEqual(fromJson);
  });

  it('shows a group without items (a first snapshot has no SAME or CHANGED item) as no rate, in the report and on the leaderboard, never as 0.0', async () => {
    const first = (await runCliOk(['--db', db, 'export', 'growover', '--snapshot', FIRST, '--out', join(dir, 'first-only')])) && join(dir, 'first-only', 'qa.jsonl');
    const firstItems = readFileSync(first, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .flatMap((line) => Object.values(QaLine.parse(JSON.parse(line))).flat());
    expect(new Set(firstItems.map((item) => item.type))).toEqual(new Set(['NEW']));
    const subs = join(dir, 'subs-first');
    const system = join(subs, 'oracle');
    mkdirSync(system, { recursive: true });
    writeFileSync(join(system, `growover-${FIRST}.jsonl`), `${firstItems.map((item) => JSON.stringify({ id: item.id, prediction: item.answer })).join('\n')}\n`);
    const text = (await runCliOk(['--db', db, 'evaluate', 'growover', '--snapshot', FIRST, '--predictions', join(system, `growover-${FIRST}.jsonl`)])).stdout;
    for (const group of ['SAME', 'CHANGED', 'CHANGED_DEL']) {
      const line = text.split('\n').find((l) => l.trimStart().startsWith(`${group} `)) ?? '';
      expect(line, group).toMatch(/n=\s+0\s+EM\s+—\s+F1\s+—/);
      expect(line, group).not.toContain('0.0');
    }
    const json = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'growover', '--snapshot', FIRST, '--predictions', join(system, `growover-${FIRST}.jsonl`)])).stdout);
    const boardJson = JSON.parse((await runCliOk(['--db', db, '--json', 'leaderboard', '--submissions', subs])).stdout);
    for (const group of ['SAME', 'CHANGED', 'CHANGED_DEL']) {
      for (const scores of [json[group], boardJson.growover[0].entries[0][group]]) expect(scores, group).toEqual({ n: 0, em: null, f1: null, current: null, outdated: null, wrong: null, ci: null });
    }
    expect(json.NEW).toMatchObject({ em: 100, ci: { em: [100, 100] } });
    const board = (await runCliOk(['--db', db, 'leaderboard', '--submissions', subs])).stdout;
    const row = board.split('\n').find((l) => l.startsWith('| 1 | oracle |')) ?? '';
    // rank, system, ALL F1, ALL EM, SAME F1, NEW F1, CHANGED F1, CHANGED_DEL EM, current, outdated, wrong, CHANGED outdated, items, missing, outside
    const cells = row.split('|').slice(1, -1).map((cell) => cell.trim());
    expect(cells.slice(2, 12)).toEqual(['100.0 [100.0, 100.0]', '100.0 [100.0, 100.0]', '–', '100.0 [100.0, 100.0]', '–', '–', '100.0 [100.0, 100.0]', '0.0 [0.0, 0.0]', '0.0 [0.0, 0.0]', '–']);
  });

  it("judges every item against its dated values, offline by the rules and through an LLM, and audits the LLM judge's verdicts", async () => {
    // SAME items answered right (a second line GrowOVER's scorer does not read), NEW items left empty, CHANGED items answered with the old answer.
    const reply = (item: (typeof items)[number]) => (item.type === 'SAME' ? `${item.answer}\nextra line` : item.type === 'NEW' ? '' : (item.old_answer ?? ''));
    const predictions = join(dir, 'judged.jsonl');
    writeFileSync(predictions, `${items.map((item) => JSON.stringify({ id: item.id, prediction: reply(item) })).join('\n')}\n`);
    const count = (type: string) => items.filter((item) => item.type === type).length;
    const rates = { correct: (100 * count('SAME')) / items.length, outdated: (100 * count('CHANGED')) / items.length, wrong: (100 * count('NEW')) / items.length };
    const evaluate = ['--db', db, 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', predictions];

    const offline = join(dir, 'judged-offline');
    await runCliOk([...evaluate, '--judge', 'offline', '--out', offline]);
    const offlineReport = JSON.parse(readFileSync(join(offline, 'report.json'), 'utf8'));
    expect(offlineReport.evaluation).toEqual({ snapshot: SECOND, date: SECOND });
    expect(offlineReport.judge).toMatchObject({ judge: 'rules', prompt: { name: 'rule-based-verdict' }, n: items.length, failed: 0, relaxed: rates, strict: rates });
    const lines = jsonLines(readFileSync(join(offline, 'items.jsonl'), 'utf8'));
    expect(lines.map((line) => [line.type, (line.judge as { relaxed: string }).relaxed])).toEqual(lines.map((line) => [line.type, line.type === 'SAME' ? 'correct' : line.type === 'NEW' ? 'wrong' : 'outdated']));
    // Each line carries what an audit shows: the question and the dated values; a CHANGED item's old answer held until the snapshot that made it.
    const changed = lines.find((line) => line.type === 'CHANGED');
    expect(changed?.question).toEqual(expect.any(String));
    expect(changed?.timeline).toEqual([
      { value: changed?.old_answer, from: '', to: SECOND, seen: false },
      { value: changed?.answer, from: SECOND, to: null, seen: true },
    ]);
    // The text report has the judge's section, as evaluate weekly's.
    const text = (await runCliOk([...evaluate, '--judge', 'offline'])).stdout;
    expect(text).toMatch(/^judge rules: the rule-based verdict .* 0 without a verdict\n {2}relaxed {2}correct /m);

    const server = await startOpenAiServer();
    try {
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
      const out = join(dir, 'judged-openai');
      const first = JSON.parse((await runCliOk(['--json', ...evaluate, '--judge', 'openai', '--out', out], { env })).stdout);
      // Every item is its own question: one prompt each, none failed, and the model reads the dates.
      expect(first.judge).toMatchObject({ judge: 'openai', prompt: { name: 'prediction-judge', version: '1' }, n: items.length, failed: 0, prompts: items.length, requests: items.length, cache_hits: 0 });
      expect(first.judge.relaxed).toMatchObject(rates);
      expect(first.judge.agreement_with_rules).toEqual({ relaxed: 100, strict: 100 });
      const prompt = server.requests.map((request) => request.body.messages[0]?.content ?? '').find((content) => content.includes(`System's reply: ${changed?.old_answer}\n`)) ?? '';
      expect(prompt).toContain(`- until ${SECOND}: ${changed?.old_answer}\n- from ${SECOND} (in effect when asked): ${changed?.answer}\n`);
      expect(prompt).not.toMatch(/from +or earlier/);
      const judged = jsonLines(readFileSync(join(out, 'items.jsonl'), 'utf8'));
      expect(judged.every((line) => typeof (line.judge as { relaxed?: string }).relaxed === 'string')).toBe(true);
      // Run again: every verdict from the store's cache.
      const again = JSON.parse((await runCliOk(['--json', ...evaluate, '--judge', 'openai'], { env })).stdout);
      expect(server.requests).toHaveLength(items.length);
      expect(again.judge).toMatchObject({ requests: 0, cache_hits: items.length, relaxed: first.judge.relaxed });

      const audit = await servePredictionAudit(db, out, 'growover-judge', items.length);
      try {
        expect(audit.items).toHaveLength(items.length);
        expect(new Set(audit.items.map((item) => item.stratum))).toEqual(new Set(['correct', 'outdated', 'wrong']));
        // Both accept every verdict.
        for (const name of ['alice', 'bob'] as const) {
          for (const item of audit.items) {
            const response = await audit.judge(name, { item: item.id, verdict: 'correct' });
            expect(response.status, await response.clone().text()).toBe(201);
          }
        }
        // A CHANGED item's page: the old answer's start not known, held until the snapshot, then the answer in effect.
        const outdated = audit.items.find((item) => item.stratum === 'outdated');
        const page = await (await fetch(`${audit.url}/a/${audit.tokens.alice}?item=${outdated?.id}`)).text();
        expect(page).toContain(`<td><span class="na">(not known)</span></td><td><span class="date">${SECOND}</span></td>`);
        expect(page).toContain(`<td><span class="date">${SECOND}</span></td><td><strong>in effect when asked</strong></td>`);
        expect(page).toContain(`asked on <span class="date">${SECOND}</span>`);
      } finally {
        await audit.close();
      }
      const report = JSON.parse((await runCliOk(['--db', db, '--json', 'audit', 'report', '--name', 'growover-judge'])).stdout);
      expect(report.judge).toMatchObject({ judge: 'openai/gpt-4o-mini', mode: 'relaxed', n: items.length, kappa: 1, left_out: { no_majority: 0, unjudged: 0 } });
      expect(report.precision.by_stratum.outdated).toMatchObject({ value: 1, n: count('CHANGED') });
    } finally {
      await server.stop();
    }
  });

  it('refuses to audit a GrowOVER evaluation made without a judge, naming the command that judges it', async () => {
    const same = items.find((item) => item.type === 'SAME');
    const predictions = join(dir, 'unjudged.jsonl');
    writeFileSync(predictions, `${JSON.stringify({ id: same?.id, prediction: same?.answer })}\n`);
    const out = join(dir, 'unjudged');
    await runCliOk(['--db', db, 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', predictions, '--out', out]);
    const refused = await runCli(['--db', db, 'audit', 'create', '--name', 'unjudged', '--of', 'predictions', '--evaluation', out, '--annotators', 'alice', '--raters', '1']);
    expect(refused.code).toBe(1);
    // It said "evaluate weekly|growover": no command to run.
    expect(refused.stderr).toContain(`E_EVALUATION_INVALID: ${out}: the evaluation has no judge: run wikidelta evaluate growover --snapshot ${SECOND} --predictions FILE --judge openai --out ${out}`);
  });

  it('shows a judge that gave no verdict at all as no rate, never as 0.0', async () => {
    const predictions = join(dir, 'all-answered.jsonl');
    writeFileSync(predictions, `${items.map((item) => JSON.stringify({ id: item.id, prediction: item.answer })).join('\n')}\n`);
    const junk = await startOpenAiServer({ alwaysFault: 'schema-violation' });
    try {
      const env = { OPENAI_BASE_URL: junk.baseURL, OPENAI_API_KEY: 'k', WIKIDELTA_LLM_INVALID_RETRIES: '0' };
      const out = join(dir, 'no-verdict');
      const text = (await runCliOk(['--db', db, 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', predictions, '--judge', 'openai', '--out', out], { env })).stdout;
      expect(text).toContain(`${items.length} answers judged, ${items.length} without a verdict`);
      expect(text).toContain('  relaxed  correct —  outdated —  wrong —\n');
      expect(text).toContain('  strict   correct —  outdated —  wrong —\n');
      expect(text).toContain('  the same verdict as the rules, over the replies judged: —\n');
      // The JSON report likewise: null rates, not a 0 a script would read as a score.
      const judge = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).judge;
      for (const mode of ['relaxed', 'strict']) expect(judge[mode]).toEqual({ n: 0, correct: null, outdated: null, wrong: null, ci: null });
    } finally {
      await junk.stop();
    }
  });

  it('counts a missing prediction as an empty reply and reports ids the snapshot does not hold', async () => {
    const same = items.find((item) => item.type === 'SAME');
    const jsonl = join(dir, 'partial.jsonl');
    writeFileSync(jsonl, `${JSON.stringify({ id: 'no-such-item', prediction: 'x' })}\n${JSON.stringify({ id: same?.id, prediction: same?.answer })}\n`);
    const report = JSON.parse((await runCliOk(['--db', db, '--json', 'evaluate', 'growover', '--snapshot', SECOND, '--predictions', jsonl])).stdout);
    expect(report.ALL).toMatchObject({ n: items.length, em: 100 / items.length, f1: 100 / items.length });
    expect(report.missing).toBe(items.length - 1);
    expect(report.outside).toEqual({ n: 1, sample: ['no-such-item'] });
  });

  it('scores, answers, ranks and audits no month whose monthly run stopped part way, and ranks no month without items', async () => {
    // The second month's run stopped in generate: its items kept from the first month are there, its new
    // and CHANGED ones are not. The release refuses it; so must every consumer of its items.
    const stopped = join(dir, 'stopped.sqlite');
    copyFileSync(db, stopped);
    const store = Store.open(stopped);
    store.growover.clearStage(SECOND, 'generate');
    store.close();
    const subs = join(dir, 'subs-stopped');
    mkdirSync(join(subs, 'oracle'), { recursive: true });
    writeFileSync(join(subs, 'oracle', `growover-${SECOND}.jsonl`), `${items.map((item) => JSON.stringify({ id: item.id, prediction: item.answer })).join('\n')}\n`);
    const refusals = [
      ['export', 'growover', '--snapshot', SECOND, '--out', join(dir, 'stopped-release')],
      ['evaluate', 'growover', '--snapshot', SECOND, '--predictions', join(subs, 'oracle', `growover-${SECOND}.jsonl`)],
      ['predict', 'growover', '--system', 'evidence', '--snapshot', SECOND, '--llm', 'offline', '--out', join(dir, 'stopped.jsonl')],
      ['leaderboard', '--submissions', subs],
      ['audit', 'create', '--name', 'stopped', '--of', 'growover', '--snapshot', SECOND, '--annotators', 'alice', '--raters', '1'],
    ];
    for (const args of refusals) {
      const result = await runCli(['--db', stopped, ...args]);
      expect([args[0], result.code, result.errorCode], result.stderr).toEqual([args[0], 1, 'E_PREREQUISITE_MISSING']);
      // The month is made from the month before: the command names it, or it would start over from nothing.
      expect(result.stderr).toContain(`run wikidelta monthly --old ${FIRST} --new ${SECOND} again`);
    }
    // Made again from the first month, the second holds no item at all until its run is done again:
    // nothing to rank, as evaluate says, rather than every system at 0.0 over 0 items.
    const cleared = Store.open(stopped);
    cleared.growover.clearAfter(FIRST);
    cleared.close();
    const board = await runCli(['--db', stopped, 'leaderboard', '--submissions', subs]);
    expect([board.code, board.errorCode], board.stderr).toEqual([1, 'E_NOTHING_TO_SCORE']);
    expect(board.stderr).toContain(`snapshot "${SECOND}"`);
    const release = await runCli(['--db', stopped, 'export', 'growover', '--snapshot', SECOND, '--out', join(dir, 'cleared-release')]);
    expect([release.code, release.errorCode], release.stderr).toEqual([1, 'E_PREREQUISITE_MISSING']);
    expect(release.stderr).toContain(`run wikidelta monthly --old ${FIRST} --new ${SECOND} first`);
  });
});
