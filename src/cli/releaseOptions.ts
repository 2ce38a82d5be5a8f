/**
 * The options every release-writing command shares (`--previous`, `--no-previous`) and the lines
 * it prints once the release is written: where, its version, and what changed since the release
 * it follows.
 */
import { Option } from 'commander';
import type { PreviousRelease, WrittenRelease } from '../release/writeRelease.js';
import type { OptionsOf } from './options.js';

export interface PreviousFlags {
  /** `--previous DIR` names the release this one follows; `--no-previous` sets it false. */
  previous?: string | boolean;
}

/** `--previous DIR` and `--no-previous`, last in a release command's options; `dirFlag` is the flag naming where the release goes. */
export function previousOptions(dirFlag = '--out'): OptionsOf<PreviousFlags> {
  return {
    previous: [
      new Option('--previous <dir>', `the release this one follows, for its CHANGES.md (default: the release ${dirFlag} held, else the newest earlier one of the same series beside it)`),
      new Option('--no-previous', 'write the release as the first of its series'),
    ],
  };
}

export function previousChoice(flags: PreviousFlags): PreviousRelease {
  if (flags.previous === false) return 'none';
  return typeof flags.previous === 'string' ? { dir: flags.previous } : 'auto';
}

/** The release's version and what it follows, for the command's output. */
export function releaseSummary(written: WrittenRelease): { version: string; previous: string | null; changes: Record<string, unknown> | 'unchanged' } {
  const { manifest, changes } = written;
  return { version: manifest.version, previous: manifest.previous?.version ?? null, changes: changes === 'unchanged' ? 'unchanged' : changes.counts };
}

/** One line: the version, and what it follows or that nothing changed. */
export function releaseLine(written: WrittenRelease): string {
  const { manifest, changes } = written;
  if (changes === 'unchanged') return `  version ${manifest.version}: unchanged, the same data as the release the directory held\n`;
  return `  version ${manifest.version}${manifest.previous ? `, follows ${manifest.previous.version} (see CHANGES.md)` : ', the first of its series'}\n`;
}
