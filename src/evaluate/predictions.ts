/**
 * Prediction files as researchers submit them, parsed with zod: JSONL `{id, prediction}` (RealTimeQA's
 * `question_id` for `id`, an optional `date` per line, `prediction` as text or GrowOVER's
 * `{text}`), or GrowOVER's results JSON `{id: {prediction: {text}, ...}}`. A bad line is a
 * UserError naming it, so nothing is scored from a half-read file. A prediction may hold at most
 * MAX_PREDICTION_CHARS: scoring normalises and tokenises it several times over, and one of 100 MB
 * took 3.4 GB; a longer one is refused with its line, before its line is even parsed.
 */
import { z } from 'zod';
import { isCalendarDate } from '../dates.js';
import { UserError } from '../errors.js';

export interface Prediction {
  id: string;
  prediction: string;
  /** YYYY-MM-DD, when the line names the date it answers for. */
  date: string | null;
}

/** Answers are a few words; a system's whole reply, reasoning included, fits many times over. */
export const MAX_PREDICTION_CHARS = 100_000;
/** A JSONL line longer than this holds a prediction over the cap, however escaped (\uXXXX is 6 characters for 1). */
const MAX_LINE_CHARS = 6 * MAX_PREDICTION_CHARS + 10_000;

const PredictionText = z.union([z.string(), z.object({ text: z.string() }).passthrough()]);
const DateText = z.string().refine(isCalendarDate, { error: (issue) => `${JSON.stringify(issue.input)} is not a real calendar date as YYYY-MM-DD` });
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

/** The prediction's text, or a UserError naming `where` when it is over the cap. */
function capped(prediction: string, where: string): string {
  if (prediction.length > MAX_PREDICTION_CHARS) {
    throw new UserError(`${where}: a prediction of ${prediction.length} characters, more than the ${MAX_PREDICTION_CHARS} a prediction may hold`);
  }
  return prediction;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'line'}: ${issue.message}` : 'invalid';
}

/**
 * The predictions of a file's text, in file order; `source` names the file in errors. The same id
 * (for the same date) twice is an error: which one counts would be a guess.
 *
 * @example parsePredictions('{"id": "q1", "prediction": "Paris"}\n', 'p.jsonl') // [{ id: 'q1', prediction: 'Paris', date: null }]
 */
export function parsePredictions(content: string, source: string): Prediction[] {
  const predictions = looksLikeResultsJson(content) ? parseResultsJson(content, source) : parseJsonl(content, source);
  const seen = new Set<string>();
  for (const p of predictions) {
    const key = `${p.id}\u0000${p.date ?? ''}`;
    if (seen.has(key)) throw new UserError(`${source}: id "${p.id}"${p.date ? ` for ${p.date}` : ''} is predicted twice`);
    seen.add(key);
  }
  return predictions;
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

function parseResultsJson(content: string, source: string): Prediction[] {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    throw new UserError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = ResultsJson.safeParse(value);
  if (!parsed.success) throw new UserError(`${source}: not GrowOVER's results JSON {id: {prediction: {text}}}: ${describe(parsed.error)}`);
  return Object.entries(parsed.data).map(([id, entry]) => ({ id, prediction: capped(text(entry.prediction), `${source} id "${id}"`), date: null }));
}

function parseJsonl(content: string, source: string): Prediction[] {
  const predictions: Prediction[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    if (line.length > MAX_LINE_CHARS) {
      throw new UserError(`${source} line ${i + 1}: a line of ${line.length} characters, whose prediction is over the ${MAX_PREDICTION_CHARS} characters a prediction may hold`);
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UserError(`${source} line ${i + 1}: not valid JSON`);
    }
    const parsed = JsonlLine.safeParse(value);
    if (!parsed.success) throw new UserError(`${source} line ${i + 1}: expected {id, prediction}: ${describe(parsed.error)}`);
    const { id, question_id: questionId, prediction, date } = parsed.data;
    predictions.push({ id: String(id ?? questionId), prediction: capped(text(prediction), `${source} line ${i + 1}`), date: date ?? null });
  }
  return predictions;
}
