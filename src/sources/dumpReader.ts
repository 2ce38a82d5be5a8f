/**
 * Streaming reader of MediaWiki XML exports (schema 0.4 to 0.11): turns a byte stream into one
 * event per complete revision and one per complete page, holding at most the current revision.
 *
 * A reader for the export's shape that works on the bytes (docs/SCALE.md: saxes read 33 MB/s):
 * markup is found with native byte searches, and a revision's text becomes a string (entities
 * replaced, UTF-8 decoded, the costly part) only when the consumer asks for it, which for a week's
 * window is a few per cent of a history dump. What it reads it checks as an XML parser would: tags
 * nested and closed, one root, no text outside it, entity and character references, characters
 * XML allows; no DTD entity is ever expanded nor an external one fetched. Texts not asked for and
 * elements it ignores are only searched for their end.
 */
import { isAscii } from 'node:buffer';
import { normaliseTimestamp } from '../dates.js';
import { InputError } from '../errors.js';
import { DEFAULT_CONTENT_MODEL, type Revision } from '../model.js';
import { Utf8Checker } from './utf8Check.js';

/** What a dump says of a page before its revisions. */
export interface DumpPageHeader {
  pageId: number;
  title: string;
  namespace: number;
  redirect: boolean;
}

/** One event of `readDump`: a complete revision, or the end of a page. */
export type DumpEvent =
  | {
      kind: 'revision';
      page: DumpPageHeader;
      revision: Revision;
      /** With wantText 'later': reads the text when called (null when the export left it out); `revision.text` is null. */
      readText?: () => string | null;
    }
  /** `invalidUtf8`: sequences in the page that were not UTF-8, each read as U+FFFD. */
  | { kind: 'pageEnd'; page: DumpPageHeader; invalidUtf8: number };

/** A revision without its text: what `wantText` decides on. */
export type RevisionMeta = Omit<Revision, 'text'>;

/** What an export's `<siteinfo>` says of its wiki: its database name (`frwiki`) and main page URL; null when unsaid (schema 0.4 to 0.9 have no `<dbname>`). */
export interface SiteInfo {
  dbname: string | null;
  base: string | null;
}

/** Which revisions' texts to decode. */
export interface ReadDumpOptions {
  /**
   * Asked once per revision that has text, after the whole revision was read (`<sha1>` follows
   * `<text>` in recent schemas) and after the consumer handled every earlier event, so that its
   * answer can depend on them: false leaves `text` null and the text is never decoded; 'later'
   * keeps its bytes for the event's `readText`, for a revision that may turn out to be needed.
   */
  wantText?: (page: DumpPageHeader, meta: RevisionMeta) => boolean | 'later';
}

/**
 * Reads a MediaWiki XML export as it streams: one event per revision, then one at each page's end,
 * every page's revisions in the order the dump holds them.
 *
 * @param input - uncompressed XML bytes, e.g. from `openDumpInput`
 * @param options - `wantText` decides per revision whether its text is decoded (default: every one)
 * @returns the events, holding at most the current revision
 * @throws InputError, naming where, for XML that is not well-formed, an empty or truncated dump, a
 *   root other than `<mediawiki>`, or a revision without its id or timestamp
 * @example
 * for await (const event of readDump(openDumpInput('dump.xml'), { wantText: (page) => page.namespace === 0 })) {
 *   if (event.kind === 'revision') console.log(event.page.title, event.revision.revId);
 * }
 */
