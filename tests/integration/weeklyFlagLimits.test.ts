/**
 * Flags of `weekly` whose values read fine but cannot be run: refused with one line before a store
 * is written, not a run that does nothing (an empty --stages) or a process that starts a thread per
 * unit asked for until the heap runs out (a huge --threads).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempDir } from '../../testkit/cli.js';

const SAMPLE = join(repoRoot, 'data/sample/sample-history.xml');

describe('weekly flags out of their range', () => {
  it.each([
    [['--stages', ''], 1, 'E_FLAG_INVALID', /--stages names no stage: give some of the weekly stages collect, parse/],
    [['--stages', ' , '], 1, 'E_FLAG_INVALID', /--stages names no stage/],
    [['--threads', '100000'], 2, 'E_USAGE', /--threads must be from 1 to 64/],
    [['--threads', '0'], 2, 'E_USAGE', /--threads must be from 1 to 64/],
  ])('%j is refused with one line, nothing written', async (flags, code, errorCode, message) => {
    const db = join(tempDir(), 'w.sqlite');
    const result = await runCli(['--db', db, 'weekly', '--start', '2025-01-06', '--dump', SAMPLE, '--llm', 'offline', ...flags]);
    expect([result.code, result.errorCode]).toEqual([code, errorCode]);
    const lines = result.stderr.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('wikidelta:'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(message);
    expect(readdirSync(dirname(db))).toEqual([]);
  });
});
