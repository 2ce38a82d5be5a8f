import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliOk, tempDir } from '../../testkit/cli.js';

describe('demo: the GrowOVER half on the embedded sample', () => {
  it("follows one article's QA items across the three monthly snapshots", async () => {
    const dir = tempDir();
    const run = await runCliOk(['--db', join(dir, 'demo.sqlite'), 'demo']);
    const growover = run.stdout.slice(run.stdout.indexOf('GrowOVER items per snapshot'));
    for (const date of ['2025-02-01', '2025-03-01', '2025-04-01']) expect(growover).toMatch(new RegExp(`^ {2}${date}: QA \\d+/\\d+/\\d+/\\d+, turns \\d+/\\d+/\\d+/\\d+$`, 'm'));
    const story = growover.slice(growover.indexOf('one article across the snapshots:'));
    const headings = [...story.matchAll(/^ {2}(\d{4}-\d{2}-\d{2})$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['2025-02-01', '2025-03-01', '2025-04-01']);
    expect(story).toMatch(/^ {4}initial {3}.+ answer: .+ evidence: sentence \d+$/m);
    expect(story).toMatch(/^ {4}unchanged .+ evidence: sentence \d+$/m);
    // A retired item and the CHANGED item that replaces it, with the old and the new answer.
    expect(story).toMatch(/^ {4}retired {3}.+\(evidence sentence \d+ changed\)$/m);
    expect(story).toMatch(/^ {4}changed {3}.+ answer: .+ → .+ evidence: sentence \d+$/m);
    // Kept into April as SAME, March's CHANGED item still knows its old answer: a system giving it is outdated, not wrong.
    const predictions = join(dir, 'stale.jsonl');
    writeFileSync(predictions, `${JSON.stringify({ id: '2025-03-01/101/qa/changed/s8', prediction: '3.5' })}\n`);
    await runCliOk(['--db', join(dir, 'demo.sqlite'), 'evaluate', 'growover', '--snapshot', '2025-04-01', '--predictions', predictions, '--out', join(dir, 'scores')]);
    const items = readFileSync(join(dir, 'scores', 'items.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(items.find((item) => item.id === '2025-03-01/101/qa/changed/s8')).toMatchObject({ type: 'SAME', answer: '3.7', old_answer: '3.5', verdict: 'outdated' });
  }, 300_000);
});
