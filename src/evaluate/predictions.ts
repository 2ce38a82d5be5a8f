/**
 * Prediction files as researchers submit them, parsed with zod: JSONL `{id, prediction}` (an optional
 * `date` per line, `prediction` as text or GrowOVER's `{text}`); RealTimeQA's submission lines
 * (`question_id`, its `question_date` as the date, `prediction` as text or as a list of choice indices
 * resolved through the line's `choices`, `score` ignored); SQuAD's `{id: answer}` JSON; GrowOVER's
 * results JSON `{id: {prediction: {text}, ...}}`. Anything else is a UserError naming the line and the
 * field, so nothing is scored from a half-read file. A JSONL file is read a chunk at a time and each
 * line handed on as it is parsed, so a million predictions cost their index, not their file, in memory.
 * A prediction may hold at most MAX_PREDICTION_CHARS: scoring normalises and tokenises it several
 * times over, and one of 100 MB took 3.4 GB; a longer one is refused with its line, before its line
 * is even parsed when the line is far over.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { isCalendarDate } from '../dates.js';
import { UserError } from '../errors.js';

/** One prediction as read from a file. */
export interface Prediction {
  id: string;
  prediction: string;
  /** YYYY-MM-DD, when the line names the date it answers for. */
  date: string | null;
  /**
   * A number for the id, the same on every line with that id, when the reader numbers ids
   * (`ThreadedPredictionFile`): a scorer looks each id up once, not once per line. Numbers are one
   * reader's own, across all the files it reads: a feed hands on the predictions of one numbering
   * reader (`evaluateWeekly`'s cache of them is the feed's).
   */
  key?: number;
}

/** Answers are a few words; a system's whole reply, reasoning included, fits many times over. */
export const MAX_PREDICTION_CHARS = 100_000;
/**
 * The longest JSONL line read: room for a prediction at the cap however escaped (\uXXXX is 6
 * characters for 1) and the line's other fields; a longer line is refused before it is parsed.
 */
const MAX_LINE_CHARS = 6 * MAX_PREDICTION_CHARS + 10_000;
/**
 * The largest results JSON read: one object, parsed whole at about four times its size in memory
 * (a million SQuAD answers are some 60 MB). Lines are read one by one, so JSONL has no such cap.
 */
const MAX_RESULTS_JSON_BYTES = 256 * 1024 * 1024;

/** What a file may hold, named in every error about its shape. */
const FORMATS = "JSONL {id, prediction[, date]}, RealTimeQA's {question_id, prediction} lines, SQuAD's {id: answer} JSON or GrowOVER's results JSON {id: {prediction: {text}}}";

const ChoiceIndices = z.array(z.string().regex(/^\d+$/, 'a choice index (0, 1, ...)')).min(1);
const PredictionText = z.union([z.string(), z.object({ text: z.string() }).passthrough(), ChoiceIndices], {
  error: (issue) => (issue.input === undefined ? 'missing' : "expected the answer as text, GrowOVER's {text}, or RealTimeQA's [choice index] with the line's choices"),
});
/** Dates already found real: a million lines name a handful of dates. */
const calendarDates = new Set<string>();
const DateText = z.string().refine(isRealDate, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a real calendar date as YYYY-MM-DD`,
});
/** RealTimeQA dates its questions YYYY/MM/DD. */
const SlashedDate = z
  .string()
  .regex(/^\d{4}\/\d{2}\/\d{2}$/, 'expected YYYY/MM/DD')
  .transform((date) => date.replaceAll('/', '-'))
  .pipe(DateText);
const JsonlLine = z
  .object({
    id: z.union([z.string().min(1), z.number()]).optional(),
    question_id: z.union([z.string().min(1), z.number()]).optional(),
    prediction: PredictionText,
    date: DateText.optional(),
    question_date: SlashedDate.optional(),
    choices: z.array(z.string()).optional(),
  })
  .passthrough()
  .refine((line) => line.id !== undefined || line.question_id !== undefined, { error: 'missing: give "id" (or RealTimeQA\'s "question_id")', path: ['id'] });
const ResultsEntry = z.union([z.string(), z.object({ prediction: PredictionText }).passthrough()], {
  error: "expected the answer as a string (SQuAD's {id: answer}) or {prediction: {text}} (GrowOVER's results JSON)",
});
const ResultsJson = z.record(z.string().min(1), ResultsEntry);

/**
 * The answer a prediction gives: its text, or the choices a RealTimeQA multiple-choice line names by
 * index (wikidelta's questions are open, so an index means nothing without the line's choices).
 */
function text(prediction: z.infer<typeof PredictionText>, choices: readonly string[] | undefined): string | { field: string; problem: string } {
  if (typeof prediction === 'string') return prediction;
  if (!Array.isArray(prediction)) return prediction.text;
  if (choices === undefined) return { field: 'prediction', problem: "a list of choice indices (RealTimeQA's multiple-choice submission) needs the line's \"choices\": wikidelta's questions are open, so give the answer as text" };
  const picked: string[] = [];
  for (const index of prediction) {
    const choice = choices[Number(index)];
    if (choice === undefined) return { field: 'prediction', problem: `choice ${index} is not among the line's ${choices.length} choices (indices start at 0)` };
    picked.push(choice);
  }
  return picked.join('; ');
}

