import type { Database } from 'better-sqlite3';
import { UserError } from '../errors.js';
import { RevisionReads } from '../store/revisionReads.js';

/**
 * A title as MediaWiki reads it on a wiki whose titles begin with a capital (as Wikipedia's do):
 * NFC, underscores as spaces, runs of them collapsed, ends trimmed, the first character uppercased
 * unless its capital is more than one character (ß stays ß, as in MediaWiki).
 */
export function normaliseTitle(title: string): string {
  const spaced = title.normalize('NFC').replace(/[_ ]+/g, ' ').trim();
  const first = String.fromCodePoint(spaced.codePointAt(0) ?? 0x20);
  const capital = first.toUpperCase();
  return [...capital].length === 1 ? `${capital}${spaced.slice(first.length)}` : spaced;
}

/** The page a title names now, or named before a move; optionally within one wiki. */
export function findPageByTitle(db: Database, title: string, wiki?: string): { wiki: string; pageId: number } {
  const normalised = normaliseTitle(title);
  const rows = new RevisionReads(db).pagesTitled(normalised, wiki);
  const first = rows[0];
  if (!first) throw new UserError(`no page titled "${normalised}" in the store${wiki ? ` for wiki ${wiki}` : ''}`);
  return first;
}
