/**
 * Where the real Wikipedia data lives: `../shared/data` beside the repository, read in place and never
 * copied in. Tests, benchmarks and scripts find it only through this export, so a unit test that
 * imports it is one that needs the data, which unit tests must not (docs/ARCHITECTURE.md §10).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const sharedData = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/data');
