/**
 * The wiki's own full-text search (`list=search` in the main namespace) through the same polite
 * client as the revision source: User-Agent, maxlag, the in-flight and per-minute caps, Retry-After.
 */
import { z } from 'zod';
import { WikiClient, type WikiClientOptions } from '../sources/wikiClient.js';
import type { SearchBackend } from './searchBackend.js';

const SearchReply = z.object({
  query: z.object({ search: z.array(z.object({ title: z.string() })) }).optional(),
});

export class WikiSearch implements SearchBackend {
  readonly name: string;
  private readonly client: WikiClient;

  constructor(options: WikiClientOptions) {
    this.name = `wiki:${options.apiUrl}`;
    this.client = new WikiClient(options);
  }

  async topTitles(query: string, limit: number): Promise<string[]> {
    const reply = await this.client.read(
      { action: 'query', list: 'search', srsearch: query, srnamespace: 0, srlimit: limit, srprop: '', srinfo: '' },
      SearchReply,
    );
    return (reply.query?.search ?? []).map((hit) => hit.title);
  }
}
