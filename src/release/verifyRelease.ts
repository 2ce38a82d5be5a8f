/**
 * Checks a release directory against its MANIFEST.json (docs/ARCHITECTURE.md §8): every listed file
 * present with its size, SHA-256 and rows, no file the manifest does not list, and the version
 * naming the release's date and the hash of the listed data files. Files without rows are hashed as
 * streams; a table's file is read whole to count its rows as its format does, as the export held
 * it whole to write it. The first difference found is the answer.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { rowsOf } from './formats/index.js';
import { MANIFEST_FILE, contentHash, readManifest, releaseVersion, sha256, type Manifest } from './manifest.js';

export type Verification = { ok: true; manifest: Manifest } | { ok: false; file: string; problem: string };

/**
 * Checks a release directory against its MANIFEST.json: every file present with its size, rows and SHA-256.
 *
 * @returns ok with the manifest, or the first file that differs and how
 */
export async function verifyRelease(dir: string): Promise<Verification> {
  const manifest = readManifest(dir);
  for (const file of manifest.files) {
    const path = join(dir, file.path);
    const stats = await stat(path).catch(() => undefined);
    if (!stats?.isFile()) return { ok: false, file: file.path, problem: 'is missing' };
    if (stats.size !== file.bytes) return { ok: false, file: file.path, problem: `has ${stats.size} bytes where the manifest says ${file.bytes}` };
    const content = file.rows === null ? undefined : await readFile(path);
    const digest = content === undefined ? await sha256Of(path) : sha256(content);
    if (digest !== file.sha256) return { ok: false, file: file.path, problem: `has SHA-256 ${digest} where the manifest says ${file.sha256}` };
    if (content !== undefined) {
      // The rows are not in the version's hash: a manifest edited to misstate them is found by counting.
      const rows = await rowsOf(file.path, content);
      if (rows !== file.rows) return { ok: false, file: file.path, problem: `has ${rows ?? 'no'} rows where the manifest says ${file.rows}` };
    }
  }
  const listed = new Set([MANIFEST_FILE, ...manifest.files.map((file) => file.path)]);
  const extra = (await readdir(dir)).sort().find((name) => !listed.has(name));
  if (extra !== undefined) return { ok: false, file: extra, problem: 'is not in the manifest' };
  const content = contentHash(manifest.files);
  // The hash and the date checked apart, so that a problem names the field that differs.
  const versionDate = manifest.version.split('+')[0] as string;
  if (content !== manifest.content_sha256 || releaseVersion(versionDate, content) !== manifest.version) {
    return { ok: false, file: MANIFEST_FILE, problem: `names version ${manifest.version}, which does not match the hash of the files it lists (${content})` };
  }
  if (versionDate !== manifest.date) return { ok: false, file: MANIFEST_FILE, problem: `says the data is of ${manifest.date}, where its version ${manifest.version} says ${versionDate}` };
  return { ok: true, manifest };
}

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
