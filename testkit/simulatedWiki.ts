/**
 * A simulated MediaWiki Action API on loopback for a generated week of a big wiki (e.g. English
 * Wikipedia's 700,000 main-namespace edits on 250,000 pages), answering what the API revision source
 * asks (list=recentchanges, prop=info, prop=revisions by revision id, list=logevents) as MediaWiki
 * does with formatversion=2. Every reply is computed from the request: edit i is a pure function of
 * i, so no listing or JSON of the week is ever held, and the server costs no memory of its own.
 * Texts are filler around a moving infobox value, or, given real articles (`articles`, e.g. the
 * English history sample's revisions), those articles edited as a week edits them: each page is
 * one of them, and each edit changes its body, its infobox or its lead, reverts the edit before
 * (restoring its parent's parent byte for byte) or saves it unchanged, in shares `EDIT_SHARES` gives.
 * Run as a program (`node --import tsx testkit/simulatedWiki.ts EDITS PAGES START [DUMP]`, DUMP
 * the articles' history) it prints its API URL, so a benchmark can measure the client's memory
 * apart from the server's.
 */
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readDump } from '../src/sources/dumpReader.js';

export interface SimulatedWeek {
  /** The week's first instant, e.g. 2025-01-06T00:00:00Z. */
  start: string;
  /** Main-namespace edits in the 7 days; edits go on at the same rate for 2 days after. */
  edits: number;
  /** Pages edited; every 10th edit goes to one of `hotPages` busy pages. */
  pages: number;
  /** Busy pages (default 1% of the pages, at least 1). */
  hotPages?: number;
  /** Characters of filler wikitext per revision (default 2,000), when no articles are given. */
  textChars?: number;
  /** Real articles' wikitext: page k is article k mod their number, edited as EDIT_SHARES says. */
  articles?: readonly string[];
}

/**
 * What a week's edits do, per thousand edits: an assumption (docs/SCALE.md), as public figures
 * give none this fine. Identity reverts are about one edit in twenty on English Wikipedia.
 */
export const EDIT_SHARES = { infobox: 125, lead: 100, revert: 50, unchanged: 10 } as const;

type EditKind = 'body' | 'infobox' | 'lead' | 'revert' | 'unchanged';

/** Where an article's text is edited: the infobox value that changes, the end of the first paragraph, a place in the body. */
interface EditPlaces {
  text: string;
  value: { start: number; end: number } | null;
  lead: number | null;
  body: number;
  /** The text as the inside of a JSON string, in UTF-8, and where each place starts in it: replies are assembled from it. */
  json: Buffer;
  jsonAt: Map<number, number>;
}

/** The edits a revision's text carries, by the edit index that made each (-1: as the article was). */
interface TextState {
  infobox: number;
  lead: number;
  body: number;
}

const UNEDITED: TextState = { infobox: -1, lead: -1, body: -1 };

export interface SimulatedWiki {
  apiUrl: string;
  /** Requests answered so far. */
  requestCount(): number;
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const AFTER_DAYS = 2;
/**
 * Each page's revision before the week lies this long before it, older than the client's revert
 * horizon (48 hours): recent changes then hold nothing in the two days before the week, as listed.
 */
const BASELINE_AGE_MS = 3 * DAY_MS;
/** The oldest change recent changes keep: a talk-page edit (no main-namespace listing sees it), so the window and its horizon are covered. */
const OLDEST_KEPT_MS = 7 * DAY_MS;
const BASELINE_REV = 1_000_000_000;
const EDIT_REV = 2_000_000_000;
/** A prime: page index k becomes page id 1 + (k × PAGE_STRIDE mod pages), scattering busy pages. */
const PAGE_STRIDE = 7919;
/** Every 50th page is created in the week (its first edit is a page creation). */
const CREATED_EVERY = 50;

/** The generated week as pure functions of an edit's index. */
export class WeekModel {
  readonly startMs: number;
  readonly total: number;
  readonly hot: number;
  readonly cold: number;
  readonly textChars: number;

