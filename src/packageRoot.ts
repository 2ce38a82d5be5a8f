/**
 * Where the installed package lives, for the files it ships beside the code (prompts, the demo's
 * sample). Found by walking up to the nearest package.json rather than by a fixed `../..`, because
 * this module runs from src/ under the test runner and from dist/src/ once built.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder above this module that holds a package.json. */
export function packageRoot(): string {
  const here = fileURLToPath(import.meta.url);
  let folder = dirname(here);
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${here}`);
    folder = parent;
  }
  return folder;
}
