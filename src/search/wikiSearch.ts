/**
 * The wiki's own full-text search (`list=search` over page text in the main namespace) through the
 * same polite client as the revision source: User-Agent, maxlag, the in-flight and per-minute caps,
 * Retry-After. The question goes without its question and function words: MediaWiki's basic search
 * backends require every term to occur in a page, so "what", "is" or "the" would veto most pages
 * (Wikipedia's CirrusSearch ignores such words anyway).
 */
import { SearchReply } from '../sources/mediawikiReplies.js';
import { WikiClient, type WikiClientOptions } from '../sources/wikiClient.js';
import type { SearchBackend } from './searchBackend.js';

export class WikiSearch implements SearchBackend {
  readonly name: string;
  private readonly client: WikiClient;

  constructor(options: WikiClientOptions) {
    this.name = `wiki:${options.apiUrl}`;
    this.client = new WikiClient(options);
  }

  async topTitles(query: string, limit: number): Promise<string[]> {
    const reply = await this.client.read(
      { action: 'query', list: 'search', srsearch: searchTerms(query), srwhat: 'text', srnamespace: 0, srlimit: limit, srprop: '', srinfo: '' },
      SearchReply,
    );
    return (reply.query?.search ?? []).map((hit) => hit.title);
  }
}

const FUNCTION_WORDS = new Set(
  ('a an and are as at be been by did do does for from has have had how in is it its of on or that the this to was were what ' +
    'when where which who whom whose why with according article').split(' '),
);

/** The question's content words, punctuation dropped, in order. */
export function searchTerms(question: string): string {
  return question
    .split(/[^\p{L}\p{N}'’.-]+/u)
    .map((word) => word.replace(/^['’.-]+|['’.-]+$/g, ''))
    .filter((word) => word !== '' && !FUNCTION_WORDS.has(word.toLowerCase()))
    .join(' ');
}
