import type { Store } from '../store/store.js';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { addDays, formatDate, parseDate } from '../dates.js';
import { InputError } from '../errors.js';
import { withoutByteOrderMark } from '../text/byteOrderMark.js';
import type { AnswerInterval } from '../model/timelines.js';

const DailyQaLine = z.object({ id: z.string().min(1), query: z.string(), answer: z.string().nullable() }).strict();
const FILE_NAME = /^qa_(\d{2})(\d{2})(\d{2})\.jsonl(\.gz)?$/;

/** One published per-day file read: its date and its validated lines. */
export interface DailyQaDay {
  date: string;
  rows: Array<z.infer<typeof DailyQaLine>>;
}

/** The date a published per-day file is for, from its name (qa_YYMMDD.jsonl[.gz]). */
export function dailyQaFileDate(path: string): string {
  const match = FILE_NAME.exec(basename(path));
  if (!match) throw new InputError('E_DAILYQA_FILE_INVALID', `${path}: not a DailyQA per-day file name (expected qa_YYMMDD.jsonl or qa_YYMMDD.jsonl.gz)`);
  const date = `20${match[1]}-${match[2]}-${match[3]}`;
  parseDate(date, `date in file name ${basename(path)}`);
  return date;
}

/** Reads and validates one per-day file (plain or gzip, by its magic bytes); a bad line is named by number. */
export async function readDailyQaFile(path: string): Promise<DailyQaDay> {
  const date = dailyQaFileDate(path);
  const rows: DailyQaDay['rows'] = [];
  const gzip = await startsWithGzipMagic(path);
  const input = createReadStream(path);
  const stream = gzip ? input.pipe(createGunzip()) : input;
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        // A byte order mark starts only the first line.
        value = JSON.parse(number === 1 ? withoutByteOrderMark(line) : line);
      } catch {
        throw new InputError('E_DAILYQA_FILE_INVALID', `${path} line ${number}: not JSON`);
      }
      const parsed = DailyQaLine.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new InputError('E_DAILYQA_FILE_INVALID', `${path} line ${number}: ${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'}`);
      }
      rows.push(parsed.data);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError('E_FILE_UNREADABLE', `${path}: cannot read (${(error as Error).message})`);
  }
  return { date, rows };
}

async function startsWithGzipMagic(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    throw new InputError('E_FILE_UNREADABLE', `cannot open ${path}`);
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Per-day answers → intervals of equal answers over consecutive days. A day without a file is a
 * gap, never assumed: the interval before it ends, the one after starts anew.
 */
export function compressDays(days: ReadonlyMap<string, string | null>): AnswerInterval[] {
  const dates = [...days.keys()].sort();
  const intervals: AnswerInterval[] = [];
  for (const date of dates) {
    const answer = days.get(date) as string | null;
    const next = formatDate(addDays(parseDate(date), 1));
    const last = intervals.at(-1);
    if (last && last.validTo === date && last.answer === answer) last.validTo = next;
    else intervals.push({ validFrom: date, validTo: next, answer });
  }
  return intervals;
}

/** Intervals back to per-day answers (for merging a new import into what is stored). */
export function expandIntervals(intervals: readonly AnswerInterval[]): Map<string, string | null> {
  const days = new Map<string, string | null>();
  for (const interval of intervals) {
    for (let day = parseDate(interval.validFrom); formatDate(day) < interval.validTo; day = addDays(day, 1)) {
      days.set(formatDate(day), interval.answer);
    }
  }
  return days;
}

/**
 * Each query's text and its answer per date, from per-day files. The same answer given twice for a
 * date is one answer; two different ones are refused, naming both, since keeping either would drop
 * the other silently.
 */
export function answersById(days: ReadonlyArray<DailyQaDay & { path: string }>): Map<string, { query: string; days: Map<string, string | null> }> {
  const byId = new Map<string, { query: string; days: Map<string, string | null>; from: Map<string, string> }>();
  for (const day of days) {
    for (const row of day.rows) {
      const entry = byId.get(row.id) ?? { query: row.query, days: new Map<string, string | null>(), from: new Map<string, string>() };
      const earlier = entry.days.get(day.date);
      if (earlier !== undefined && earlier !== row.answer) {
        throw new InputError(
          'E_DAILYQA_CONFLICT',
          `query ${row.id} has two answers for ${day.date}: ${JSON.stringify(earlier)} (${basename(entry.from.get(day.date) ?? '')}) and ${JSON.stringify(row.answer)} (${basename(day.path)}); keep one and import again`,
        );
      }
      entry.query = row.query;
      entry.days.set(day.date, row.answer);
      entry.from.set(day.date, day.path);
      byId.set(row.id, entry);
    }
  }
  return new Map([...byId].map(([id, entry]) => [id, { query: entry.query, days: entry.days }]));
}

/**
 * Loads published per-day files into the store as answer intervals, merged with whatever earlier
 * imports stored for the same ids. Every file is read and validated before anything is written, and
 * everything is written in one transaction: a bad file leaves the store as it was.
 *
 * @param paths - DailyQA per-day files (`qa_YYMMDD.jsonl`, plain or gzip)
 * @param now - the import's time, recorded with it
 * @returns how many files, queries, days and answer intervals were read
 * @throws InputError naming the file (and line) for a file that cannot be read, a bad file name, a line
 *   that is not a query, or two different answers to one query on one date
 * @example await importDailyQa(db, ['qa_250120.jsonl', 'qa_250121.jsonl.gz']) // { files: 2, queries: …, days: 2, intervals: … }
 */
export async function importDailyQa(store: Store, paths: readonly string[], now: Date = new Date()): Promise<{ files: number; queries: number; days: number; intervals: number }> {
  // A file named twice (a shell glob and its name, `./` or not) is one file: read once, counted once.
  const named = new Set<string>();
  const files = paths.filter((path) => {
    const file = resolve(path);
    if (named.has(file)) return false;
    named.add(file);
    return true;
  });
  const days: Array<DailyQaDay & { path: string }> = [];
  for (const path of files) days.push({ ...(await readDailyQaFile(path)), path });
  const byId = answersById(days);
  // Daily answers, one per query and date: two files of one date (plain and .gz) hold the same ones.
  const dailyAnswers = [...byId.values()].reduce((sum, entry) => sum + entry.days.size, 0);
  const createdAt = now.toISOString();
  const queries = [...byId].map(([id, entry]) => ({ id, text: entry.query, windowStart: weekFromId(id) }));
  const intervals = store.queries.saveImported(
    queries,
    (id, stored) => {
      const days = expandIntervals(stored);
      for (const [date, answer] of byId.get(id)?.days ?? []) days.set(date, answer);
      return compressDays(days);
    },
    createdAt,
  );
  return { files: files.length, queries: byId.size, days: dailyAnswers, intervals };
}

/** DailyQA ids begin with the creation time as YYMMDDHH: the week the query was made. */
function weekFromId(id: string): string | null {
  const match = /^(\d{2})(\d{2})(\d{2})\d{2}-/.exec(id);
  if (!match) return null;
  const date = `20${match[1]}-${match[2]}-${match[3]}`;
  try {
    parseDate(date);
    return `${date}T00:00:00Z`;
  } catch {
    return null;
  }
}
