/**
 * Several dump files read as one source, one file after the other: a wiki's history comes split
 * into files by page id ranges (English Wikipedia's pages-meta-history1.xml-p1p812.bz2, …), so
 * every page is in one file. A page that did turn up twice is taken from the first file holding it
 * (DumpRevisionSource.pagesOfPass). With `--queue` each file is
 * read on a worker instead, by its path (src/queue/dumpJob.ts).
 */
import { resolve } from 'node:path';
import { InputError, oneLine, UserError } from '../errors.js';
import type { Window } from '../model.js';
import { DumpRevisionSource } from './dumpSource.js';
import type { CollectOptions, PageHistoryPart, RevisionSource, WikiSite } from './RevisionSource.js';

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
  private readonly files: readonly DumpRevisionSource[];

  /** @param paths - the dump files (each plain or compressed, see dumpInput.ts), relative paths resolved against the current directory */
  constructor(paths: readonly string[]) {
    this.paths = paths.map((path) => resolve(path));
    this.files = this.paths.map((path) => new DumpRevisionSource(path));
    this.origin = this.files.map((file) => file.origin).join(' + ');
  }

  /** The wiki every file's `<siteinfo>` names: files of two wikis are refused, as their page ids would mix in one store. */
  async site(): Promise<WikiSite> {
    const sites: WikiSite[] = [];
    // One after the other: each head costs a decompressor's start, not worth a core each.
    for (const file of this.files) sites.push(await file.site());
    const first = sites[0] ?? { wiki: null, articleBaseUrl: null };
    const other = sites.findIndex((site) => site.wiki !== first.wiki || site.articleBaseUrl !== first.articleBaseUrl);
    if (other !== -1) {
      const named = (site: WikiSite) => `${site.wiki ?? 'no name'}, ${site.articleBaseUrl ?? 'no <base>'}`;
      throw new UserError('E_FLAGS_CONFLICT', `the dump files are of different wikis: ${this.paths[0]} (${named(first)}) and ${this.paths[other]} (${named(sites[other] as WikiSite)})`);
    }
    return first;
  }

  /**
   * The newest revision of all the files (`RevisionSource.historyEnd`): unknown until a pass has read
   * each of them here (with `--queue` the workers read them), null when none holds a revision.
   */
  historyEnd(): string | null | undefined {
    const ends = this.files.map((file) => file.historyEnd());
    if (ends.includes(undefined)) return undefined;
    return (ends.filter((end): end is string => end !== null && end !== undefined).sort().at(-1)) ?? null;
  }

  /** Each file's pages in turn, as `RevisionSource.pagesChangedIn` describes. */
  async *pagesChangedIn(window: Window, options: CollectOptions = {}): AsyncGenerator<PageHistoryPart> {
    const given = new Set<number>();
    for (const [index, file] of this.files.entries()) {
      try {
        yield* file.pagesOfPass(window, options, given);
      } catch (error) {
        throw namingDumpFile(error, this.paths[index] as string);
      }
    }
  }
}

/**
 * The error of one of several dump files, its one line naming the file, as a truncated one among
 * several is otherwise told by the page it broke in alone; a bug's error stays as it is.
 */
export function namingDumpFile(error: unknown, path: string): unknown {
  if (!(error instanceof UserError) || error.message.includes(path)) return error;
  return new InputError(error.code, `${path}: ${oneLine(error)}`, { cause: error });
}
