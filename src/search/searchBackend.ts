/** Where the descriptiveness check searches: one interface, the wiki's own search or a local index. */
export interface SearchBackend {
  /** Stored with each check result, e.g. "wiki:https://…/api.php" or "local-bm25". */
  readonly name: string;
  /** Titles of the best `limit` pages for `query`, best first. */
  topTitles(query: string, limit: number): Promise<string[]>;
}

/** Titles compared the way MediaWiki does: underscores are spaces, the first letter is case-insensitive. */
export function sameTitle(a: string, b: string): boolean {
  const canonical = (title: string) => {
    const spaced = title.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
    return spaced.charAt(0).toUpperCase() + spaced.slice(1);
  };
  return canonical(a) === canonical(b);
}
