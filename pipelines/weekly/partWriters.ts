/**
 * How the collect stage writes a source's parts (docs/ARCHITECTURE.md §4). Without the queue, each
 * part's texts are parsed on the batch threads as they arrive and the part is written parsed, many
 * parts to a transaction, in the order the source gave them, a page marked done with its end: a
 * week's wikitext passes through and is stored only when kept (a week of English Wikipedia is
 * tens of gigabytes of it, docs/SCALE.md), and the parse stage finds nothing left. With the queue
 * the texts are stored as they come, for the parse stage to send to the workers.
 */
import type { Window } from '../../src/model.js';
import type { BatchRunner } from '../../src/queue/batchRunner.js';
import { parseRevisionsJob, type ParsedBatch } from '../../src/queue/parseJob.js';
import type { PageHistoryPart } from '../../src/sources/RevisionSource.js';
import type { RevisionStore } from '../../src/store/revisionStore.js';
import { parseBatches } from './parse.js';

/** Told of each part once it is in the store, with its revisions as parsed when they were (none when stored unparsed). */
export type OnWritten = (part: PageHistoryPart, parsed: ParsedBatch['revisions']) => void;

export interface PartWriter {
  /** Writes every part; when the parts fail, what was complete before the failure is written first. */
  write(parts: AsyncIterable<PageHistoryPart>, onWritten: OnWritten): Promise<void>;
}

/** Each part in its own transaction as it comes, texts unparsed. */
export class StoringPartWriter implements PartWriter {
  constructor(
    private readonly store: RevisionStore,
    private readonly window: Window,
  ) {}

  async write(parts: AsyncIterable<PageHistoryPart>, onWritten: OnWritten): Promise<void> {
    for await (const part of parts) {
      if (part.kind === 'revisions') this.store.saveRevisions(part.page, part.revisions, this.window);
      else this.store.finishPage(this.window, part.page, part);
      onWritten(part, []);
    }
  }
}

/** Texts being parsed or waiting to be written, at most: the memory a run holds beyond one part. */
const IN_FLIGHT_CHARS = 32 << 20;
/**
 * Parts written in one transaction once they are parsed, or fewer once their texts reach this many
 * characters, or whatever is parsed once it has waited WRITE_AFTER_MS: a run killed while its source
 * is slow keeps the pages it had read.
 */
const WRITE_PARTS = 64;
const WRITE_CHARS = 16 << 20;
const WRITE_AFTER_MS = 500;

interface Entry {
  part: PageHistoryPart;
  chars: number;
  parsed: ParsedBatch['revisions'];
  ready: boolean;
  /** Settles when the part's parse has ended, well or not. */
  parsing: Promise<void>;
}

/** Parses each part's texts on the runner (the batch threads) and writes parts parsed, in order, a few dozen a transaction. */
export class ParsingPartWriter implements PartWriter {
  private readonly entries: Entry[] = [];
  private inFlightChars = 0;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;
  private onWritten: OnWritten = () => undefined;
  private writeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: RevisionStore,
    private readonly runner: BatchRunner,
    private readonly options: { window: Window; keepContent: boolean },
  ) {}

  async write(parts: AsyncIterable<PageHistoryPart>, onWritten: OnWritten): Promise<void> {
    this.onWritten = onWritten;
    try {
      for await (const part of parts) {
        this.enqueue(part);
        this.flush(false);
        while (this.failure === null && this.inFlightChars > IN_FLIGHT_CHARS) {
          this.flush(true);
          if (this.inFlightChars > IN_FLIGHT_CHARS) await this.somePartParsed();
        }
        if (this.failure) throw this.failure.error;
      }
    } finally {
      // The source failed or ended: what is parsed is written, then the failure (the source's first) goes on.
      await Promise.all(this.entries.map((entry) => entry.parsing));
      this.flush(true);
      if (this.writeTimer) clearTimeout(this.writeTimer);
    }
    if (this.failure) throw this.failure.error;
  }

  private enqueue(part: PageHistoryPart): void {
    const entry: Entry = { part, chars: 0, parsed: [], ready: part.kind === 'end', parsing: Promise.resolve() };
    this.entries.push(entry);
    if (part.kind === 'end') return;
    const pageId = part.page.pageId;
    entry.chars = part.revisions.reduce((sum, revision) => sum + (revision.text?.length ?? 0), 0);
    this.inFlightChars += entry.chars;
    // Revisions an earlier week, sync or killed run parsed as this window needs them are written, not parsed again.
    const parsed = this.store.parsedFor(this.options.window, pageId, part.revisions.map((revision) => revision.revId));
    const batches = parseBatches(
      part.revisions.filter((revision) => !parsed.has(revision.revId)).map(({ revId, timestamp, text, model }) => ({ revId, pageId, timestamp, text, model: model ?? null })),
      this.options.window,
    );
    entry.parsing = this.runner
      .run(parseRevisionsJob, batches, (output) => entry.parsed.push(...output.revisions))
      .then(
        () => {
          entry.ready = true;
          this.flushOrNote(false);
        },
        (error: unknown) => {
          this.failure ??= { error };
        },
      )
      .finally(() => this.wake?.());
  }

  private somePartParsed(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }

  /** A flush outside `write`'s own loop (a parse ending, the timer): its failure ends `write`. */
  private flushOrNote(now: boolean): void {
    try {
      this.flush(now);
    } catch (error) {
      this.failure ??= { error };
      this.wake?.();
    }
  }

  /** Writes the parsed parts at the head of the line in one transaction: when enough are, or `now`; else soon. */
  private flush(now: boolean): void {
    let count = 0;
    let chars = 0;
    while (count < this.entries.length && this.entries[count]!.ready) chars += this.entries[count++]!.chars;
    if (count === 0) return;
    if (!now && count < WRITE_PARTS && chars < WRITE_CHARS) {
      this.writeTimer ??= setTimeout(() => {
        this.writeTimer = null;
        this.flushOrNote(true);
      }, WRITE_AFTER_MS);
      return;
    }
    if (this.writeTimer) clearTimeout(this.writeTimer);
    this.writeTimer = null;
    const ready = this.entries.splice(0, count);
    const { window, keepContent } = this.options;
    this.store.inOneTransaction(() => {
      for (const { part, parsed } of ready) {
        if (part.kind === 'revisions') this.store.saveParsedRevisions(part.page, part.revisions, parsed, { window, keepContent });
        else this.store.finishPage(window, part.page, part);
      }
    });
    this.inFlightChars -= chars;
    for (const { part, parsed } of ready) this.onWritten(part, parsed);
  }
}
