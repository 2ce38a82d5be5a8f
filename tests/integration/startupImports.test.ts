/**
 * The command starts fast because heavy packages load only in the commands that use them
 * (docs/ARCHITECTURE.md §12). Timings are the benchmark's job; this test checks the cause: which
 * packages `--help` and `answer` load at all, through a module hook in the real command's process.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot, tempDir } from '../../testkit/cli.js';

const HEAVY = ['compromise', '@huggingface/transformers', '@energetic-ai/embeddings', 'onnxruntime-node', 'openai', 'mwn', 'wtf_wikipedia', 'saxes', 'bullmq', 'vega', 'vega-lite', 'hyparquet', 'hyparquet-writer', 'wikibase-sdk'];

function packagesLoadedBy(args: string[]): string[] {
  const hook = join(repoRoot, 'tests/support/packageTraceRegister.mjs');
  const result = spawnSync(process.execPath, ['--import', hook, cliPath, ...args], { encoding: 'utf8' });
  expect(result.stderr).toContain('loaded-package commander');
  return [...new Set(result.stderr.split('\n').filter((line) => line.startsWith('loaded-package ')).map((line) => line.slice('loaded-package '.length)))];
}

describe('what the command loads at start-up', () => {
  it('loads none of the heavy packages for --help', () => {
    expect(packagesLoadedBy(['--help']).filter((name) => HEAVY.includes(name))).toEqual([]);
  });

  it('loads none of them for an answer', () => {
    const db = join(tempDir(), 'empty.sqlite');
    const loaded = packagesLoadedBy(['--db', db, 'answer', '--title', 'Berlin', '--key', 'population_total', '--date', '2021-06-01']);
    expect(loaded).toContain('better-sqlite3');
    expect(loaded.filter((name) => HEAVY.includes(name))).toEqual([]);
  });
});