export async function* readDump(
  input: NodeJS.ReadableStream | AsyncIterable<Buffer | string>,
  options: ReadDumpOptions = {},
): AsyncGenerator<DumpEvent> {
  const wantText = options.wantText ?? (() => true);
  const reader = new ExportReader();
  const complete = (event: ParsedEvent): DumpEvent => {
    if (event.kind === 'pageEnd') return event;
    const { page, meta, text } = event;
    const wanted = text === null ? false : wantText(page, meta);
    if (wanted === 'later' && text !== null) {
      let read: { text: string } | null = null;
      return { kind: 'revision', page, revision: { ...meta, text: null }, readText: () => (read ??= { text: reader.decodeText(text, page) }).text };
    }
    return { kind: 'revision', page, revision: { ...meta, text: wanted === true && text !== null ? reader.decodeText(text, page) : null } };
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    reader.write(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    for (const event of reader.takeEvents()) yield complete(event);
  }
  reader.finish();
  for (const event of reader.takeEvents()) yield complete(event);
}

/**
 * The `<siteinfo>` at the head of an export, reading no further than its end (or the first page of
 * an export without one): what `input` gave meanwhile comes back in `read`, so a stream that cannot
 * be opened again is read on from there. A head that is no export fails as the whole read would.
 */
export async function readSiteInfo(input: AsyncIterator<Buffer | string>): Promise<{ site: SiteInfo; read: Buffer[] }> {
  const reader = new ExportReader();
  const read: Buffer[] = [];
  while (reader.site === null) {
    const next = await input.next();
    if (next.done) {
      reader.finish();
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
    read.push(chunk);
    reader.write(chunk);
    reader.takeEvents();
  }
  return { site: reader.site ?? { dbname: null, base: null }, read };
}

/** Leaf elements whose character data the reader keeps, by the name of their parent element. */
const FIELDS_BY_PARENT = new Map<string, ReadonlySet<string>>([
  ['siteinfo', new Set(['dbname', 'base'])],
  ['namespaces', new Set(['namespace'])],
  ['page', new Set(['title', 'ns', 'id'])],
  ['revision', new Set(['id', 'parentid', 'timestamp', 'comment', 'sha1', 'model', 'text'])],
  ['contributor', new Set(['username', 'ip'])],
]);

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SEMICOLON = 0x3b;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const EMPTY = Buffer.alloc(0);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The opening characters kept to name what the input is when it turns out not to be an export. */
const HEAD_BYTES = 4096;

/** A run of an element's content as it stands in the input: character data (with references) or a CDATA section. */
interface Segment {
  bytes: Buffer;
  cdata: boolean;
}

/** A leaf element's content, not yet decoded, and where it starts (for the line of an error found when it is). */
interface RawContent {
  segments: Segment[];
  line: number;
  column: number;
}

interface PageState {
  title: string | null;
  ns: string | null;
  id: string | null;
  redirect: boolean;
  header: DumpPageHeader | null;
  invalidUtf8: number;
}

/** A revision read but not yet yielded: its text is decoded only if the consumer wants it. */
type ParsedEvent =
  | { kind: 'revision'; page: DumpPageHeader; meta: RevisionMeta; text: RawContent | null }
  | { kind: 'pageEnd'; page: DumpPageHeader; invalidUtf8: number };

interface RevisionState {
  fields: Map<string, string>;
  minor: boolean;
  text: RawContent | null;
  /** A self-closing or empty `<text>` that stands for content the export left out (deleted, or a stub dump). */
  textOmitted: boolean;
}

interface OpenField {
  name: string;
  attributes: Map<string, string>;
  content: RawContent;
}

interface Tag {
  name: string;
  attributes: Map<string, string>;
  selfClosing: boolean;
}

/** A well-formedness error at a stream offset; ExportReader turns it into the one line a user reads. */
class XmlError extends Error {
  constructor(
    message: string,
    readonly at: { offset: number } | { line: number; column: number },
  ) {
    super(message);
  }
}

class ExportReader {
  private readonly utf8 = new Utf8Checker();
  /** Offsets of invalid UTF-8 sequences not yet counted against a page, in stream order. */
  private invalid: number[] = [];
  private invalidAt = 0;
  /** Bytes not consumed yet (an unfinished piece of markup), and where they start in the stream. */
  private buffer: Buffer = EMPTY;
  private bufferOffset = 0;
  /** The line (1-based) at a stream offset in the buffer or at its start, and where that line starts: moved forward as lines are needed. */
  private readonly lines = { offset: 0, line: 1, lineStart: 0 };
  /** How far an unfinished comment, CDATA section or DOCTYPE was searched for its end. */
  private searchedTo = 0;
  private head: Buffer = EMPTY;
  /** Offsets of the invalid UTF-8 sequences within `head`. */
  private headInvalid: number[] = [];
  private readonly path: string[] = [];
  private readonly namespaces = new Map<string, number>();
  private readonly siteFields: SiteInfo = { dbname: null, base: null };
  /** The `<siteinfo>` once it is read whole: at its end, at the first page of an export without one, or at the root's end. */
  site: SiteInfo | null = null;
  private events: ParsedEvent[] = [];
  private nonWhitespaceSeen = false;
  private rootSeen = false;
  private rootClosed = false;
  private doctypeSeen = false;
  private page: PageState | null = null;
  private lastPage: DumpPageHeader | null = null;
  private revision: RevisionState | null = null;
  /** The leaf element being read. */
  private field: OpenField | null = null;

  write(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    this.noteInvalid(this.utf8.check(chunk));
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    this.guard(() => this.scan());
  }

  takeEvents(): ParsedEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  finish(): void {
    this.noteInvalid(this.utf8.end());
    this.countInvalidBefore(Infinity);
    if (!this.nonWhitespaceSeen) throw new InputError('E_DUMP_EMPTY', 'dump is empty');
    if (this.rootClosed && this.buffer.length > 0) throw this.syntaxError(new XmlError('unclosed markup at the end of the input', { offset: this.bufferOffset }));
    if (!this.rootSeen) throw new InputError('E_DUMP_TRUNCATED', 'dump has no root element (is it truncated?)');
    if (!this.rootClosed) {
      if (this.page) throw new InputError('E_DUMP_TRUNCATED', `dump is truncated inside ${describePage(this.page)}`);
      const after = this.lastPage ? ` after page "${this.lastPage.title}" (page id ${this.lastPage.pageId})` : '';
      throw new InputError('E_DUMP_TRUNCATED', `dump is truncated${after}: no closing </mediawiki>`);
    }
  }

  /** A revision's text as a string: line ends normalised, references replaced, then decoded from UTF-8. */
  decodeText(content: RawContent, page: DumpPageHeader): string {
    return this.guard(() => decodeContent(content), page);
  }

  private noteInvalid(offsets: number[]): void {
    // Appended one by one, not spread as arguments: a chunk of binary data holds hundreds of
    // thousands of invalid sequences, more arguments than a call's stack takes.
    for (const offset of offsets) {
      this.invalid.push(offset);
      if (offset < HEAD_BYTES) this.headInvalid.push(offset);
    }
  }

  /**
   * Runs `work`, an XmlError it throws turned into the one line a user reads, naming `page` (a text
   * decoded after the reader moved on) or else the page being read.
   */
  private guard<T>(work: () => T, page?: DumpPageHeader): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof XmlError) throw this.syntaxError(error, page);
      throw error;
    }
  }

  /** Consumes every complete piece of the buffer: character data up to the next `<`, then the markup there. */
  private scan(): void {
    const buffer = this.buffer;
    let at = 0;
    if (this.bufferOffset === 0 && buffer.subarray(0, 3).equals(UTF8_BOM)) at = 3;
    while (at < buffer.length) {
      if (buffer[at] !== LT) {
        const next = buffer.indexOf(LT, at);
        const end = next === -1 ? buffer.length : next;
        this.characterData(buffer, at, end);
        at = end;
        continue;
      }
      const after = this.markup(buffer, at);
      if (after === -1) break;
      at = after;
    }
    this.consume(at);
  }

  /** Drops the first `length` bytes of the buffer, keeping count of the lines they held. */
  private consume(length: number): void {
    const buffer = this.buffer;
    this.positionOf(this.bufferOffset + length);
    this.buffer = length === buffer.length ? EMPTY : buffer.subarray(length);
    this.bufferOffset += length;
    this.searchedTo = Math.max(0, this.searchedTo - length);
  }

  private characterData(buffer: Buffer, start: number, end: number): void {
    if (this.field) {
      this.field.content.segments.push({ bytes: buffer.subarray(start, end), cdata: false });
      return;
    }
    if (this.path.length > 0) return;
    for (let at = start; at < end; at++) {
      const byte = buffer[at]!;
      if (byte === 0x20 || byte === 0x09 || byte === NEWLINE || byte === CARRIAGE_RETURN) continue;
      this.nonWhitespaceSeen = true;
      throw new XmlError('text data outside of root node', { offset: this.bufferOffset + at });
    }
  }

  /** Handles the markup starting at `at` (a `<`); returns the index just past it, or -1 if it is not all in the buffer yet. */
  private markup(buffer: Buffer, at: number): number {
    this.nonWhitespaceSeen = true;
    const next = buffer[at + 1];
    if (next === undefined) return -1;
    if (next === SLASH) {
      const end = buffer.indexOf(GT, at + 2);
      if (end === -1) return -1;
      const name = buffer.toString('utf8', at + 2, end).trimEnd();
      if (!XML_NAME.test(name)) throw new XmlError('disallowed character in closing tag name', { offset: this.bufferOffset + at + 2 });
      this.countInvalidBefore(this.bufferOffset + end);
      this.close(name, false, this.bufferOffset + end);
      return end + 1;
    }
    if (next === BANG) return this.declaration(buffer, at);
    if (next === QUESTION) {
      const end = this.indexOfFrom(buffer, '?>', at + 2);
      return end === -1 ? -1 : end + 2;
    }
    const end = tagEnd(buffer, at + 1);
    if (end === -1) return -1;
    if (end === -2) throw new XmlError('disallowed character in tag', { offset: this.bufferOffset + at });
    const tag = parseTag(buffer.toString('utf8', at + 1, end), this.bufferOffset + at);
    this.countInvalidBefore(this.bufferOffset + end);
    this.open(tag, this.bufferOffset + end + 1);
    if (tag.selfClosing) this.close(tag.name, true, this.bufferOffset + end);
    return end + 1;
  }

  /** A comment, a CDATA section or the DOCTYPE, which opens with `<!`. */
  private declaration(buffer: Buffer, at: number): number {
    const opening = buffer.toString('latin1', at, at + 9);
    if (opening.startsWith('<!--')) {
      const end = this.indexOfFrom(buffer, '-->', at + 4);
      return end === -1 ? -1 : end + 3;
    }
    if (opening.startsWith('<![CDATA[')) {
      const end = this.indexOfFrom(buffer, ']]>', at + 9);
      if (end === -1) return -1;
      if (this.field) this.field.content.segments.push({ bytes: buffer.subarray(at + 9, end), cdata: true });
      else if (this.path.length === 0) throw new XmlError('text data outside of root node', { offset: this.bufferOffset + at });
      return end + 3;
    }
    if (opening === '<!DOCTYPE') {
      if (this.rootSeen || this.doctypeSeen) throw new XmlError('doctype can appear only before the root element', { offset: this.bufferOffset + at });
      const end = doctypeEnd(buffer, at + 9);
      if (end === -1) return -1;
      this.doctypeSeen = true;
      return end + 1;
    }
    if (opening.length < 9 && ['<!--', '<![CDATA[', '<!DOCTYPE'].some((start) => start.startsWith(opening))) return -1;
    throw new XmlError('malformed markup after <!', { offset: this.bufferOffset + at });
  }

  /** `buffer.indexOf(text, from)`, resumed where the last unsuccessful search of an unfinished piece stopped. */
  private indexOfFrom(buffer: Buffer, text: string, from: number): number {
    const found = buffer.indexOf(text, Math.max(from, this.searchedTo - text.length));
    this.searchedTo = found === -1 ? buffer.length : 0;
    return found;
  }

  private open(tag: Tag, contentOffset: number): void {
    const parent = this.path.at(-1);
    if (parent === undefined) {
      if (this.rootSeen) throw new XmlError('documents may contain only one root', { offset: contentOffset - 1 });
      if (tag.name !== 'mediawiki') throw new InputError('E_DUMP_NOT_MEDIAWIKI', `dump is not a MediaWiki XML export (root element <${tag.name}>)`);
      this.rootSeen = true;
      this.path.push(tag.name);
      return;
    }
    this.path.push(tag.name);
    if (this.field) throw new InputError('E_DUMP_MALFORMED', `dump has an unexpected <${tag.name}> inside <${this.field.name}>${this.where(contentOffset)}`);
    if (FIELDS_BY_PARENT.get(parent)?.has(tag.name) && this.isRecordedField(parent)) {
      this.field = { name: tag.name, attributes: tag.attributes, content: { segments: [], ...this.positionOf(contentOffset) } };
      return;
    }
    if (parent === 'mediawiki' && tag.name === 'page') {
      this.site ??= this.siteFields;
      this.page = { title: null, ns: null, id: null, redirect: false, header: null, invalidUtf8: 0 };
    } else if (parent === 'page' && this.page) {
      if (tag.name === 'redirect') this.page.redirect = true;
      if (tag.name === 'revision') {
        this.page.header ??= this.pageHeader(this.page, contentOffset);
        this.revision = { fields: new Map(), minor: false, text: null, textOmitted: false };
      }
    } else if (parent === 'revision' && tag.name === 'minor' && this.revision) {
      this.revision.minor = true;
    }
  }

  private close(name: string, selfClosing: boolean, offset: number): void {
    if (this.path.at(-1) !== name) throw new XmlError('unexpected close tag', { offset });
    this.path.pop();
    const parent = this.path.at(-1);
    if (this.field) {
      this.closeField(this.field, selfClosing);
      this.field = null;
    } else if (parent === 'page' && name === 'revision') {
      this.closeRevision();
    } else if (parent === 'mediawiki' && name === 'page' && this.page) {
      const header = (this.page.header ??= this.pageHeader(this.page, offset));
      this.events.push({ kind: 'pageEnd', page: header, invalidUtf8: this.page.invalidUtf8 });
      this.lastPage = header;
      this.page = null;
    } else if (parent === 'mediawiki' && name === 'siteinfo') {
      this.site ??= this.siteFields;
    } else if (parent === undefined) {
      this.site ??= this.siteFields;
      this.rootClosed = true;
    }
  }

  /** Counts the invalid UTF-8 sequences before `offset` against the page being read there. */
  private countInvalidBefore(offset: number): void {
    while (this.invalidAt < this.invalid.length && this.invalid[this.invalidAt]! < offset) {
      this.invalidAt++;
      if (this.page) this.page.invalidUtf8++;
    }
    if (this.invalidAt === this.invalid.length && this.invalidAt > 0) {
      this.invalid = [];
      this.invalidAt = 0;
    }
  }

  /** Contributor fields matter only for a revision's contributor, not an upload's or a log item's. */
  private isRecordedField(parent: string): boolean {
    if (parent === 'contributor') return this.path.at(-3) === 'revision';
    if (parent === 'namespaces') return this.path.at(-3) === 'siteinfo';
    if (parent === 'siteinfo') return this.path.at(-3) === 'mediawiki';
    return true;
  }

  private closeField(field: OpenField, selfClosing: boolean): void {
    const { name, attributes, content } = field;
    const parent = this.path.at(-1);
    if (parent === 'revision' && name === 'text') {
      if (!this.revision) return;
      const deleted = attributes.has('deleted');
      // Stub dumps write <text bytes="N" id="…"/> for content kept elsewhere; <text bytes="0"/> is a blanked page.
      const stub = selfClosing && Number(attributes.get('bytes') ?? 0) > 0;
      this.revision.textOmitted = deleted || stub;
      this.revision.text = content;
      return;
    }
    const value = this.guard(() => decodeContent(content));
    if (parent === 'namespaces') {
      const key = Number(attributes.get('key'));
      if (Number.isInteger(key) && value !== '') this.namespaces.set(value, key);
    } else if (parent === 'page' && this.page) {
      if (name === 'title') this.page.title = value;
      else if (name === 'ns') this.page.ns = value;
      else this.page.id = value;
    } else if (parent === 'siteinfo') {
      if (name === 'dbname') this.siteFields.dbname = value.trim();
      else this.siteFields.base = value.trim();
    } else if (this.revision) {
      // A contributor has a username or an ip, never both; either is the user.
      this.revision.fields.set(name === 'ip' ? 'username' : name, value);
    }
  }

  private closeRevision(): void {
    const page = this.page?.header;
    const state = this.revision;
    if (!page || !state) return;
    this.revision = null;
    const meta = this.revisionMeta(page, state);
    this.events.push({ kind: 'revision', page, meta, text: state.textOmitted ? null : state.text });
  }

  private revisionMeta(page: DumpPageHeader, state: RevisionState): RevisionMeta {
    const { fields } = state;
    const context = `in page "${page.title}" (page id ${page.pageId})`;
    const revId = parseId(fields.get('id'), `revision <id> ${context}`);
    const timestampText = fields.get('timestamp');
    if (timestampText === undefined) throw new InputError('E_DUMP_MALFORMED', `dump has revision ${revId} without <timestamp> ${context}`);
    let timestamp: string;
    try {
      timestamp = normaliseTimestamp(timestampText.trim());
    } catch {
      throw new InputError('E_DUMP_MALFORMED', `dump has revision ${revId} with invalid timestamp "${timestampText}" ${context}`);
    }
    const sha1 = fields.get('sha1')?.trim();
    // The content model chooses the fact extractor; wikitext, the default, is left unsaid.
    const model = fields.get('model')?.trim();
    return {
      ...(model && model !== DEFAULT_CONTENT_MODEL ? { model } : {}),
      revId,
      parentId: parseParentId(fields.get('parentid'), `<parentid> of revision ${revId} ${context}`),
      timestamp,
      sha1: sha1 ? sha1 : null,
      comment: fields.get('comment') ?? '',
      user: fields.get('username') ?? '',
      minor: state.minor,
    };
  }

  private pageHeader(page: PageState, offset: number): DumpPageHeader {
    // MediaWiki never writes a blank title: such a page would become a question about nothing.
    if (page.title === null || page.title.trim() === '') {
      throw new InputError('E_DUMP_MALFORMED', `dump has a page ${page.title === null ? 'without <title>' : 'with a blank <title>'}${this.where(offset)}`);
    }
    const pageId = parseId(page.id ?? undefined, `<id> of page "${page.title}"`);
    const namespace = page.ns === null ? this.namespaceOfTitle(page.title) : parseInteger(page.ns, `<ns> of page "${page.title}"`);
    return { pageId, title: page.title, namespace, redirect: page.redirect };
  }

  /** Schema 0.4 has no <ns>: the title's prefix names the namespace (main namespace when it names none). */
  private namespaceOfTitle(title: string): number {
    const colon = title.indexOf(':');
    return colon > 0 ? (this.namespaces.get(title.slice(0, colon)) ?? 0) : 0;
  }

  private syntaxError(error: XmlError, page?: DumpPageHeader): InputError {
    if (!this.rootSeen) {
      const start = this.headText('offset' in error.at ? error.at.offset : 0);
      if (/^\s*<(!doctype\s+html|html)[\s>]/i.test(start)) return new InputError('E_DUMP_NOT_MEDIAWIKI', 'dump is not a MediaWiki XML export (it is an HTML page)');
      if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(start)) {
        return new InputError('E_DUMP_NOT_MEDIAWIKI', 'dump is not a MediaWiki XML export: it is binary data, neither XML nor compressed as gzip, bzip2, 7z, xz or lzma');
      }
      return new InputError('E_DUMP_NOT_MEDIAWIKI', `dump is not a MediaWiki XML export: it is not XML (it starts with ${preview(start)})`);
    }
    const { line, column } = this.position(error);
    const inPage = page ? `, inside page "${page.title}" (page id ${page.pageId})` : this.page ? `, inside ${describePage(this.page)}` : '';
    return new InputError('E_DUMP_MALFORMED', `dump is malformed XML (line ${line}, column ${column}: ${error.message}${inPage})`);
  }

  /**
   * The input's opening text up to the error, as a reader of the whole text would have seen it so
   * far: to the end of the valid run holding the error (an invalid sequence ends a run), at most 200 characters.
   */
  private headText(errorOffset: number): string {
    const runEnd = this.headInvalid.find((at) => at > errorOffset);
    const bytes = this.head.subarray(0, runEnd === undefined ? this.head.length : Math.max(runEnd, errorOffset + 1));
    return bytes.toString('utf8').slice(0, 200);
  }

  private position(error: XmlError): { line: number; column: number } {
    return 'offset' in error.at ? this.positionOf(error.at.offset) : error.at;
  }

  /**
   * Line and column (1-based) of a stream offset in the buffer or just past it. Offsets are asked
   * for mostly in order, so the lines are counted once: forward from the last offset asked.
   */
  private positionOf(offset: number): { line: number; column: number } {
    const lines = this.lines;
    const buffer = this.buffer;
    if (offset >= lines.offset) {
      const upTo = Math.min(offset, this.bufferOffset + buffer.length) - this.bufferOffset;
      for (let newline = buffer.indexOf(NEWLINE, lines.offset - this.bufferOffset); newline !== -1 && newline < upTo; newline = buffer.indexOf(NEWLINE, newline + 1)) {
        lines.line++;
        lines.lineStart = this.bufferOffset + newline + 1;
      }
      lines.offset = Math.max(lines.offset, this.bufferOffset + upTo);
      return { line: lines.line, column: offset - lines.lineStart + 1 };
    }
    // An earlier offset (an error found late): count back from the last one.
    let { line } = lines;
    const from = Math.max(0, offset - this.bufferOffset);
    for (let newline = buffer.indexOf(NEWLINE, from); newline !== -1 && newline < lines.offset - this.bufferOffset; newline = buffer.indexOf(NEWLINE, newline + 1)) line--;
    const previous = buffer.lastIndexOf(NEWLINE, from - 1);
    const lineStart = previous === -1 ? this.bufferOffset : this.bufferOffset + previous + 1;
    return { line, column: offset - lineStart + 1 };
  }

  private where(offset: number): string {
    return ` (line ${this.positionOf(offset).line})`;
  }
}

