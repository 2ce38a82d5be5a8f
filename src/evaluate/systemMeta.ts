/**
 * What a submission says of its system beside its predictions (`SYSTEM.meta.json`, docs/ARCHITECTURE.md
 * §15): its training cutoff, so that scores split into the answers it could have learned and those that
 * changed after. Other fields (a model name, a link) are the submitter's and are kept out of scoring.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isCalendarDate } from '../dates.js';
import { UserError } from '../errors.js';
import { withoutByteOrderMark } from '../text/byteOrderMark.js';

/** What a system's meta file (`NAME.meta.json`) says of it. */
export interface SystemMeta {
  /** YYYY-MM-DD: the last day of the system's training data; null when not given. */
  cutoff: string | null;
}

const MetaFile = z
  .object({ cutoff: z.string().refine(isCalendarDate, { error: (issue) => `${JSON.stringify(issue.input)} is not a real calendar date as YYYY-MM-DD` }).optional() })
  .passthrough();

/** The meta file beside a predictions file: `NAME.meta.json` for `NAME.jsonl` or `NAME.json`. */
export function metaPathOf(predictions: string): string {
  return `${predictions.replace(/\.jsonl?$/, '')}.meta.json`;
}

/**
 * A meta file's text, checked.
 *
 * @example parseSystemMeta('{"cutoff": "2024-12-01"}', 'gpt.meta.json') // { cutoff: '2024-12-01' }
 */
export function parseSystemMeta(text: string, where: string): SystemMeta {
  let value: unknown;
  try {
    value = JSON.parse(withoutByteOrderMark(text));
  } catch {
    throw new UserError('E_SYSTEM_META_INVALID', `${where}: not valid JSON; expected {"cutoff": "YYYY-MM-DD"}`);
  }
  const parsed = MetaFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new UserError('E_SYSTEM_META_INVALID', `${where}: ${field === '' ? 'expected an object {"cutoff": "YYYY-MM-DD"}' : `field "${field}": ${issue?.message ?? 'invalid'}`}`);
  }
  return { cutoff: parsed.data.cutoff ?? null };
}

/**
 * The cutoff a system's meta file gives, or null when there is no such file.
 *
 * @throws UserError for a meta file that cannot be read (a directory, say) or that `parseSystemMeta` refuses
 * @example cutoffIn('submissions/gpt.meta.json') // '2024-12-01'
 */
export function cutoffIn(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new UserError('E_FILE_UNREADABLE', `cannot read the system's meta file ${path}: ${code ?? (error as Error).message}`);
  }
  return parseSystemMeta(text, path).cutoff;
}
