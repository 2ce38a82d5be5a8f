import type { Command } from 'commander';
import { UserError } from '../../errors.js';
import type { GlobalFlags } from '../session.js';
import { refuseUsage } from '../options.js';
import type { Manifest } from '../../release/manifest.js';

/**
 * `release verify DIR` and `release diff OLD NEW`: a release checked against its manifest, and
 * what changed between two releases of a series. Neither opens the store: a release carries all
 * they read, so they work on a downloaded copy.
 */
export function registerRelease(program: Command): void {
  const release = program.command('release').description('check a release against its MANIFEST.json, or compare two releases');
  release
    .command('verify')
    .description("check every file of a release against its MANIFEST.json (size, SHA-256, version); exit 1 naming the first file that differs")
    .argument('<dir>', 'the release directory')
    .action(async (dir: string, _flags: unknown, command: Command) => {
      const { verifyRelease } = await import('../../release/verifyRelease.js');
      const result = await verifyRelease(dir);
      if (!result.ok) throw new UserError('E_RELEASE_INVALID', `${dir}: ${result.file} ${result.problem}`);
      const { manifest } = result;
      process.stdout.write(
        command.optsWithGlobals<GlobalFlags>().json
          ? `${JSON.stringify({ dir, ok: true, version: manifest.version, files: manifest.files.length + 1 })}\n`
          : `${dir}: release ${manifest.version} verified, ${manifest.files.length + 1} files match MANIFEST.json\n`,
      );
    });
  release
    .command('diff')
    .description('what changed from one release of a series to another: queries added and retired, answers changed and on which days, GrowOVER items kept, new and retired, labels changed (markdown; --json: changes.jsonl)')
    .argument('<old>', 'the earlier release directory')
    .argument('<new>', 'the later release directory')
    .action(async (oldDir: string, newDir: string, _flags: unknown, command: Command) => {
      const [{ verifyRelease }, { changesJsonLines, changesMarkdown, diffReleases, directorySource }, { growoverReleasesBetween }] = await Promise.all([
        import('../../release/verifyRelease.js'),
        import('../../release/releaseDiff.js'),
        import('../../release/writeRelease.js'),
      ]);
      // What changed is read from the files: a file that is not the one its manifest lists would make it up.
      const [older, newer] = await Promise.all([oldDir, newDir].map(async (dir) => {
        const result = await verifyRelease(dir);
        if (!result.ok) throw new UserError('E_RELEASE_INVALID', `${dir}: ${result.file} ${result.problem}`);
        return result.manifest;
      })) as [Manifest, Manifest];
      if (older.date > newer.date) refuseUsage(command, `${oldDir} (${older.date}) is later than ${newDir} (${newer.date}): give the earlier release first`);
      const changes = diffReleases(directorySource(oldDir, older), directorySource(newDir, newer), await growoverReleasesBetween(newDir, older, newer));
      process.stdout.write(command.optsWithGlobals<GlobalFlags>().json ? changesJsonLines(changes) : changesMarkdown(changes));
    });
}