/** XML's Name production, as far as an export's element names need it. */
const XML_NAME = /^[A-Za-z_:\u00c0-\uffff][-A-Za-z0-9_:.\u00b7\u00c0-\uffff]*$/;
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

/**
 * The index of the `>` that ends the tag whose name starts at `from` (quoted `>` skipped); -1 when
 * the buffer ends first, -2 at a `<` (never allowed in a tag).
 */
function tagEnd(buffer: Buffer, from: number): number {
  let quote = 0;
  for (let at = from; at < buffer.length; at++) {
    const byte = buffer[at]!;
    if (quote !== 0) {
      if (byte === quote) quote = 0;
      else if (byte === LT) return -2;
    } else if (byte === GT) return at;
    else if (byte === DOUBLE_QUOTE || byte === SINGLE_QUOTE) quote = byte;
    else if (byte === LT) return -2;
  }
  return -1;
}

/** A start tag's text between `<` and `>`: its name, attributes (values decoded) and whether it closes itself. */
function parseTag(text: string, offset: number): Tag {
  const selfClosing = text.endsWith('/');
  const body = selfClosing ? text.slice(0, -1) : text;
  const nameEnd = body.search(/[\s]|$/);
  const name = body.slice(0, nameEnd);
  if (!XML_NAME.test(name)) throw new XmlError('disallowed character in tag name', { offset: offset + 1 });
  const attributes = new Map<string, string>();
  let at = nameEnd;
  while (at < body.length) {
    ATTRIBUTE.lastIndex = at;
    const match = ATTRIBUTE.exec(body);
    if (match === null) {
      if (/^\s*$/.test(body.slice(at))) break;
      throw new XmlError('malformed attribute (names must be followed by = and a quoted value)', { offset: offset + 1 + at });
    }
    const [, key, doubleQuoted, singleQuoted] = match;
    if (!XML_NAME.test(key!)) throw new XmlError('disallowed character in attribute name', { offset: offset + 1 + at });
    if (attributes.has(key!)) throw new XmlError(`duplicate attribute: ${key}`, { offset: offset + 1 + at });
    // Attribute values have their whitespace characters read as spaces (XML 1.0 §3.3.3).
    const raw = Buffer.from((doubleQuoted ?? singleQuoted ?? '').replace(/[\t\n\r]/g, ' '), 'utf8');
    try {
      attributes.set(key!, bytesToString(replaceReferences(raw, 0)));
    } catch (error) {
      if (error instanceof ReferenceProblem) throw new XmlError(error.message, { offset: offset + 1 + at });
      throw error;
    }
    at = ATTRIBUTE.lastIndex;
  }
  return { name, attributes, selfClosing };
}

