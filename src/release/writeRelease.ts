/**
 * Writes a release as a versioned dataset (docs/ARCHITECTURE.md §8): its data files, then
 * CHANGES.md and changes.jsonl against the release it follows, then MANIFEST.json naming every
 * file, all swapped in as one directory. The release it follows is the one given, else the release
 * the directory held (what its readers had until now), else the newest earlier release of the
 * same series beside it. A release whose data did not change is written again as it was: same
 * version, same predecessor, same changelog, so the same store gives the same bytes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { Store } from '../store/store.js';
import { writeFilesAtomically } from './atomicFiles.js';
import { releaseRuns } from './releaseRuns.js';
import { codeVersion } from './codeVersion.js';
import { releaseEntry, rowsOf } from './formats/index.js';
import { verifyRelease } from './verifyRelease.js';
import {
  CHANGES_FILE,
  CHANGES_JSONL_FILE,
  MANIFEST_FILE,
  RELEASE_SCHEMA_VERSION,
  byPath,
  contentHash,
  fileEntry,
  manifestText,
  readManifest,
  releaseVersion,
  sha256,
  Manifest,
  type FileEntry,
  type ReleaseKind,
} from './manifest.js';
import { changesJsonLines, changesMarkdown, diffReleases, directorySource, filesSource, firstRelease, type ReleaseChanges, type ReleaseSource } from './releaseDiff.js';

/** What a release kind renders: its files and what its manifest says of them. */
export interface ReleaseDraft {
  kind: ReleaseKind;
  series: string;
  date: string;
  /** The command that writes it again from the same store, without --out. */
  command: string;
  parameters: Record<string, unknown>;
  files: ReadonlyMap<string, string | Uint8Array>;
}

/** The release a new one follows: a directory, found beside it (`auto`), or none. */
export type PreviousRelease = { dir: string } | 'auto' | 'none';

export interface WrittenRelease {
  manifest: Manifest;
  /** `unchanged`: the directory held this very release, rewritten as it was. */
  changes: ReleaseChanges | 'unchanged';
}

/**
 * Writes the release rendered from `store` into `dir`; the manifest records this code's version and
 * the store's schema version and the runs of the pipelines that write what the kind reads.
 */
export async function writeRelease(store: Store, dir: string, draft: ReleaseDraft, previous: PreviousRelease = 'auto'): Promise<WrittenRelease> {
  const entries = (files: Iterable<[string, string | Uint8Array]>): Promise<FileEntry[]> =>
    Promise.all([...files].map(async ([path, content]) => fileEntry(path, content, await rowsOf(path, content))));
  const data = await entries(draft.files);
  const content = contentHash(data);
  const version = releaseVersion(draft.date, content);
  const identity = { kind: draft.kind, series: draft.series, version, parameters: draft.parameters };
  const held = releaseHeldIn(dir);
  if (held !== undefined && held.series !== draft.series) {
    throw new UserError('E_OUTPUT_DIR_FOREIGN', `${dir} holds a release of another series (${held.series}, ${held.date}), which this one (${draft.series}) would replace: give another directory`);
  }
  const before = previousRelease(dir, held, draft, previous);

  let changes: WrittenRelease['changes'];
  let follows: Manifest['previous'];
  let changeFiles: Array<[string, string | Uint8Array]>;
  let madeBy: Pick<Manifest, 'wikidelta' | 'store'> = {
    wikidelta: codeVersion(),
    store: { schema_version: store.schemaVersion(), runs: releaseRuns(store.runs, draft.kind, draft.parameters) },
  };
  if (before && resolve(before.dir) === resolve(dir) && before.manifest.version === version) {
    changes = 'unchanged';
    follows = before.manifest.previous;
    // The same data, made by the code and runs that made it first: later runs that changed nothing of it are not its makers.
    madeBy = { wikidelta: before.manifest.wikidelta, store: before.manifest.store };
    changeFiles = [CHANGES_FILE, CHANGES_JSONL_FILE].map((name) => [name, releaseFile(dir, name, before.manifest)]);
  } else {
    if (before) await refuseAltered(before.dir);
    changes = before
      ? diffReleases(directorySource(before.dir, before.manifest), filesSource(draft.files, identity), await growoverReleasesBetween(dir, before.manifest, draft))
      : firstRelease(filesSource(draft.files, identity));
    follows = before ? { version: before.manifest.version, directory: basename(resolve(before.dir)) } : null;
    changeFiles = [
      [CHANGES_FILE, changesMarkdown(changes)],
      [CHANGES_JSONL_FILE, changesJsonLines(changes)],
    ];
  }

  const manifest: Manifest = {
    manifest: 'wikidelta release',
    schema_version: RELEASE_SCHEMA_VERSION,
    kind: draft.kind,
    series: draft.series,
    date: draft.date,
    version,
    content_sha256: content,
    wikidelta: madeBy.wikidelta,
    command: draft.command,
    parameters: draft.parameters,
    store: madeBy.store,
    previous: follows,
    files: [...data, ...(await entries(changeFiles))].sort((a, b) => byPath(a.path, b.path)),
  };
  // Checked as a reader will check it, so a release never carries a manifest its own verify refuses.
  Manifest.parse(manifest);
  const files = new Map<string, string | Uint8Array>([...draft.files, ...changeFiles, [MANIFEST_FILE, manifestText(manifest)]]);
  writeFilesAtomically(dir, files, releaseEntry());
  return { manifest, changes };
}

