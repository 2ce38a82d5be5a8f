/**
 * The three ways of asking an OpenAI-compatible server for a structured reply, best first: a JSON
 * schema it enforces (structured outputs), JSON mode with the schema spelled out in the prompt, and
 * plain `FIELD: value` lines. Local servers differ in what they accept; whatever comes back is
 * validated with the same zod schema, never evaluated.
 */
import { z } from 'zod';
import { failed, ok, type Result } from '../result.js';

/** The reply formats, best first: a client falls back to the next when a server refuses one. */
export const OUTPUT_MODES = ['json_schema', 'json_object', 'text'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** Replies are flat objects of strings (or string enums), so every mode can carry them. */
export type ReplySchema = z.ZodObject<Record<string, z.ZodString | z.ZodEnum>>;

/** What to append to the rendered prompt so the reply comes in this mode's shape. */
export function formatInstructions(mode: OutputMode, schema: ReplySchema): string {
  if (mode === 'json_schema') return '';
  if (mode === 'json_object') {
    return `\n\nReply with a single JSON object and nothing else. It must match this JSON Schema:\n${JSON.stringify(jsonSchemaOf(schema))}`;
  }
  const lines = Object.entries(schema.shape).map(([field, type]) => `${textLabel(field)}: <${describeField(type)}>`);
  return `\n\nReply with exactly these lines and nothing else, each on one line:\n${lines.join('\n')}`;
}

/**
 * The request's `response_format` for a mode: a strict JSON schema, JSON mode, or none for plain lines.
 *
 * @example responseFormat('json_object', 'answer', AnswerReply) // { type: 'json_object' }
 */
export function responseFormat(mode: OutputMode, name: string, schema: ReplySchema): Record<string, unknown> | undefined {
  if (mode === 'json_schema') return { type: 'json_schema', json_schema: { name, strict: true, schema: jsonSchemaOf(schema) } };
  if (mode === 'json_object') return { type: 'json_object' };
  return undefined;
}

/**
 * A reply's content read in its mode (JSON, a code fence around it allowed, or `FIELD: value` lines) and validated.
 *
 * @param fields - the schema's field names, which the text mode's lines are read by
 * @returns the value, or why the reply is invalid (quoting its start), to send back as a repair
 * @example parseReply('text', 'ANSWER: Kai Wegner', AnswerReply, ['answer']) // { ok: true, value: { answer: 'Kai Wegner' } }
 */
export function parseReply<T>(mode: OutputMode, content: string | null | undefined, schema: z.ZodType<T>, fields: string[]): Result<T> {
  if (content === null || content === undefined || content.trim() === '') return failed('empty reply');
  let candidate: unknown;
  if (mode === 'text') {
    candidate = parseLines(content, fields);
  } else {
    try {
      candidate = JSON.parse(stripCodeFence(content));
    } catch {
      return failed(`reply is not JSON: ${clip(content)}`);
    }
  }
  const result = schema.safeParse(candidate);
  if (result.success) return ok(result.data);
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`).join('; ');
  return failed(`reply does not match the schema (${issues}): ${clip(content)}`);
}

/**
 * The reply's JSON Schema as strict structured-output servers accept it: without `$schema` and
 * without length bounds (zod still checks those on the reply).
 */
export function jsonSchemaOf(schema: ReplySchema): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  const properties = rest.properties as Record<string, Record<string, unknown>>;
  for (const property of Object.values(properties)) {
    delete property.minLength;
    delete property.maxLength;
  }
  return rest;
}

function describeField(type: z.ZodString | z.ZodEnum): string {
  return type instanceof z.ZodEnum ? `one of: ${type.options.join(' | ')}` : (type.description ?? 'text');
}

function textLabel(field: string): string {
  return field.toUpperCase();
}

/**
 * `FIELD: value` lines into an object; unknown lines are ignored, a field given twice keeps its first
 * value. A label in Markdown emphasis counts, the colon inside it or not (`**ANSWER**:`, `**ANSWER:**`).
 */
function parseLines(content: string, fields: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of content.split('\n')) {
    const match = /^\s*\**([A-Za-z_]+)\**\s*:(?:\*+(?=\s))?\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const field = fields.find((name) => textLabel(name) === (match[1] as string).toUpperCase());
    if (field !== undefined && !(field in values)) values[field] = match[2] as string;
  }
  return values;
}

/** Some servers wrap JSON in a Markdown code fence even in JSON mode (its language `json` or `JSON`). */
function stripCodeFence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(content);
  return fenced ? (fenced[1] as string) : content;
}

function clip(text: string, length = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}