/** The index of the `>` ending a DOCTYPE whose name starts at `from`, past any internal subset in `[ ]`; -1 if not in the buffer. */
function doctypeEnd(buffer: Buffer, from: number): number {
  let quote = 0;
  let inSubset = false;
  for (let at = from; at < buffer.length; at++) {
    const byte = buffer[at]!;
    if (quote !== 0) {
      if (byte === quote) quote = 0;
    } else if (byte === DOUBLE_QUOTE || byte === SINGLE_QUOTE) quote = byte;
    else if (byte === 0x5b) inSubset = true;
    else if (byte === 0x5d) inSubset = false;
    else if (byte === GT && !inSubset) return at;
  }
  return -1;
}

/** Characters XML 1.0 does not allow in a document (U+FFFE, U+FFFF and C0 controls other than tab and line ends). */
const DISALLOWED_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/** A content's text: each run's line ends normalised and references replaced, then one UTF-8 decoding. */
function decodeContent(content: RawContent): string {
  const merged = mergeRuns(content.segments);
  const runs = merged.map((segment) => normaliseLineEnds(segment.bytes));
  const decoded = runs.map((bytes, i) => (merged[i]!.cdata ? bytes : replaceReferencesIn(bytes, content, runs, i)));
  const text = bytesToString(decoded.length === 1 ? decoded[0]! : Buffer.concat(decoded));
  if (DISALLOWED_CHARACTER.test(text)) throw new XmlError('disallowed character', positionIn(content, runs, ...disallowedByteIn(runs)));
  return text;
}