/**
 * The release this one follows: the one `dir` holds (`held`) when of its series and not of a later
 * date, else the newest earlier one beside it, or the one chosen. A release never follows a later
 * one: its changes would run backwards (`release diff` refuses that order too).
 */
function previousRelease(dir: string, held: Manifest | undefined, draft: ReleaseDraft, choice: PreviousRelease): { dir: string; manifest: Manifest } | undefined {
  if (choice === 'none') return undefined;
  if (choice !== 'auto') {
    const manifest = readManifest(choice.dir);
    if (manifest.date > draft.date) {
      throw new UserError('E_FLAG_INVALID', `--previous ${choice.dir} (${manifest.date}) is later than this release (${draft.date}): give an earlier release, or --no-previous`);
    }
    return { dir: choice.dir, manifest };
  }
  if (held && held.series === draft.series && held.date <= draft.date) return { dir, manifest: held };
  let newest: { dir: string; manifest: Manifest } | undefined;
  for (const release of releasesBeside(dir, draft.series)) {
    if (release.manifest.date < draft.date && (!newest || release.manifest.date > newest.manifest.date)) newest = release;
  }
  return newest;
}

/** The releases of a series beside `dir` (in the directory that holds it), by name; none when there is no such directory. */
function releasesBeside(dir: string, series: string): Array<{ dir: string; manifest: Manifest }> {
  const parent = dirname(resolve(dir));
  // No directory to look in (none yet, or a file where it should be): the writer says what is wrong with --out.
  if (!isDirectory(parent)) return [];
  return readdirSync(parent, { withFileTypes: true })
    .sort((a, b) => byPath(a.name, b.name))
    .flatMap((entry) => {
      const sibling = join(parent, entry.name);
      if (!entry.isDirectory() || sibling === resolve(dir)) return [];
      const manifest = releaseHeldIn(sibling);
      return manifest && manifest.series === series ? [{ dir: sibling, manifest }] : [];
    });
}

/**
 * The GrowOVER releases of the series beside `dir` whose month falls strictly between two compared
 * releases: each holds the reasons of its own month's retirements, which neither compared release
 * holds. One its manifest does not vouch for is left out (it would make reasons up): its items' reasons
 * are then said to be unknown, not refused.
 */
export async function growoverReleasesBetween(dir: string, before: Pick<Manifest, 'kind' | 'series' | 'date'>, after: Pick<Manifest, 'date'>): Promise<ReleaseSource[]> {
  if (before.kind !== 'growover') return [];
  const between = releasesBeside(dir, before.series).filter(({ manifest }) => manifest.date > before.date && manifest.date < after.date);
  const verified = await Promise.all(between.map(async (release) => ((await verifyRelease(release.dir)).ok ? [directorySource(release.dir, release.manifest)] : [])));
  return verified.flat();
}

/** What changed is read from the previous release's files: one that is not the release its manifest names would make the changes up (as `release diff` refuses it). */
async function refuseAltered(dir: string): Promise<void> {
  const result = await verifyRelease(dir);
  if (!result.ok) {
    throw new UserError('E_RELEASE_INVALID', `${dir} (the release this one follows): ${result.file} ${result.problem}: export it again, or write this one with --previous DIR or --no-previous`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A changelog file of the release `dir` holds, as its manifest lists it: an edited or damaged one is not carried into a new manifest. */
function releaseFile(dir: string, name: string, manifest: Manifest): Uint8Array {
  let content: Uint8Array;
  try {
    content = readFileSync(join(dir, name));
  } catch (error) {
    throw new UserError('E_RELEASE_INVALID', `${dir} holds this very release but cannot give its ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): run wikidelta release verify ${dir}, or write it with --previous DIR`);
  }
  const listed = manifest.files.find((file) => file.path === name);
  if (listed?.sha256 !== sha256(content)) {
    throw new UserError('E_RELEASE_INVALID', `${dir} holds this very release but its ${name} is not the one its manifest lists: run wikidelta release verify ${dir}, or write it with --previous DIR`);
  }
  return content;
}

/** The manifest of the release `dir` holds; undefined when it holds none (no directory, no manifest, a broken one). */
export function releaseHeldIn(dir: string): Manifest | undefined {
  if (!existsSync(join(dir, MANIFEST_FILE))) return undefined;
  try {
    return readManifest(dir);
  } catch {
    return undefined;
  }
}
