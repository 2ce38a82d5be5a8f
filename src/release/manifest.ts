/**
 * A release's MANIFEST.json (docs/ARCHITECTURE.md §8): what the release is, which code and store
 * runs made it, the release it follows, and every file with its size, rows and SHA-256. The version
 * is the release's date and a hash of its data files alone, so the same data gets the same version
 * whichever commit wrote it; the manifest holds no clock time and no path outside the release, so
 * the same store still gives a byte-identical release.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';

/** The version of the release layout and table columns; raised when a column or file changes meaning. */
export const RELEASE_SCHEMA_VERSION = 1;
export const MANIFEST_FILE = 'MANIFEST.json';
export const CHANGES_FILE = 'CHANGES.md';
export const CHANGES_JSONL_FILE = 'changes.jsonl';
/** Files the version does not cover: they describe the release against the one before it, not its data. */
const NOT_CONTENT = new Set([MANIFEST_FILE, CHANGES_FILE, CHANGES_JSONL_FILE]);

export const RELEASE_KINDS = ['weekly', 'dailyqa', 'growover', 'labels'] as const;
export type ReleaseKind = (typeof RELEASE_KINDS)[number];

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const FileEntry = z
  .object({
    /** A file of the release itself: a name inside its directory, never a path out of it. */
    path: z
      .string()
      .min(1)
      .refine((path) => !/[/\\]/.test(path) && path !== '.' && path !== '..', 'must name a file inside the release, not a path'),
    bytes: z.number().int().min(0),
    /** The rows as the file's format counts them (lines, a Parquet footer's count: `./formats`); null for a file of none (the card, figures). */
    rows: z.number().int().min(0).nullable(),
    sha256: Sha256,
  })
  .strict();
export type FileEntry = z.infer<typeof FileEntry>;

export const Manifest = z
  .object({
    manifest: z.literal('wikidelta release'),
    schema_version: z.number().int().positive(),
    kind: z.enum(RELEASE_KINDS),
    /** Releases of one series follow each other: the kind, and the wiki of a weekly one. */
    series: z.string().min(1),
    /** The day the release's data is of (a week's first day, a range's last, a snapshot's date): it orders a series. */
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    version: z.string().min(1),
    /** SHA-256 of the data files' "SHA256  PATH" lines, sorted by path (what `sha256sum` prints). */
    content_sha256: Sha256,
    wikidelta: z
      .object({
        version: z.string(),
        /** The commit of the checkout that ran; null for an installed package. */
        commit: z.string().nullable(),
        /** Whether tracked files differed from that commit; null when not known. */
        modified: z.boolean().nullable(),
      })
      .strict(),
    /** The command that writes this release again from the same store (with --out added). */
    command: z.string().min(1),
    parameters: z.record(z.string(), z.unknown()),
    store: z
      .object({
        schema_version: z.number().int().min(0),
        runs: z.array(z.object({ id: z.number().int(), pipeline: z.string() }).strict()),
      })
      .strict(),
    previous: z.object({ version: z.string(), directory: z.string() }).strict().nullable(),
    files: z.array(FileEntry).superRefine((files, context) => {
      const seen = new Set<string>();
      files.forEach((file, index) => {
        if (seen.has(file.path)) context.addIssue({ code: 'custom', path: [index, 'path'], message: `${file.path} is listed twice` });
        seen.add(file.path);
      });
    }),
  })
  .strict();
export type Manifest = z.infer<typeof Manifest>;

/** The hex SHA-256 of a file's content, as the manifest records it. */
export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The entry of a file written with this content. */
export function fileEntry(path: string, content: string | Uint8Array, rows: number | null): FileEntry {
  return { path, bytes: typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength, rows, sha256: sha256(content) };
}

/** Whether the version covers the file: every file but the manifest and the changelog. */
export function isContent(path: string): boolean {
  return !NOT_CONTENT.has(path);
}

/** The hash of the data files, from their entries. */
export function contentHash(files: readonly FileEntry[]): string {
  const content = files.filter((file) => isContent(file.path)).sort((a, b) => byPath(a.path, b.path));
  return sha256(content.map((file) => `${file.sha256}  ${file.path}\n`).join(''));
}

/** Code-point order, the same on every machine (no locale). */
export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "2025-02-01+1a2b3c4d5e6f": the date and the first 12 hex digits of the content hash. */
export function releaseVersion(date: string, content: string): string {
  return `${date}+${content.slice(0, 12)}`;
}

/** The manifest as written: two-space JSON with a final newline. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A release directory's manifest, checked; one line naming the problem otherwise. */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UserError('E_RELEASE_NOT_FOUND', `${dir} is not a release: it has no ${MANIFEST_FILE}`);
    throw new UserError('E_FILE_UNREADABLE', `cannot read ${path}: ${code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UserError('E_RELEASE_INVALID', `${path}: not JSON`);
  }
  const schemaVersion = (value as { schema_version?: unknown } | null)?.schema_version;
  if (typeof schemaVersion === 'number' && schemaVersion > RELEASE_SCHEMA_VERSION) {
    throw new UserError('E_RELEASE_TOO_NEW', `${path}: release schema version ${schemaVersion} is newer than this wikidelta reads (${RELEASE_SCHEMA_VERSION}): update wikidelta`);
  }
  const parsed = Manifest.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError('E_RELEASE_INVALID', `${path}: ${issue?.path.join('.') || 'manifest'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