/**
 * Where the first character XML does not allow stands in the runs as the input has them: run and
 * byte index. No reference stands for one (replaceReferences refuses them), so it is in the bytes:
 * a C0 control byte, or U+FFFE or U+FFFF (EF BF BE, EF BF BF), which a CDATA section may cut in two.
 */
function disallowedByteIn(runs: readonly Buffer[]): [run: number, index: number] {
  const joined = Buffer.concat(runs);
  let at = joined.findIndex((byte, i) => (byte < 0x20 && byte !== 0x09 && byte !== NEWLINE && byte !== CARRIAGE_RETURN) || (byte === 0xef && joined[i + 1] === 0xbf && (joined[i + 2] === 0xbe || joined[i + 2] === 0xbf)));
  let run = 0;
  while (run < runs.length - 1 && at >= runs[run]!.length) at -= runs[run++]!.length;
  return [run, at];
}

/** Consecutive runs of character data as one (the input's chunks cut them anywhere, even inside a reference). */
function mergeRuns(segments: readonly Segment[]): Segment[] {
  if (segments.length <= 1) return [...segments];
  const merged: Segment[] = [];
  let pending: Buffer[] = [];
  const flush = () => {
    if (pending.length > 0) merged.push({ bytes: pending.length === 1 ? pending[0]! : Buffer.concat(pending), cdata: false });
    pending = [];
  };
  for (const segment of segments) {
    if (!segment.cdata) {
      pending.push(segment.bytes);
      continue;
    }
    flush();
    merged.push(segment);
  }
  flush();
  return merged;
}

