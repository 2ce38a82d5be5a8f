/**
 * Prediction files as researchers submit them, parsed with zod: JSONL `{id, prediction}` (RealTimeQA's
 * `question_id` for `id`, an optional `date` per line, `prediction` as text or GrowOVER's
 * `{text}`), or GrowOVER's results JSON `{id: {prediction: {text}, ...}}`. A bad line is a
 * UserError naming it, so nothing is scored from a half-read file. A JSONL file is read a chunk at
 * a time and each line handed on as it is parsed, so a million predictions cost their index, not
 * their file, in memory.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { isCalendarDate } from '../dates.js';
import { UserError } from '../errors.js';

export interface Prediction {
  id: string;
  prediction: string;
  /** YYYY-MM-DD, when the line names the date it answers for. */
  date: string | null;
}

const PredictionText = z.union([z.string(), z.object({ text: z.string() }).passthrough()]);
/** Dates already found real: a million lines name a handful of dates. */
const calendarDates = new Set<string>();
const DateText = z.string().refine((date) => calendarDates.has(date) || (isCalendarDate(date) && calendarDates.add(date).has(date)), {
  error: (issue) => `${JSON.stringify(issue.input)} is not a real calendar date as YYYY-MM-DD`,
});
const JsonlLine = z
  .object({
    id: z.union([z.string().min(1), z.number()]).optional(),
    question_id: z.union([z.string().min(1), z.number()]).optional(),
    prediction: PredictionText,
    date: DateText.optional(),
  })
  .passthrough()
  .refine((line) => line.id !== undefined || line.question_id !== undefined, 'an "id" (or "question_id")');
const ResultsJson = z.record(z.string().min(1), z.object({ prediction: PredictionText }).passthrough());

function text(prediction: z.infer<typeof PredictionText>): string {
  return typeof prediction === 'string' ? prediction : prediction.text;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'line'}: ${issue.message}` : 'invalid';
}

/** Hands each prediction on with where it came from (`FILE line N`, or the file for a results JSON). */
export type PredictionSink = (prediction: Prediction, where: string) => void;

/**
 * The predictions of a file's text, in file order; `source` names the file in errors. The same id
 * (for the same date) twice is an error: which one counts would be a guess.
 *
 * @example parsePredictions('{"id": "q1", "prediction": "Paris"}\n', 'p.jsonl') // [{ id: 'q1', prediction: 'Paris', date: null }]
 */
export function parsePredictions(content: string, source: string): Prediction[] {
  const predictions: Prediction[] = [];
  const seen = new Set<string>();
  const collect: PredictionSink = (p) => {
    const key = `${p.id}\u0000${p.date ?? ''}`;
    if (seen.has(key)) throw new UserError(`${source}: id "${p.id}"${p.date ? ` for ${p.date}` : ''} is predicted twice`);
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
 */
export function readPredictionFile(path: string, sink: PredictionSink): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UserError(`cannot read predictions ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let pending = '';
    let lineNumber = 0;
    let first = true;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      pending += decoder.write(buffer.subarray(0, read));
      if (first && pending.trimStart() !== '') {
        first = false;
        if (startsLikeResultsJson(pending)) {
          for (let more = readSync(fd, buffer); more > 0; more = readSync(fd, buffer)) pending += decoder.write(buffer.subarray(0, more));
          pending += decoder.end();
          if (looksLikeResultsJson(pending)) return parseResultsJson(pending, path, sink);
        }
      }
      let end = pending.indexOf('\n');
      let start = 0;
      for (; end !== -1; end = pending.indexOf('\n', start)) {
        parseLine(pending.slice(start, end), path, ++lineNumber, sink);
        start = end + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending !== '') parseLine(pending, path, ++lineNumber, sink);
  } finally {
    closeSync(fd);
  }
}

/** A results JSON object starts with `{` and, unlike a JSONL line, does not end on its first line. */
function startsLikeResultsJson(head: string): boolean {
  const trimmed = head.trimStart();
  if (!trimmed.startsWith('{')) return false;
  const firstLine = trimmed.slice(0, trimmed.indexOf('\n') === -1 ? undefined : trimmed.indexOf('\n')).trim();
  try {
    const value: unknown = JSON.parse(firstLine);
    return typeof value === 'object' && value !== null && !('prediction' in value) && !('id' in value) && !('question_id' in value);
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
      return typeof value === 'object' && value !== null && !('prediction' in value);
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

function parseResultsJson(content: string, source: string, sink: PredictionSink): void {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    throw new UserError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = ResultsJson.safeParse(value);
  if (!parsed.success) throw new UserError(`${source}: not GrowOVER's results JSON {id: {prediction: {text}}}: ${describe(parsed.error)}`);
  for (const [id, entry] of Object.entries(parsed.data)) sink({ id, prediction: text(entry.prediction), date: null }, source);
}

function parseLine(raw: string, source: string, number: number, sink: PredictionSink): void {
  const line = raw.trim();
  if (line === '') return;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UserError(`${source} line ${number}: not valid JSON`);
  }
  const parsed = JsonlLine.safeParse(value);
  if (!parsed.success) throw new UserError(`${source} line ${number}: expected {id, prediction}: ${describe(parsed.error)}`);
  const { id, question_id: questionId, prediction, date } = parsed.data;
  sink({ id: String(id ?? questionId), prediction: text(prediction), date: date ?? null }, `${source} line ${number}`);
}
