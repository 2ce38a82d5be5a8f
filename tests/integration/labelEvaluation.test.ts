/**
 * The labeler measured on the evaluation set (data/eval: the project's pairs and references into
 * the shared versions sample), offline: the targets are no changed sentence labeled
 * unchanged and at least 95% of all pairs right. `npm run eval:labels` prints the same figures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateLabels, formatEvalReport, loadEvalPairs, type EvalPair, type EvalReport } from '../../src/labels/evaluation.js';
import { CachingEmbedder } from '../../src/models/embedder.js';
import { HeuristicNli } from '../../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../../src/models/useEmbedder.js';
import { repoRoot, tempDir } from '../../testkit/cli.js';
import { sharedData } from '../../testkit/sharedData.js';
import { withCode } from '../support/errorCodes.js';

const VERSIONS = join(sharedData, 'versions-sample');
let pairs: EvalPair[];
let report: EvalReport;

beforeAll(async () => {
  pairs = loadEvalPairs(join(repoRoot, 'data/eval'), VERSIONS);
  report = await evaluateLabels(pairs, { embedder: new CachingEmbedder(new UseLiteEmbedder()), nli: new HeuristicNli() });
});

describe('the sentence-label evaluation, offline', () => {
  it('reads the project pairs and the versions-sample references, every id once, all three labels present', () => {
    expect(new Set(pairs.map((pair) => pair.id)).size).toBe(pairs.length);
    expect(pairs.filter((pair) => pair.id.startsWith('versions-')).length).toBeGreaterThanOrEqual(20);
    for (const label of ['unchanged', 'changed', 'new'] as const) expect(pairs.filter((pair) => pair.label === label).length).toBeGreaterThanOrEqual(10);
    expect(pairs.find((pair) => pair.id === 'versions-013')?.old).toBe('1,014,003,817 (july 2000 est.)');
  });

  it('labels no changed sentence unchanged and at least 95% of the pairs right', () => {
    expect(report.changedAsUnchanged, formatEvalReport(report)).toBe(0);
    expect(report.accuracy, formatEvalReport(report)).toBeGreaterThanOrEqual(0.95);
    expect(report.confusion.changed.changed).toBe(report.perLabel.changed.correct);
  });

  it('prints accuracy per label and the confusion matrix', () => {
    const text = formatEvalReport(report);
    expect(text).toMatch(/^overall {2}\d+\/\d+ \d+\.\d%; changed labeled unchanged: 0\n/);
    expect(text).toMatch(/\nexpected \\ predicted +unchanged +changed +new +undecided\n/);
    expect(text).toMatch(/\nchanged +0 +\d+ +\d+ +\d+\n/);
  });

  it('refuses a reference to a sentence that is not there, naming the pair', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'sentence-pairs.jsonl'), '');
    writeFileSync(join(dir, 'versions-sample-pairs.jsonl'), `${JSON.stringify({ id: 'v-1', article: 'Hydrogen peroxide', old: { version: 0, line: 1, sentence: 40 }, new: { version: 1, line: 1, sentence: 0 }, label: 'unchanged' })}\n`);
    expect(() => loadEvalPairs(dir, VERSIONS)).toThrow(withCode('E_LABEL_PAIRS_INVALID', /^evaluation pair v-1: .*0\.txt has no sentence 40 on line 1$/));
  });
});
