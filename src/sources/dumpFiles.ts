/**
 * Several dump files read as one source, one file after the other: a wiki's history comes split
 * into files by page id ranges (English Wikipedia's pages-meta-history1.xml-p1p812.bz2, …), so
 * every page is in one file. A page that did turn up twice is taken from the first file holding it:
 * once collected it is done, and the collect stage skips done pages. With `--queue` each file is
 * read on a worker instead, by its path (src/queue/dumpJob.ts).
 */
import { resolve } from 'node:path';
import type { Window } from '../model.js';
import { DumpRevisionSource } from './dumpSource.js';
import type { CollectOptions, PageHistoryPart, RevisionSource } from './RevisionSource.js';

/**
 * A revision source over several dump files of one wiki, read one after the other.
 *
 * @example
 * const source = new DumpFilesSource(['enwiki-…-p1p812.bz2', 'enwiki-…-p813p2000.bz2']);
 * for await (const part of source.pagesChangedIn(window, { followHours: 48 })) store(part);
 */
export class DumpFilesSource implements RevisionSource {
  readonly kind = 'dump' as const;
  readonly origin: string;
  /** The files, absolute: a worker in another directory finds them by the same paths. */
  readonly paths: readonly string[];
  private readonly files: readonly RevisionSource[];

  /** @param paths - the dump files (each plain or compressed, see dumpInput.ts), relative paths resolved against the current directory */
  constructor(paths: readonly string[]) {
    this.paths = paths.map((path) => resolve(path));
    this.files = this.paths.map((path) => new DumpRevisionSource(path));
    this.origin = this.files.map((file) => file.origin).join(' + ');
  }

  /** Each file's pages in turn, as `RevisionSource.pagesChangedIn` describes. */
  async *pagesChangedIn(window: Window, options: CollectOptions = {}): AsyncGenerator<PageHistoryPart> {
    for (const file of this.files) yield* file.pagesChangedIn(window, options);
  }
}
