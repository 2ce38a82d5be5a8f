import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Writes each file to a temporary name beside it, then renames it into place: a reader (or a crash)
 * sees the old file or the new one, never half of one.
 */
export function writeFilesAtomically(dir: string, files: ReadonlyMap<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of files) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.tmp-${process.pid}`;
    try {
      writeFileSync(temporary, content);
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}