function bytesToString(bytes: Buffer): string {
  // One-byte text takes V8's fast path; UTF-8 decoding to a two-byte string is the costly part.
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function replaceReferencesIn(bytes: Buffer, content: RawContent, runs: readonly Buffer[], run: number): Buffer {
  const misplaced = bytes.indexOf(']]>');
  if (misplaced !== -1) throw new XmlError('the string "]]>" is disallowed in char data', positionIn(content, runs, run, misplaced));
  try {
    return replaceReferences(bytes, 0);
  } catch (error) {
    if (error instanceof ReferenceProblem) throw new XmlError(error.message, positionIn(content, runs, run, error.index));
    throw error;
  }
}

/** The line and column of byte `index` of run `run` of a content, counted from where the content starts. */
function positionIn(content: RawContent, runs: readonly Buffer[], run: number, index: number): { line: number; column: number } {
  let { line, column } = content;
  const before = runs.slice(0, run).concat(runs[run]?.subarray(0, index) ?? []);
  for (const bytes of before) {
    let lineStart = -1;
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, newline + 1)) {
      line++;
      lineStart = newline;
    }
    column = lineStart === -1 ? column + bytes.length : bytes.length - lineStart;
  }
  return { line, column };
}

/** XML's line-end handling (§2.11): CR LF and a lone CR read as LF. Exports write none, so this rarely copies. */
function normaliseLineEnds(bytes: Buffer): Buffer {
  if (bytes.indexOf(CARRIAGE_RETURN) === -1) return bytes;
  return Buffer.from(bytes.toString('latin1').replace(/\r\n?/g, '\n'), 'latin1');
}

