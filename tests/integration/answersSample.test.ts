import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedSampleAnswerCases } from '../support/answerCases.js';
import { repoRoot, runCli, runCliOk, tempDir } from '../../testkit/cli.js';

const sample = join(repoRoot, 'data/sample/sample-history.xml');

describe('answers for any date on the embedded sample', () => {
  const db = join(tempDir(), 'answers.sqlite');
  embeddedSampleAnswerCases(async () => {
    await runCliOk(['--db', db, 'weekly', '--start', '2025-01-06', '--days', '91', '--dump', sample, '--stages', 'collect,parse,diff,select,timeline']);
    return db;
  }, { movesRecorded: true });

  it('prints {answer, status, rev_id, valid_from, valid_to, aliases} with --json', async () => {
    const result = await runCliOk(['--db', db, '--json', 'answer', '--title', 'Port Aldwin', '--key', 'population_total', '--date', '2025-02-10']);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(['answer', 'status', 'rev_id', 'valid_from', 'valid_to', 'aliases']);
    const missing = await runCli(['--db', db, 'answer', '--title', 'No Such Page', '--key', 'x', '--date', '2025-02-10']);
    expect(missing.code).toBe(1);
    expect(missing.errorCode).toBe('E_PAGE_NOT_FOUND');
  });
});
