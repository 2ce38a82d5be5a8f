/**
 * The weekly read-dump job (docs/ARCHITECTURE.md §13): one dump file of several, named by its path
 * (every worker sees the same files, e.g. on a shared filesystem), read on a worker with the collect
 * stage's window and page selection, each collected revision parsed as the parse stage parses it.
 * The file's changed pages come back with their revisions' metadata, infoboxes and first
 * paragraphs, never their wikitext: the store drops it once parsed (with --keep-content the owner
 * reads the files itself). A file comes back in parts: a part ends after the page that takes its
 * result to `partChars`, and names that page, after which the next part starts.
 */
import { z } from 'zod';
import { inWindow } from '../dates.js';
import { InputError } from '../errors.js';
import { DatedEntityNameSchema, EntityFactsSchema, InfoboxSchema, WindowSchema, type DatedEntityName, type Revision } from '../model.js';
import { DumpRevisionSource } from '../sources/dumpSource.js';
import { namingDumpFile } from '../sources/dumpFiles.js';
import type { JobKind } from './batchRunner.js';
import { nextTurn } from './nextTurn.js';
import { prepareExtractors } from '../content/registry.js';
import { parsedText } from './parseJob.js';

const ReadDumpData = z.object({
  /** Absolute, so that it names the same file on every worker whatever its working directory. */
  path: z.string(),
  window: WindowSchema,
  /** Revisions up to this many hours around the window come back as metadata (revert detection). */
  followHours: z.number(),
  /** Pages that are redirects now come back too (a sync's, CollectOptions.keepRedirects). */
  keepRedirects: z.boolean().optional(),
  /** The part starts after this page, in the file's order; null: at the file's start. */
  afterPage: z.number().int().nullable(),
  /** The part ends after the page that takes its result (as JSON) to this many characters. */
  partChars: z.number().int().positive(),
});
export type ReadDumpPart = z.infer<typeof ReadDumpData>;

const RevisionMeta = z.object({
  revId: z.number().int(),
  parentId: z.number().int().nullable(),
  timestamp: z.string(),
  sha1: z.string().nullable(),
  comment: z.string(),
  user: z.string(),
  minor: z.boolean(),
  model: z.string().optional(),
});

const ParsedDumpPage = z.object({
  page: z.object({ pageId: z.number().int(), title: z.string(), namespace: z.number().int() }),
  /** The in-window revisions and the last one before the window, parsed. */
  revisions: z.array(
    RevisionMeta.extend({
      infoboxes: z.array(InfoboxSchema),
      firstParagraph: z.string().nullable(),
      leftOut: z.array(z.string()),
      entity: EntityFactsSchema.optional(),
      unreadable: z.string().optional(),
    }),
  ),
  moves: z.array(z.object({ timestamp: z.string(), from: z.string(), to: z.string() })),
  predecessors: z.array(RevisionMeta),
  followers: z.array(RevisionMeta),
  invalidUtf8: z.number().int().nonnegative(),
});
export type ParsedDumpPage = z.infer<typeof ParsedDumpPage>;

const ReadDumpResult = z.object({
  pages: z.array(ParsedDumpPage),
  /** The English names of the entity pages of the part that are not among its pages (docs/ARCHITECTURE.md §16). */
  names: z.array(DatedEntityNameSchema),
  /** The page the file's next part starts after; null: the file is done. */
  nextAfterPage: z.number().int().nullable(),
});
export type ReadDumpResult = z.infer<typeof ReadDumpResult>;

function metaOf({ revId, parentId, timestamp, sha1, comment, user, minor, model }: Revision): z.infer<typeof RevisionMeta> {
  return { revId, parentId, timestamp, sha1, comment, user, minor, ...(model ? { model } : {}) };
}

/** One part of a file: its changed pages after `afterPage`, parsed, until the result reaches `partChars`. */
async function readPart(part: ReadDumpPart): Promise<ReadDumpResult> {
  // The pages up to the part's start are passed over as a resumed collect passes over done ones: their texts are not even kept.
  let started = part.afterPage === null;
  const beforeThePart = (pageId: number): boolean => {
    if (started) return false;
    started = pageId === part.afterPage;
    return true;
  };
  const pages: ParsedDumpPage[] = [];
  const names: DatedEntityName[] = [];
  let chars = 0;
  const onEntityName = (name: DatedEntityName) => {
    names.push(name);
    chars += JSON.stringify(name).length;
  };
  // An earlier part named the pages up to its last: their last texts are not kept, decoded or parsed again.
  const namesOf = (pageId: number) => started && pageId !== part.afterPage;
  let revisions: ParsedDumpPage['revisions'] = [];
  const source = new DumpRevisionSource(part.path);
  for await (const history of source.pagesChangedIn(part.window, { followHours: part.followHours, keepRedirects: part.keepRedirects, isDone: beforeThePart, onEntityName, namesOf })) {
    if (history.kind === 'revisions') {
      // A dump's models are known only as its revisions come; each extractor is prepared once per process.
      await prepareExtractors(history.revisions.map((revision) => revision.model));
      for (const revision of history.revisions) {
        // A long article parses for a while: the loop's turn keeps the worker's job lock renewed.
        await nextTurn();
        revisions.push({ ...metaOf(revision), ...parsedText(revision.text, inWindow(revision.timestamp, part.window), revision.model) });
      }
      continue;
    }
    const page: ParsedDumpPage = {
      page: history.page,
      revisions,
      moves: history.moves,
      predecessors: (history.predecessors ?? []).map(metaOf),
      followers: (history.followers ?? []).map(metaOf),
      invalidUtf8: history.invalidUtf8 ?? 0,
    };
    revisions = [];
    pages.push(page);
    chars += JSON.stringify(page).length;
    if (chars >= part.partChars) return { pages, names, nextAfterPage: page.page.pageId };
  }
  // The page an earlier part ended with is gone: the file changed between the parts.
  if (!started) throw new InputError('E_DUMP_CHANGED', `the dump no longer holds page ${part.afterPage ?? ''}, where its previous part ended (was the file replaced during the run?)`);
  return { pages, names, nextAfterPage: null };
}

export const readDumpJob: JobKind<ReadDumpPart, ReadDumpResult> = {
  name: 'read-dump',
  data: ReadDumpData,
  output: ReadDumpResult,
  async compute(part) {
    try {
      return await readPart(part);
    } catch (error) {
      // Several files are read at once: the one line the owner prints names the file.
      throw namingDumpFile(error, part.path);
    }
  },
};