/** A malformed or unknown reference at a byte index of the run being decoded. */
class ReferenceProblem extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/** The longest reference worth reading as one: `&#x10FFFF;` and a little more. */
const LONGEST_REFERENCE = 12;

/**
 * Character data with its references replaced, on the bytes: a reference is never shorter than
 * the UTF-8 bytes of what it stands for, so the result fits the input's length. Only the five predefined
 * entities and character references exist; any other name is undefined (a DTD's entities are
 * never expanded: no billion laughs, no external entity).
 */
function replaceReferences(bytes: Buffer, from: number): Buffer {
  let ampersand = bytes.indexOf(AMP, from);
  if (ampersand === -1) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let written = bytes.copy(out, 0, 0, ampersand);
  while (ampersand !== -1) {
    const semicolon = indexWithin(bytes, SEMICOLON, ampersand + 1, ampersand + LONGEST_REFERENCE + 1);
    if (semicolon === -1) throw new ReferenceProblem('malformed entity reference (no ";" after "&")', ampersand);
    const named = namedReferenceAt(bytes, ampersand + 1, semicolon);
    const name = named === undefined ? bytes.toString('latin1', ampersand + 1, semicolon) : '';
    if (named !== undefined) {
      out[written++] = named;
    } else if (name.startsWith('#')) {
      const codePoint = /^#[0-9]+$/.test(name) ? Number(name.slice(1)) : /^#x[0-9a-fA-F]+$/.test(name) ? parseInt(name.slice(2), 16) : Number.NaN;
      if (!isXmlCharacter(codePoint)) throw new ReferenceProblem('malformed character entity', ampersand);
      written += out.write(String.fromCodePoint(codePoint), written, 'utf8');
    } else {
      throw new ReferenceProblem(/^[A-Za-z_:][-\w.:]*$/.test(name) ? 'undefined entity' : 'malformed entity reference', ampersand);
    }
    const next = indexWithin(bytes, AMP, semicolon + 1, semicolon + 1 + SHORT_RUN);
    const end = next === -1 ? bytes.indexOf(AMP, semicolon + 1 + SHORT_RUN) : next;
    const to = end === -1 ? bytes.length : end;
    if (to - semicolon <= SHORT_RUN) for (let at = semicolon + 1; at < to; at++) out[written++] = bytes[at]!;
    else written += bytes.copy(out, written, semicolon + 1, to);
    ampersand = end;
  }
  return out.subarray(0, written);
}