  constructor(readonly week: SimulatedWeek) {
    this.startMs = Date.parse(week.start);
    if (Number.isNaN(this.startMs) || week.edits < 1 || week.pages < 2 || week.pages % PAGE_STRIDE === 0) throw new Error('invalid simulated week');
    this.total = Math.floor((week.edits * (7 + AFTER_DAYS)) / 7);
    this.hot = Math.max(1, week.hotPages ?? Math.floor(week.pages / 100));
    this.cold = week.pages - this.hot;
    this.textChars = week.textChars ?? 2000;
    this.places = (week.articles ?? []).map(editPlaces);
  }

  private readonly places: EditPlaces[];

  /** Seconds resolution, as MediaWiki's timestamps. */
  timeOf(index: number): number {
    return this.startMs + Math.floor((index * WEEK_MS) / this.week.edits / 1000) * 1000;
  }

  /** The first edit at or after `ms`. */
  firstAtOrAfter(ms: number): number {
    let low = 0;
    let high = this.total;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (this.timeOf(mid) < ms) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The page index of an edit and the index of the same page's previous edit (-1: none in the listing). */
  pageOf(index: number): { page: number; previous: number } {
    const q = Math.floor(index / 10);
    const r = index % 10;
    if (r === 0) return { page: q % this.hot, previous: q >= this.hot ? index - 10 * this.hot : -1 };
    const coldIndex = 9 * q + r - 1;
    const before = coldIndex - this.cold;
    return { page: this.hot + (coldIndex % this.cold), previous: before < 0 ? -1 : 10 * Math.floor(before / 9) + (before % 9) + 1 };
  }

  pageId(page: number): number {
    return 1 + ((page * PAGE_STRIDE) % this.week.pages);
  }

  createdInWeek(page: number): boolean {
    return page % CREATED_EVERY === CREATED_EVERY - 1;
  }

  /** The revision an edit's page had before it: the previous edit, the baseline, or none (0). */
  parentOf(index: number): number {
    const { page, previous } = this.pageOf(index);
    if (previous >= 0) return EDIT_REV + previous;
    return this.createdInWeek(page) ? 0 : BASELINE_REV + page;
  }

  /** A revision id's page and time; undefined for ids the wiki never had. */
  revision(revId: number): { page: number; ms: number; index: number | null } | undefined {
    if (revId >= EDIT_REV && revId < EDIT_REV + this.total) {
      const index = revId - EDIT_REV;
      return { page: this.pageOf(index).page, ms: this.timeOf(index), index };
    }
    const page = revId - BASELINE_REV;
    if (page >= 0 && page < this.week.pages && !this.createdInWeek(page)) return { page, ms: this.startMs - BASELINE_AGE_MS - page * 1000, index: null };
    return undefined;
  }

  /** `text` as a JSON string in UTF-8. */
  textJson(revId: number, page: number): Buffer {
    if (this.places.length === 0) return Buffer.from(JSON.stringify(this.text(revId, page)));
    const index = revId >= EDIT_REV ? revId - EDIT_REV : null;
    return renderJson(this.places[page % this.places.length] as EditPlaces, page, index === null ? UNEDITED : this.stateOf(index));
  }

  /** The wikitext of a revision: its article as the week's edits left it, or filler around an infobox whose population moves. */
  text(revId: number, page: number): string {
    if (this.places.length > 0) {
      const index = revId >= EDIT_REV ? revId - EDIT_REV : null;
      return render(this.places[page % this.places.length] as EditPlaces, page, index === null ? UNEDITED : this.stateOf(index));
    }
    const head = `{{Infobox settlement\n| name = Place ${this.pageId(page)}\n| population_total = ${1000 + (revId % 9973)}\n| area_km2 = ${10 + (page % 500)}\n}}\n'''Place ${this.pageId(page)}''' is a settlement. `;
    const filler = 'It lies on a river and has a market square with old houses. ';
    return head + filler.repeat(Math.max(0, Math.ceil((this.textChars - head.length) / filler.length)));
  }

  /** A page's edits are chained by `pageOf(…).previous`; a revert or an unchanged save repeats an earlier text. */
  private stateOf(index: number): TextState {
    const previous = this.pageOf(index).previous;
    const before = previous >= 0 ? this.stateOf(previous) : UNEDITED;
    const kind = editKind(index);
    if (kind === 'unchanged') return before;
    if (kind === 'revert' && previous >= 0) {
      const twoBefore = this.pageOf(previous).previous;
      return twoBefore >= 0 ? this.stateOf(twoBefore) : UNEDITED;
    }
    return { infobox: kind === 'infobox' ? index : before.infobox, lead: kind === 'lead' ? index : before.lead, body: index };
  }
}

function editKind(index: number): EditKind {
  const share = Math.imul(index + 1, 2654435761) >>> 0;
  let at = share % 1000;
  if ((at -= EDIT_SHARES.infobox) < 0) return 'infobox';
  if ((at -= EDIT_SHARES.lead) < 0) return 'lead';
  if ((at -= EDIT_SHARES.revert) < 0) return 'revert';
  if ((at -= EDIT_SHARES.unchanged) < 0) return 'unchanged';
  return 'body';
}

const INFOBOX_START = /\{\{\s*infobox[^\n]*\n/i;
const PARAMETER_LINE = /^[ \t]*\|[ \t]*[\w ]+?[ \t]*=[ \t]*([^\n]*)$/gm;

/** The places an article's edits touch: a numeric infobox value (else the first plain one), its first paragraph's end, its body. */
function editPlaces(text: string): EditPlaces {
  let value: EditPlaces['value'] = null;
  let afterInfobox = 0;
  const infobox = INFOBOX_START.exec(text);
  if (infobox) {
    const closing = text.indexOf('\n}}', infobox.index);
    afterInfobox = closing === -1 ? infobox.index : closing + 3;
    const candidates: Array<{ start: number; end: number; numeric: boolean }> = [];
    PARAMETER_LINE.lastIndex = infobox.index;
    for (let line = PARAMETER_LINE.exec(text); line !== null && line.index < afterInfobox; line = PARAMETER_LINE.exec(text)) {
      const raw = line[1] ?? '';
      if (raw.trim() === '' || /[{}[\]<|]/.test(raw)) continue;
      const start = line.index + line[0].length - raw.length;
      candidates.push({ start, end: start + raw.trimEnd().length, numeric: /^\d[\d,.]*$/.test(raw.trim()) });
    }
    value = candidates.find((candidate) => candidate.numeric) ?? candidates[0] ?? null;
  }
  const leadLine = /^'''[^\n]*$/m.exec(text.slice(afterInfobox));
  const heading = text.indexOf('\n==', afterInfobox);
  const lead = leadLine && (heading === -1 || afterInfobox + leadLine.index < heading) ? afterInfobox + leadLine.index + leadLine[0].length : null;
  const secondHeading = heading === -1 ? -1 : text.indexOf('\n==', heading + 3);
  const body = secondHeading === -1 ? text.length : secondHeading;
  const jsonOf = (part: string) => JSON.stringify(part).slice(1, -1);
  const jsonAt = new Map([value?.start, value?.end, lead, body, text.length].flatMap((at) => (typeof at === 'number' ? [[at, Buffer.byteLength(jsonOf(text.slice(0, at)))] as const] : [])));
  return { text, value, lead, body, json: Buffer.from(jsonOf(text)), jsonAt };
}

/**
 * An article with the edits of a state applied, in text order. Pages sharing an article differ
 * in its infobox value and first paragraph from the start, as different articles do: no page
 * finds another's infobox or lead among what the parser remembers.
 */
function render(places: EditPlaces, page: number, state: TextState): string {
  let text = '';
  let copiedUpTo = 0;
  for (const edit of editsOf(places, page, state)) {
    text += places.text.slice(copiedUpTo, edit.start) + edit.insert;
    copiedUpTo = edit.end;
  }
  return text + places.text.slice(copiedUpTo);
}

/** `render` as a JSON string in UTF-8, assembled from the article's encoded text: the wiki's cost stays far below the client's. */
function renderJson(places: EditPlaces, page: number, state: TextState): Buffer {
  const parts: Buffer[] = [QUOTE];
  let copiedUpTo = 0;
  const at = (position: number) => places.jsonAt.get(position) as number;
  for (const edit of editsOf(places, page, state)) {
    parts.push(places.json.subarray(at(copiedUpTo), at(edit.start)), Buffer.from(JSON.stringify(edit.insert).slice(1, -1)));
    copiedUpTo = edit.end;
  }
  parts.push(places.json.subarray(at(copiedUpTo)), QUOTE);
  return Buffer.concat(parts);
}

const QUOTE = Buffer.from('"');

/** The edits of a state, in text order. */
function editsOf(places: EditPlaces, page: number, state: TextState): Array<{ start: number; end: number; insert: string }> {
  const edits: Array<{ start: number; end: number; insert: string }> = [];
  if (places.value) edits.push({ ...places.value, insert: String(state.infobox >= 0 ? 10_000 + (state.infobox % 90_000) : 1_000_000 + page) });
  if (places.lead !== null) edits.push({ start: places.lead, end: places.lead, insert: ` It is article ${page}${state.lead >= 0 ? `, described again in edit ${state.lead}` : ''}.` });
  if (state.body >= 0) edits.push({ start: places.body, end: places.body, insert: `\nA sentence added by edit ${state.body}.` });
  return edits.sort((a, b) => a.start - b.start);
}

/** The main-namespace revision texts of a history dump, as simulated articles. */
export async function articlesOf(dump: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const event of readDump(createReadStream(dump))) {
    if (event.kind === 'revision' && event.page.namespace === 0 && !event.page.redirect && event.revision.text) texts.push(event.revision.text);
  }
  return texts;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function mwTimestamp(ms: number): string {
  return iso(ms).replace(/[-:TZ]/g, '');
}

function metadata(revId: number, ms: number, index: number | null) {
  return {
    revid: revId,
    timestamp: iso(ms),
    sha1: revId.toString(16).padStart(40, '0'),
    comment: index === null ? 'earlier edit' : `edit ${index}`,
    user: `Editor${(index ?? revId) % 5000}`,
    minor: index !== null && index % 7 === 0,
  };
}

/** list=recentchanges, oldest first, continued by `rccontinue=TIMESTAMP|RCID` as MediaWiki does. */
function recentChanges(model: WeekModel, params: URLSearchParams): unknown {
  const limit = Math.min(Number(params.get('rclimit') ?? 10) || 10, 500);
  const endMs = params.has('rcend') ? Date.parse(params.get('rcend') as string) : Infinity;
  const token = params.get('rccontinue');
  const first = token ? Number(token.split('|')[1]) - 1 : params.has('rcstart') ? model.firstAtOrAfter(Date.parse(params.get('rcstart') as string)) : 0;
  const rows: unknown[] = [];
  if (!token && !params.has('rcstart') && !params.has('rcnamespace')) {
    const ms = model.startMs - OLDEST_KEPT_MS;
    rows.push({ type: 'edit', ns: 1, title: 'Talk:Place 1', pageid: model.week.pages + 1, old_revid: 0, rcid: 0, ...metadata(BASELINE_REV - 1, ms, null) });
  }
  let index = first;
  for (; index < model.total && rows.length < limit && model.timeOf(index) <= endMs; index++) {
    const { page } = model.pageOf(index);
    const parent = model.parentOf(index);
    rows.push({
      type: parent === 0 ? 'new' : 'edit',
      ns: 0,
      title: `Place ${model.pageId(page)}`,
      pageid: model.pageId(page),
      old_revid: parent,
      rcid: index + 1,
      ...metadata(EDIT_REV + index, model.timeOf(index), index),
    });
  }
  const more = index < model.total && model.timeOf(index) <= endMs;
  return {
    batchcomplete: !more,
    ...(more ? { continue: { rccontinue: `${mwTimestamp(model.timeOf(index))}|${index + 1}`, continue: '-||' } } : {}),
    query: { recentchanges: rows },
  };
}

function pageInfo(model: WeekModel, params: URLSearchParams): unknown {
  const ids = (params.get('pageids') ?? '').split('|').filter(Boolean).map(Number);
  return {
    batchcomplete: true,
    query: {
      pages: ids.map((pageid) =>
        pageid >= 1 && pageid <= model.week.pages ? { pageid, ns: 0, title: `Place ${pageid}`, contentmodel: 'wikitext', pagelanguage: 'en' } : { ns: 0, title: `Page id ${pageid}`, missing: true },
      ),
    },
  };
}

function revisionsById(model: WeekModel, params: URLSearchParams): unknown {
  const byPage = new Map<number, unknown[]>();
  const bad: number[] = [];
  for (const revId of (params.get('revids') ?? '').split('|').filter(Boolean).map(Number)) {
    const found = model.revision(revId);
    if (!found) {
      bad.push(revId);
      continue;
    }
    const withContent = (params.get('rvprop') ?? '').includes('content');
    const parentid = found.index === null ? 0 : model.parentOf(found.index);
    const entry = {
      ...metadata(revId, found.ms, found.index),
      parentid,
      ...(withContent ? { slots: { main: { contentmodel: 'wikitext', contentformat: 'text/x-wiki', content: new JsonText(model.textJson(revId, found.page)) } } } : {}),
    };
    const pageId = model.pageId(found.page);
    byPage.set(pageId, [...(byPage.get(pageId) ?? []), entry]);
  }
  return {
    batchcomplete: true,
    query: {
      ...(bad.length > 0 ? { badrevids: Object.fromEntries(bad.map((revid) => [revid, { revid, missing: true }])) } : {}),
      pages: [...byPage].map(([pageid, revisions]) => ({ pageid, ns: 0, title: `Place ${pageid}`, revisions })),
    },
  };
}

/** A value already encoded as JSON, put into a reply as it is. */
class JsonText {
  constructor(readonly json: Buffer) {}
}

const JSON_TEXT_MARK = /"@@json-text-(\d+)@@"/;

/** A reply as JSON in UTF-8, its JsonText values inserted as they are. */
function encodeReply(reply: unknown): Buffer {
  const texts: Buffer[] = [];
  const json = JSON.stringify(reply, (_key, value: unknown) => (value instanceof JsonText ? `@@json-text-${texts.push(value.json) - 1}@@` : value));
  const pieces = json.split(JSON_TEXT_MARK);
  return Buffer.concat(pieces.map((piece, i) => (i % 2 === 0 ? Buffer.from(piece) : (texts[Number(piece)] as Buffer))));
}

function answer(model: WeekModel, params: URLSearchParams): unknown {
  if (params.get('action') !== 'query') return unsupported(params);
  if (params.get('list') === 'recentchanges') return recentChanges(model, params);
  // No moves or deletions in the simulated week.
  if (params.get('list') === 'logevents') return { batchcomplete: true, query: { logevents: [] } };
  if (params.get('prop') === 'info' && params.has('pageids')) return pageInfo(model, params);
  if (params.get('prop') === 'revisions' && params.has('revids')) return revisionsById(model, params);
  return unsupported(params);
}

/** What the simulation does not model is an API error, as MediaWiki answers an unknown module. */
function unsupported(params: URLSearchParams): unknown {
  return { error: { code: 'badvalue', info: `the simulated wiki does not answer ${params.toString().slice(0, 200)}` } };
}

async function paramsOf(request: IncomingMessage): Promise<URLSearchParams> {
  const params = new URL(request.url ?? '/', 'http://localhost').searchParams;
  if (request.method !== 'POST') return params;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) params.set(key, value);
  return params;
}

export async function startSimulatedWiki(week: SimulatedWeek, port = 0): Promise<SimulatedWiki> {
  const model = new WeekModel(week);
  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests++;
    paramsOf(request)
      .then((params) => {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        response.end(encodeReply(answer(model, params)));
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${bound}/w/api.php`,
    requestCount: () => requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function serveFromCommandLine(): Promise<void> {
  const [edits, pages, start, dump] = process.argv.slice(2);
  const articles = dump ? { articles: await articlesOf(dump) } : {};
  const wiki = await startSimulatedWiki({ edits: Number(edits), pages: Number(pages), start: start ?? '2025-01-06T00:00:00Z', ...articles });
  process.stdout.write(`${wiki.apiUrl}\n`);
  // The parent reads the count of answered requests from the line written when it closes our input.
  process.stdin.resume();
  process.stdin.on('end', () => {
    process.stdout.write(`${JSON.stringify({ requests: wiki.requestCount() })}\n`);
    void wiki.stop().then(() => process.exit(0));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void serveFromCommandLine();
