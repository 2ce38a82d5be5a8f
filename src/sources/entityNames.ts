/**
 * Where the English labels and aliases of Wikidata entities come from when the store lacks them
 * (docs/ARCHITECTURE.md §16): a Wikidata JSON dump (`--labels FILE`, an array of entities one a
 * line, plain or compressed), read as a stream for the ids asked only; or `wbgetentities` through
 * the one polite client, 50 ids a request.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { EntityName } from '../model.js';
import { InputError } from '../errors.js';
import { openDumpInput } from './dumpInput.js';
import { IDS_PER_REQUEST, WikiClient, type WikiClientOptions } from './wikiClient.js';

/** A source of Wikidata entities' English labels and aliases: `LabelsFile` or `WbGetEntities`. */
export interface EntityNameSource {
  readonly kind: 'file' | 'wbgetentities';
  /** Named in the labels cache as the source of what it gave. */
  readonly origin: string;
  /**
   * The names of those of `ids` the source knows, handed to `found` as they come (a request's worth at
   * a time, so a failure later loses none of them); an id mapped to null is one the source says it does
   * not have (a deleted entity), which is not asked again.
   */
  names(ids: readonly string[], found: (names: Map<string, EntityName | null>) => void): Promise<void>;
}

const Term = z.looseObject({ language: z.string(), value: z.string() });

/**
 * An entity's English terms as Wikidata's JSON (dumps, wbgetentities) writes them. Only English is
 * checked: the other languages (hundreds on a popular item) pass through unread.
 */
const EntityTerms = z.looseObject({
  id: z.string(),
  labels: z.looseObject({ en: Term.optional() }).optional().catch(undefined),
  aliases: z.looseObject({ en: z.array(Term).optional() }).optional().catch(undefined),
  missing: z.unknown().optional(),
});

function nameOf(terms: z.infer<typeof EntityTerms>): EntityName {
  return { label: terms.labels?.en?.value ?? null, aliases: (terms.aliases?.en ?? []).map((alias) => alias.value) };
}

/**
 * The id and English name of an entity revision's text (its JSON as Wikidata stores it); null for text that is no entity.
 *
 * @example entityNameOfText('{"type":"item","id":"Q90","labels":{"en":{"language":"en","value":"Paris"}}}') // { id: 'Q90', name: { label: 'Paris', aliases: [] } }
 */
export function entityNameOfText(text: string): { id: string; name: EntityName } | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const terms = EntityTerms.safeParse(json);
  return terms.success ? { id: terms.data.id, name: nameOf(terms.data) } : null;
}

const LEADING_ID = /^\{"type":"[a-z-]+","id":"([^"]+)"/;

/** The names handed on at a time, from a labels file or a dump's entity pages: a transaction of the labels cache each, and what a failure later cannot lose. */
export const NAMES_PER_WRITE = 500;

/**
 * A Wikidata JSON dump: `[`, one entity a line each followed by a comma, `]`.
 *
 * @example await new LabelsFile('latest-all.json.gz').names(['Q90', 'P17'], (names) => cache(names));
 */
export class LabelsFile implements EntityNameSource {
  readonly kind = 'file' as const;
  readonly origin: string;

  constructor(private readonly path: string) {
    this.origin = `file:${path}`;
  }

  async names(ids: readonly string[], onFound: (names: Map<string, EntityName | null>) => void): Promise<void> {
    const wanted = new Set(ids);
    if (wanted.size === 0) return;
    let found = new Map<string, EntityName | null>();
    const handOn = () => {
      const batch = found;
      found = new Map();
      if (batch.size > 0) onFound(batch);
    };
    const input = Readable.from(openDumpInput(this.path));
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      let number = 0;
      let last = '';
      for await (const raw of lines) {
        number++;
        const line = raw.trim().replace(/,$/, '');
        if (line !== '') last = line;
        if (line === '' || line === '[' || line === ']') continue;
        // Most of a full dump is not wanted: where the line opens with its id, as Wikidata's dumps write
        // them, the id is read before the line is parsed (other key orders are parsed whole).
        const id = LEADING_ID.exec(line)?.[1];
        if (id !== undefined && !wanted.has(id)) continue;
        let entity: z.infer<typeof EntityTerms>;
        try {
          entity = EntityTerms.parse(JSON.parse(line));
        } catch {
          throw new InputError('E_LABELS_FILE_INVALID', `labels file ${this.path} is not a Wikidata JSON dump: line ${number} is not an entity`);
        }
        if (!wanted.delete(entity.id)) continue;
        found.set(entity.id, nameOf(entity));
        if (found.size === NAMES_PER_WRITE) handOn();
        if (wanted.size === 0) break;
      }
      // Read to its end, a dump closes its list: one cut short lost names no line of it shows broken.
      if (wanted.size > 0 && last !== ']') throw new InputError('E_LABELS_FILE_INVALID', `labels file ${this.path} is not a whole Wikidata JSON dump: it ends at line ${number} without the closing "]" (cut short?)`);
    } catch (error) {
      // A broken line or a corrupt compressed file further on: what was found before it is kept.
      handOn();
      throw error;
    } finally {
      // Stopping early leaves the rest unread: the file, and a decompressor reading it, are closed now.
      lines.close();
      input.destroy();
    }
    handOn();
  }
}

const EntitiesReply = z.object({ entities: z.record(z.string(), EntityTerms).optional() });

/**
 * `wbgetentities` of a Wikibase's Action API (Wikidata's), 50 ids a request, under the client's limits.
 *
 * @example await new WbGetEntities({ apiUrl: 'https://www.wikidata.org/w/api.php', userAgent }).names(['Q90'], (names) => cache(names));
 */
export class WbGetEntities implements EntityNameSource {
  readonly kind = 'wbgetentities' as const;
  readonly origin: string;
  private readonly api: WikiClient;

  constructor(options: WikiClientOptions) {
    this.origin = `wbgetentities:${options.apiUrl}`;
    this.api = new WikiClient(options);
  }

  async names(ids: readonly string[], onFound: (names: Map<string, EntityName | null>) => void): Promise<void> {
    const batches: string[][] = [];
    for (let at = 0; at < ids.length; at += IDS_PER_REQUEST) batches.push(ids.slice(at, at + IDS_PER_REQUEST));
    await Promise.all(
      batches.map(async (batch) => {
        const reply = await this.api.read(
          { action: 'wbgetentities', ids: batch.join('|'), props: 'labels|aliases', languages: 'en' },
          EntitiesReply,
        );
        onFound(new Map(Object.entries(reply.entities ?? {}).map(([id, entity]) => [id, entity.missing !== undefined ? null : nameOf(entity)])));
      }),
    );
  }
}