/** The prediction's text, or a UserError naming `where` when it is over the cap. */
function capped(prediction: string, where: string): string {
  if (prediction.length > MAX_PREDICTION_CHARS) {
    throw new UserError('E_PREDICTION_TOO_LARGE', `${where}: a prediction of ${prediction.length} characters, more than the ${MAX_PREDICTION_CHARS} a prediction may hold`);
  }
  return prediction;
}

/** Refuses a line over MAX_LINE_CHARS: `whole` when its length is known, else the part read so far is already too long. */
function refuseLongLine(length: number, source: string, number: number, whole = true): void {
  if (length > MAX_LINE_CHARS) {
    const size = whole ? `${length}` : `more than ${MAX_LINE_CHARS}`;
    throw new UserError('E_PREDICTION_TOO_LARGE', `${source} line ${number}: a line of ${size} characters, more than the ${MAX_LINE_CHARS} a prediction line may hold (a prediction may hold ${MAX_PREDICTION_CHARS})`);
  }
}

/** The first problem of a parse, as `field NAME: what is wrong`. */
function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const field = issue.path.map(String).join('.');
  return field === '' ? issue.message : `field "${field}": ${issue.message}`;
}

/**
 * Hands each prediction on with where it came from: the file and the line (0 for a results JSON,
 * read whole). Two values rather than `FILE line N`: a million lines would build a million texts
 * that only an error reads (`placeOf` builds one).
 */
export type PredictionSink = (prediction: Prediction, source: string, line: number) => void;

/**
 * Where a prediction was read, as errors name it.
 *
 * @example placeOf('p.jsonl', 3) === 'p.jsonl line 3'; placeOf('results.json', 0) === 'results.json'
 */
export function placeOf(source: string, line: number): string {
  return line === 0 ? source : `${source} line ${line}`;
}

/**
 * The predictions of a file's text, in file order; `source` names the file in errors. The same id
 * (for the same date) twice is an error: which one counts would be a guess.
 *
 * @param content - JSONL (`{id|question_id, prediction, date?}` a line) or GrowOVER's results JSON
 * @throws UserError naming the file and line for JSON that does not parse, a line without an id or a
 *   prediction, an over-long prediction, or an id given twice
 * @example parsePredictions('{"id": "q1", "prediction": "Paris"}\n', 'p.jsonl') // [{ id: 'q1', prediction: 'Paris', date: null }]
 */
export function parsePredictions(content: string, source: string): Prediction[] {
  const predictions: Prediction[] = [];
  const seen = new Set<string>();
  const collect: PredictionSink = (p) => {
    const key = `${p.id}\u0000${p.date ?? ''}`;
    if (seen.has(key)) throw new UserError('E_PREDICTION_DUPLICATE', `${source}: id "${p.id}"${p.date ? ` for ${p.date}` : ''} is predicted twice`);
    seen.add(key);
    predictions.push(p);
  };
  if (looksLikeResultsJson(content)) parseResultsJson(content, source, collect);
  else {
    const lines = content.split('\n');
    lines.forEach((line, i) => parseLine(line, source, i + 1, collect));
  }
  return predictions;
}

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a prediction file, handing on each prediction as it is parsed: JSONL a chunk at a time,
 * GrowOVER's results JSON whole (one object). Duplicates are the sink's to refuse.
 *
 * @param path - the prediction file
 * @param sink - called with each prediction and where it was read (the file and the line)
 * @throws UserError for a file that cannot be read, or a line as `parsePredictions` refuses it
 * @example
 * const seen: Prediction[] = [];
 * readPredictionFile('gpt.jsonl', (prediction) => seen.push(prediction));
 */
