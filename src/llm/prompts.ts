/**
 * Versioned prompt templates from `prompts/NAME.txt`: a header of `field: value` lines (name,
 * version, description, max_tokens), a line `---`, then the text with `{{placeholders}}`. A template
 * is part of every cache key and every item's provenance, so a changed wording must come with a new
 * version. `max_tokens` is the task's reply budget, sent with every request of the prompt: a model
 * that runs on is cut off there, not paid for megabytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { packageRoot } from '../packageRoot.js';

export const PROMPTS_DIR = join(packageRoot(), 'prompts');

/** A prompt file (prompts/NAME.txt) read: its header fields, its text and the placeholders the text uses. */
export interface PromptTemplate {
  name: string;
  version: string;
  description: string;
  /** The most tokens a reply to this prompt may take (the request's `max_tokens`). */
  maxTokens: number;
  text: string;
  placeholders: string[];
}

const PromptHeader = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes'),
    version: z.string().regex(/^\d+$/, 'a whole number'),
    description: z.string().min(1),
    max_tokens: z.coerce.number().int('a whole number').min(16).max(32_768),
  })
  .strict();

const PLACEHOLDER = /\{\{([a-z_]+)\}\}/g;

const loaded = new Map<string, PromptTemplate>();

/** The template `prompts/NAME.txt`, read and checked once per process. */
export function loadPrompt(name: string, dir = PROMPTS_DIR): PromptTemplate {
  const path = join(dir, `${name}.txt`);
  const known = loaded.get(path);
  if (known) return known;
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch {
    throw new InputError('E_FILE_UNREADABLE', `prompt template ${path} cannot be read`);
  }
  const template = parsePrompt(source, path);
  if (template.name !== name) throw new InputError('E_PROMPT_INVALID', `prompt template ${path} names itself "${template.name}", expected "${name}"`);
  loaded.set(path, template);
  return template;
}

/**
 * A prompt file's text read: `field: value` header lines (name, version, description, max_tokens),
 * a `---` line, then the template with `{{placeholder}}`s.
 *
 * @param where - the file, for errors
 * @throws InputError naming the file and line for a missing `---`, a header line that is not `field: value`, or a header field missing or malformed
 */
export function parsePrompt(source: string, where: string): PromptTemplate {
  const separator = source.indexOf('\n---\n');
  if (separator < 0) throw new InputError('E_PROMPT_INVALID', `prompt template ${where} has no "---" line after its header`);
  const fields: Record<string, string> = {};
  for (const line of source.slice(0, separator).split('\n')) {
    if (line.trim() === '') continue;
    const match = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!match) throw new InputError('E_PROMPT_INVALID', `prompt template ${where}: header line "${line}" is not "field: value"`);
    fields[match[1] as string] = (match[2] as string).trim();
  }
  const header = PromptHeader.safeParse(fields);
  if (!header.success) {
    const issue = header.error.issues[0] as z.core.$ZodIssue;
    throw new InputError('E_PROMPT_INVALID', `prompt template ${where}: header ${issue.path.join('.') || 'fields'}: ${issue.message}`);
  }
  const text = source.slice(separator + 5).trim();
  const placeholders = [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
  const { max_tokens: maxTokens, ...named } = header.data;
  return { ...named, maxTokens, text, placeholders };
}

/** The template with every placeholder filled; a missing or unexpected variable is a programming error. */
export function renderPrompt(template: PromptTemplate, variables: Record<string, string>): string {
  const missing = template.placeholders.filter((name) => !(name in variables));
  const extra = Object.keys(variables).filter((name) => !template.placeholders.includes(name));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`prompt ${template.name}@${template.version}: missing {${missing.join(', ')}}, unexpected {${extra.join(', ')}}`);
  }
  return template.text.replace(PLACEHOLDER, (_, name: string) => variables[name] as string);
}