/**
 * Text between references at most this long is searched and copied in a loop here rather than by a
 * native call each: an entity's JSON text is a `&quot;` every few bytes, where the calls cost more
 * than the bytes.
 */
const SHORT_RUN = 32;

/** The index of `byte` in bytes[from, to), read here rather than by a native call (the range is short); -1 if absent. */
function indexWithin(bytes: Buffer, byte: number, from: number, to: number): number {
  const end = Math.min(to, bytes.length);
  for (let at = from; at < end; at++) if (bytes[at] === byte) return at;
  return -1;
}

/** The byte a predefined entity's name in bytes[from, to) stands for, read without making a string (texts hold millions of them). */
function namedReferenceAt(bytes: Buffer, from: number, to: number): number | undefined {
  const length = to - from;
  const first = bytes[from];
  if (length === 2 && bytes[from + 1] === 0x74) return first === 0x6c ? LT : first === 0x67 ? GT : undefined;
  if (length === 3 && first === 0x61 && bytes[from + 1] === 0x6d && bytes[from + 2] === 0x70) return AMP;
  // `&quot;` stands for every quote of an entity's JSON text: read on the bytes, as the others.
  if (length === 4 && first === 0x71 && bytes[from + 1] === 0x75 && bytes[from + 2] === 0x6f && bytes[from + 3] === 0x74) return DOUBLE_QUOTE;
  if (length === 4 && first === 0x61 && bytes[from + 1] === 0x70 && bytes[from + 2] === 0x6f && bytes[from + 3] === 0x73) return SINGLE_QUOTE;
  return undefined;
}

function isXmlCharacter(codePoint: number): boolean {
  return (
    codePoint === 0x9 || codePoint === 0xa || codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) || (codePoint >= 0xe000 && codePoint <= 0xfffd) || (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  );
}

function describePage(page: PageState): string {
  if (page.title === null) return 'a page';
  return page.id === null ? `page "${page.title}"` : `page "${page.title}" (page id ${page.id})`;
}

function parseWholeNumber(text: string | undefined, what: string): number {
  if (text === undefined) throw new InputError('E_DUMP_MALFORMED', `dump lacks the ${what}`);
  if (!/^\s*\d+\s*$/.test(text)) throw new InputError('E_DUMP_MALFORMED', `dump has a ${what} that is not a whole number: "${text}"`);
  const value = Number(text);
  // Past 2^53 two ids would be one number (MediaWiki's ids are 32-bit).
  if (!Number.isSafeInteger(value)) throw new InputError('E_DUMP_MALFORMED', `dump has a ${what} too large to be an id: "${text.trim().slice(0, 40)}"`);
  return value;
}

/** A page's or a revision's id: MediaWiki's start at 1, so 0 is a malformed dump, not an id. */
function parseId(text: string | undefined, what: string): number {
  const value = parseWholeNumber(text, what);
  if (value === 0) throw new InputError('E_DUMP_MALFORMED', `dump gives 0 as the ${what}: MediaWiki's ids start at 1`);
  return value;
}

/** A revision's parent: 0 is none, as the API says it (MediaWiki's own dumps then leave <parentid> out). */
function parseParentId(text: string | undefined, what: string): number | null {
  const value = text === undefined ? 0 : parseWholeNumber(text, what);
  return value === 0 ? null : value;
}

function parseInteger(text: string, what: string): number {
  if (!/^\s*-?\d+\s*$/.test(text)) throw new InputError('E_DUMP_MALFORMED', `dump has an ${what} that is not an integer: "${text}"`);
  return Number(text);
}

/** The input's first characters, quoted on one line, anything but letters, digits, punctuation and symbols shown as '?'. */
function preview(start: string): string {
  const text = start.replace(/\s+/g, ' ').trim();
  const shown = text.slice(0, 40).replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S} ]|\ufffd/gu, '?');
  return JSON.stringify(shown + (text.length > 40 ? '…' : ''));
}
