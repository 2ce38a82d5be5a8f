/**
 * Where a command's one-file output goes, and how `answer` words an answer: small pure helpers of
 * the command layer, found wrong by running the README's commands.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAnswer } from '../../../src/cli/commands/answer.js';
import { dailyQaOutputPath } from '../../../src/cli/commands/dailyqa.js';
import { tempDir } from '../../../testkit/cli.js';

describe('export dailyqa --date D --out PATH', () => {
  it('writes qa_YYMMDD.jsonl into a directory, existing or named with a trailing slash', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'there'));
    expect(dailyQaOutputPath(join(dir, 'there'), '2025-01-20')).toBe(join(dir, 'there', 'qa_250120.jsonl'));
    // `--out releases/` as the README writes it, before anything made releases/
    expect(dailyQaOutputPath(`${join(dir, 'not-yet')}/`, '2025-01-20')).toBe(join(dir, 'not-yet', 'qa_250120.jsonl'));
  });

  it('writes a file when the path names one', () => {
    const dir = tempDir();
    expect(dailyQaOutputPath(join(dir, 'day.jsonl'), '2025-01-20')).toBe(join(dir, 'day.jsonl'));
  });
});

describe('answer, as text', () => {
  it('names the revision that set the value', () => {
    const text = formatAnswer({ answer: '334002', status: 'ok', rev_id: 21120002, valid_from: '2023-01-10T12:00:00Z', valid_to: null, aliases: [] });
    expect(text).toBe('334002\n  from revision 21120002, valid 2023-01-10T12:00:00Z .. (no later change known)');
  });

  it('does not print "revision null" for an imported answer, which has no revision', () => {
    const text = formatAnswer({ answer: '12', status: 'ok', rev_id: null, valid_from: '2025-01-13T00:00:00Z', valid_to: '2025-02-02T00:00:00Z', aliases: [] });
    expect(text).not.toContain('null');
    expect(text).toBe('12\n  imported (no revision), valid 2025-01-13T00:00:00Z .. 2025-02-02T00:00:00Z');
  });
});
