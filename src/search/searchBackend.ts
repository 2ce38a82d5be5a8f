/** Where the descriptiveness check searches: one interface, the wiki's own search or a local index. */
export interface SearchBackend {
  /** Stored with each check result, e.g. "wiki:https://…/api.php" or "local-bm25". */
  readonly name: string;
  /** Titles of the best `limit` pages for `query`, best first. */
  topTitles(query: string, limit: number): Promise<string[]>;
}