export function readPredictionFile(path: string, sink: PredictionSink): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UserError('E_FILE_UNREADABLE', `cannot read predictions ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let count = 0;
  const counted: PredictionSink = (prediction, source, line) => {
    count++;
    sink(prediction, source, line);
  };
  try {
    if (fstatSync(fd).isDirectory()) throw new UserError('E_FILE_UNREADABLE', `cannot read predictions ${path}: a directory, not a file`);
    readOpenPredictionFile(fd, path, counted);
  } finally {
    closeSync(fd);
  }
  // An empty upload is a mistake far more often than a system that answered nothing.
  if (count === 0) throw new UserError('E_PREDICTIONS_INVALID', `${path}: holds no predictions; expected ${FORMATS}`);
}

function readOpenPredictionFile(fd: number, path: string, sink: PredictionSink): void {
  // Each line is decoded on its own, not sliced from a decoded chunk: a text kept from a line (an
  // id, a prediction) would otherwise hold the whole chunk in memory.
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let filled = 0;
  let lineNumber = 0;
  let first = true;
  for (;;) {
    if (filled === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
    const read = readSync(fd, buffer, filled, buffer.length - filled, null);
    filled += read;
    if (first) {
      refuseNonText(buffer.subarray(0, filled), path);
      const head = buffer.toString('utf8', 0, filled);
      if (head.trimStart() !== '') {
        first = false;
        if (startsLikeResultsJson(head)) {
          const size = fstatSync(fd).size;
          if (size > MAX_RESULTS_JSON_BYTES) {
            throw new UserError(
              'E_PREDICTIONS_INVALID',
              `${path}: a results JSON of ${Math.round(size / 2 ** 20)} MiB, read whole, is over the ${MAX_RESULTS_JSON_BYTES / 2 ** 20} MiB it may hold: write it as JSONL {id, prediction} lines, read one at a time`,
            );
          }
          const content = utf8Text(Buffer.concat([buffer.subarray(0, filled), readFileSync(fd)]), path, null);
          if (looksLikeResultsJson(content)) return parseResultsJson(content, path, sink);
          // Read whole already: its lines from the text.
          return content.split('\n').forEach((line, i) => parseLine(line, path, i + 1, sink));
        }
      }
    }
    if (read === 0) break;
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1 && end < filled; end = buffer.indexOf(NEWLINE, start)) {
      parseLine(utf8Text(buffer.subarray(start, end), path, ++lineNumber), path, lineNumber, sink);
      start = end + 1;
    }
    buffer.copy(buffer, 0, start, filled);
    filled -= start;
    // A line with no end in sight is refused before it is held whole (a UTF-16 unit is at most 3 UTF-8 bytes).
    if (filled > 3 * MAX_LINE_CHARS) refuseLongLine(MAX_LINE_CHARS + 1, path, lineNumber + 1, false);
  }
  if (filled > 0) parseLine(utf8Text(buffer.subarray(0, filled), path, ++lineNumber), path, lineNumber, sink);
}

/**
 * A line's text (or, with no line number, the whole file's); bytes that are not UTF-8 (a file saved as Latin-1 or Windows-1252) are refused, not
 * read as U+FFFD: "é" read so scored a right answer wrong, with not a word said.
 */
function utf8Text(bytes: Buffer, path: string, lineNumber: number | null): string {
  const text = bytes.toString('utf8');
  // The check of the bytes runs only on a line whose text holds a replacement character at all.
  if (text.includes('\ufffd') && !isUtf8(bytes)) {
    throw new UserError('E_PREDICTIONS_INVALID', `${path}${lineNumber === null ? '' : ` line ${lineNumber}`}: bytes that are not UTF-8 (saved as Latin-1 or Windows-1252?): save it as UTF-8`);
  }
  return text;
}

const NEWLINE = 0x0a;

/** The first bytes of the compressed files a system's predictions come as, and what opens each. */
const COMPRESSED: ReadonlyArray<{ magic: readonly number[]; what: string }> = [
  { magic: [0x1f, 0x8b], what: 'gzip-compressed: decompress it first (gunzip)' },
  { magic: [0x42, 0x5a, 0x68], what: 'bzip2-compressed: decompress it first (bunzip2)' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed: decompress it first (unxz)' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed: decompress it first (unzstd)' },
  { magic: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive: extract the prediction file from it' },
];

/**
 * Refuses a file that is no UTF-8 text by what it is, not as line 1 not being JSON: a compressed
 * file, or UTF-16 (what Windows tools save as "Unicode"), with or without its byte order mark.
 */
function refuseNonText(head: Buffer, path: string): void {
  const compressed = COMPRESSED.find(({ magic }) => magic.every((byte, i) => head[i] === byte));
  // Text that is UTF-16 has a NUL beside nearly every ASCII character: `{` is 7b 00 or 00 7b.
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || (head.length >= 2 && (head[0] === 0) !== (head[1] === 0));
  const what = compressed?.what ?? (utf16 ? 'UTF-16 text: save it as UTF-8' : null);
  if (what) throw new UserError('E_PREDICTIONS_INVALID', `${path}: is ${what}; expected ${FORMATS} in UTF-8`);
}

/** A results JSON object starts with `{` and, unlike a JSONL line, does not end on its first line. */
function startsLikeResultsJson(head: string): boolean {
  const trimmed = head.trimStart();
  if (!trimmed.startsWith('{')) return false;
  const firstLine = trimmed.slice(0, trimmed.indexOf('\n') === -1 ? undefined : trimmed.indexOf('\n')).trim();
  try {
    const value: unknown = JSON.parse(firstLine);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && !('prediction' in value) && !('id' in value) && !('question_id' in value);
  } catch {
    return true;
  }
}

/** One JSON object over several lines, or on one line with objects (not predictions) as values. */
function looksLikeResultsJson(content: string): boolean {
  const trimmed = content.trim();
  if (!trimmed.startsWith('{')) return false;
  if (!trimmed.includes('\n')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      return typeof value === 'object' && value !== null && !Array.isArray(value) && !('prediction' in value) && !('id' in value) && !('question_id' in value);
    } catch {
      return false;
    }
  }
  const firstLine = trimmed.slice(0, trimmed.indexOf('\n')).trim();
  try {
    JSON.parse(firstLine);
    return false;
  } catch {
    return true;
  }
}

/** SQuAD's `{id: answer}` or GrowOVER's `{id: {prediction: {text}}}`, one JSON object; an error names the line of the id at fault. */
function parseResultsJson(content: string, source: string, sink: PredictionSink): void {
  let value: unknown;
  try {
    // trimStart: an editor's byte-order mark too, which JSON.parse refuses and a JSONL line's trim drops.
    value = JSON.parse(content.trimStart());
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const where = at === null ? source : `${source} line ${lineAt(content, content.length - content.trimStart().length + Number(at[1]))}`;
    throw new UserError('E_PREDICTIONS_INVALID', `${where}: not valid JSON (${message}); expected ${FORMATS}`);
  }
  // JSON.parse keeps the last of two equal keys: which answer counts would be the parser's guess.
  const twice = repeatedKey(content);
  if (twice !== null) throw new UserError('E_PREDICTION_DUPLICATE', `${source} line ${lineAt(content, twice.at)}: id "${twice.key}" is predicted twice`);
  const parsed = ResultsJson.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const id = issue?.path[0];
    const where = typeof id === 'string' ? located(source, content, id) : source;
    throw new UserError('E_PREDICTIONS_INVALID', `${where}: ${typeof id === 'string' ? `"${id}": ` : ''}${issue?.message ?? 'invalid'}`);
  }
  for (const [id, entry] of Object.entries(parsed.data)) {
    const answer = typeof entry === 'string' ? entry : text(entry.prediction, undefined);
    if (typeof answer !== 'string') throw new UserError('E_PREDICTIONS_INVALID', `${located(source, content, id)}: "${id}": ${answer.problem}`);
    sink({ id, prediction: capped(answer, `${source} id "${id}"`), date: null }, source, 0);
  }
}

/** `FILE line N`, N the line on which an object key first appears in a JSON text (the file alone when it is written otherwise). */
function located(source: string, content: string, key: string): string {
  const at = content.search(new RegExp(`${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`));
  return at < 0 ? source : `${source} line ${lineAt(content, at)}`;
}

/** The line (from 1) of a character offset. */
function lineAt(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The first key of a valid JSON text's top-level object that repeats an earlier one (decoded, so
 * `"a"` and `"\u0061"` are one key), with the offset of the repeat; null when none does.
 */
function repeatedKey(content: string): { key: string; at: number } | null {
  const keys = new Set<string>();
  let depth = 0;
  for (let i = 0; i < content.length; i++) {
    const char = content[i];
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    else if (char === '"') {
      const start = i;
      for (i++; content[i] !== '"'; i++) if (content[i] === '\\') i++;
      if (depth !== 1) continue;
      let next = i + 1;
      while (/\s/.test(content[next] ?? '')) next++;
      if (content[next] !== ':') continue;
      const key = JSON.parse(content.slice(start, i + 1)) as string;
      if (keys.has(key)) return { key, at: start };
      keys.add(key);
    }
  }
  return null;
}

/**
 * The line most files are made of, `{"id":"…","prediction":"…","date":"YYYY-MM-DD"}` (the date
 * optional) as `JSON.stringify` writes it, with no escape or control character in its strings: read
 * without JSON.parse and zod, which a million lines would spend seconds in. It yields what they
 * would; any other line (and a date that is no real day) takes the full path and its errors.
 */
const PLAIN_LINE = /^\{"id":"([^"\\\x00-\x1f]+)","prediction":"([^"\\\x00-\x1f]*)"(?:,"date":"(\d{4}-\d{2}-\d{2})")?\}$/;

function isRealDate(date: string): boolean {
  return calendarDates.has(date) || (isCalendarDate(date) && calendarDates.add(date).has(date));
}

function parseLine(raw: string, source: string, number: number, sink: PredictionSink): void {
  const line = raw.trim();
  if (line === '') return;
  refuseLongLine(line.length, source, number);
  const plain = PLAIN_LINE.exec(line);
  if (plain !== null && (plain[3] === undefined || isRealDate(plain[3]))) {
    const prediction = plain[2] as string;
    // The place is named only for a prediction over the cap: most lines need no text of it.
    sink({ id: plain[1] as string, prediction: prediction.length > MAX_PREDICTION_CHARS ? capped(prediction, placeOf(source, number)) : prediction, date: plain[3] ?? null }, source, number);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UserError('E_PREDICTIONS_INVALID', `${source} line ${number}: not valid JSON; expected ${FORMATS}`);
  }
  // A JSON array or a bare value on the line is a file of another shape, not an object missing a field.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError('E_PREDICTIONS_INVALID', `${source} line ${number}: ${Array.isArray(value) ? 'a JSON array' : `JSON ${value === null ? 'null' : typeof value}`}, not an object; expected ${FORMATS}`);
  }
  const parsed = JsonlLine.safeParse(value);
  if (!parsed.success) {
    const problem = describe(parsed.error);
    // A field missing may be a file of another shape altogether: say which shapes are read.
    throw new UserError('E_PREDICTIONS_INVALID', `${source} line ${number}: ${problem}${problem.includes(': missing') ? `; expected ${FORMATS}` : ''}`);
  }
  const { id, question_id: questionId, prediction, date, question_date: questionDate, choices } = parsed.data;
  const answer = text(prediction, choices);
  if (typeof answer !== 'string') throw new UserError('E_PREDICTIONS_INVALID', `${source} line ${number}: field "${answer.field}": ${answer.problem}`);
  sink({ id: String(id ?? questionId), prediction: capped(answer, placeOf(source, number)), date: date ?? questionDate ?? null }, source, number);
}
